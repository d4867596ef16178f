// The exact search's estimates of the first size too large (semantics §4b): by the price edge, the price's line,
// the range's end a revert names, and the budget's edge; as contracts/ExactSearchRule.sol makes them, function for
// function under the same names (_estimateTop, _edgeTop, _keep, _priceLine, _priceBetween, _budgetTop, _window,
// _gallop, _line, _secantTop).
import { maxInt256, maxUint256 } from "viem";
import { abs, interpolate, inverseSqrtPrice } from "./exactMath.ts";
import { DUST, latest, type ExactState, type PreparedInput } from "./exactState.ts";
import { HALF_RANGE, lossModelTop, slopeUnit } from "./lossModel.ts";
import { mulDivUp } from "./priceMath.ts";

/** Two quoted values this close (in units of their last digit) cannot be told apart from their rounding. */
const RESOLUTION = 2n;

/**
 * Once the sides' requiredCollateral are at most this many units apart, the budget's edge lies within a few of their
 * roundings: the bracket is then searched as narrow (the rule's `narrowed`).
 */
const NARROW_UNITS = 8n;

/**
 * An estimate of the first size too large; how many wei one unit of the value it followed spans there (the unit of
 * regula falsi's steps past it); whether it came from a bracket narrowed to a few roundings (`narrow`); and whether
 * it came from the latest quotes alone (`steady`: a secant or the loss model, which regula falsi's steps would spoil).
 */
export type Estimate = { readonly size: bigint; readonly unit: bigint; readonly narrow?: boolean; readonly steady?: boolean };

/**
 * Estimates the first size past the top of the feasible interval, for each rule a size can break: where priceAfter
 * passes expectedPrice (the price edge, or interpolated on 1/sqrt(price), affine in size over one range), where
 * requiredCollateral passes the budget ({@link budgetTop}), and where the price reaches the end of the market's range
 * that a PoolPriceOutOfRange revert above names. The smallest binds (a tie keeps the first).
 */
export function estimateTop(input: PreparedInput, state: ExactState): Estimate | undefined {
  const { high } = state;
  const highQuote = high?.quote;
  const tooCostly = highQuote !== undefined && highQuote.requiredCollateral > input.collateralAvailable;
  let best = edgeTop(state, tooCostly);
  if (best === undefined) {
    // Without the edge, the price's own line: to expectedPrice, and to the range's end a revert above names.
    const origin = input.currentRoot;
    const passed = inverseSqrtPrice(input.direction === "LONG" ? input.expectedPrice + 1n : input.expectedPrice - 1n);
    best = keep(state, best, priceLine(state, origin, passed, highQuote !== undefined && !tooCostly));
    if (high !== undefined && highQuote === undefined && high.rangeEnd !== undefined) {
      best = keep(state, best, priceLine(state, origin, inverseSqrtPrice(high.rangeEnd), false));
    }
  }
  // Nothing can come nearer than one wei past the largest size known to fit: the budget need not be asked then.
  const nearest = state.low === undefined ? DUST + 1n : state.low.size + 1n;
  if (best === undefined || best.size > nearest) best = keep(state, best, budgetTop(input, state, tooCostly));
  return best;
}

/**
 * How far the search may stray from the price edge while the edge still guides it: its last steps (1, 2, 4, ...
 * wei past it) cover a swap's rounding at the price's boundary; farther away, the edge was no guide.
 */
const EDGE_WINDOW = 16n;

/**
 * The first size too large by the price, per the price edge: one wei past it, where the edge still guides. It does
 * not while the search has moved more than EDGE_WINDOW away from it, nor once a size at or below it is known to need
 * more than the budget (the budget binds there: the edge says nothing of it).
 */
function edgeTop(state: ExactState, tooCostly: boolean): Estimate | undefined {
  const { low, high } = state;
  const edge = state.edge.size;
  if (edge === undefined || (low !== undefined && low.size > edge + EDGE_WINDOW)) return undefined;
  if (high !== undefined && (high.size + EDGE_WINDOW <= edge || (tooCostly && high.size <= edge))) return undefined;
  return { size: edge < maxInt256 ? edge + 1n : maxInt256, unit: 1n };
}

/**
 * The better of `best` and `candidate`: the candidate when it is smaller and not above the size known too large (an
 * estimate above it says only that another rule binds later). The edge's estimate is exempt, never passed here: one
 * wei past an edge that went too far is where its steps down start.
 */
function keep(state: ExactState, best: Estimate | undefined, candidate: Estimate | undefined): Estimate | undefined {
  if (candidate === undefined || (state.high !== undefined && candidate.size > state.high.size)) return best;
  return best === undefined || candidate.size < best.size ? candidate : best;
}

/**
 * Where 1/sqrt(priceAfter), affine in size over one liquidity range, reaches `target` (a scaled 1/sqrt price):
 * between the sides when the size above broke the price (`brokenAbove`, {@link priceBetween}), else extrapolated from
 * the start of the trade (size 0, the current price's `origin`) through `low`.
 */
function priceLine(state: ExactState, origin: bigint | undefined, target: bigint | undefined, brokenAbove: boolean): Estimate | undefined {
  const { low, high } = state;
  if (target === undefined || origin === undefined) return undefined;
  const lowValue = low?.quote === undefined ? undefined : inverseSqrtPrice(low.quote.priceAfter);
  if (brokenAbove && high?.quote !== undefined) return priceBetween(state, lowValue, lowValue ?? origin, target);
  const s1 = low !== undefined && lowValue !== undefined ? low.size : 0n;
  const size = s1 > 0n ? interpolate(0n, origin, s1, lowValue!, target) : undefined;
  return size === undefined ? undefined : { size, unit: 1n };
}

/**
 * The price's line between the sides (from the start of the trade, at `y1`, when nothing below is quoted), with the
 * wei one unit of price spans between them; none where the sides' prices are too close to tell apart from their
 * rounding.
 */
function priceBetween(state: ExactState, lowValue: bigint | undefined, y1: bigint, target: bigint): Estimate | undefined {
  const high = state.high!;
  const highValue = inverseSqrtPrice(high.quote!.priceAfter);
  if (highValue === undefined) return undefined;
  const s1 = lowValue === undefined ? 0n : state.low!.size;
  // How far apart the two sides' prices are, from the current price when nothing below was quoted.
  const apart = abs(high.quote!.priceAfter - (lowValue === undefined ? 0n : state.low!.quote!.priceAfter));
  if (lowValue !== undefined && apart <= RESOLUTION) return undefined;
  const size = interpolate(s1, y1, high.size, highValue, target);
  const unit = lowValue === undefined || apart === 0n ? 1n : (high.size - s1) / apart;
  return size === undefined ? undefined : { size, unit: unit > 0n ? unit : 1n };
}

/**
 * The budget's first size too large: where requiredCollateral first passes collateralAvailable.
 * - Between a side that fits and one over budget: halfway, once their values are within a rounding or two (nothing
 *   tells where between them the edge lies); the line between them towards half a unit below the target (where a
 *   rounded-up value steps onto it), once they are a few roundings apart (narrow); {@link window}, a few units short
 *   of the target; {@link gallop} down from a side over budget within a rounding of the target, while nothing near
 *   fits; the line, when the last two quotes fell on either side; else the secant through the last two quotes, or the
 *   loss model from the latest ({@link lossModelTop}), kept inside the bracket; the line where neither is.
 * - With nothing over budget above: the loss model (a secant through two quotes that both fit reaches past the edge
 *   on a curve that bends up), or the line from the start of the trade (no collateral at size 0) through `low`.
 */
function budgetTop(input: PreparedInput, state: ExactState, tooCostly: boolean): Estimate | undefined {
  const { low, high } = state;
  // The smallest requiredCollateral over budget, saturated at 2^256-1 so that it fits 256 bits on chain.
  const target = input.collateralAvailable === maxUint256 ? maxUint256 : input.collateralAvailable + 1n;
  const lowValue = low?.quote?.requiredCollateral;
  const [s1, y1] = low !== undefined && lowValue !== undefined ? [low.size, lowValue] : [0n, 0n];
  if (!tooCostly) {
    const modelled = lossModelTop(input, state, target);
    if (modelled !== undefined && modelled > s1) return { size: modelled, unit: 1n, steady: true };
    const size = s1 > 0n ? interpolate(0n, 0n, s1, y1, target) : undefined;
    return size === undefined ? undefined : { size, unit: 1n };
  }
  const top = high!.size;
  const highValue = high!.quote!.requiredCollateral;
  const apart = highValue > y1 ? highValue - y1 : 0n;
  if (lowValue !== undefined) {
    if (apart <= RESOLUTION) return { size: (s1 + top) / 2n + 1n, unit: 1n, narrow: true };
    if (apart <= NARROW_UNITS) return line(state, s1, y1, target, true);
    const estimate = window(state, s1, y1, target, apart);
    if (estimate !== undefined) return estimate;
  }
  if (highValue - target < RESOLUTION && (lowValue === undefined || (lowValue < target && target - lowValue > NARROW_UNITS))) {
    return gallop(input, state);
  }
  if (lowValue !== undefined && (state.streak === 1 || state.streak === -1)) return line(state, s1, y1, target, false);
  const steady = secantTop(state, target) ?? lossModelTop(input, state, target);
  return steady !== undefined && steady > s1 && steady <= top ? { size: steady, unit: 1n, steady: true } : line(state, s1, y1, target, false);
}

/**
 * A few units (`missing`) short of the target at a side that fits, when the wei they span (at the bracket's average)
 * lie inside the bracket: the value there lies within its rounding, so the first size too large lies between the wei
 * that missing - 1 and missing units span (each rounded up); the size that splits those sizes, rounded down.
 */
function window(state: ExactState, s1: bigint, y1: bigint, target: bigint, apart: bigint): Estimate | undefined {
  if (y1 >= target) return undefined;
  const missing = target - y1;
  const width = state.high!.size - s1;
  const span = width / apart === 0n ? 1n : width / apart;
  if (missing > NARROW_UNITS || missing * span >= width) return undefined;
  // Both below width (missing * span < width), so within 256 bits.
  const first = mulDivUp(missing - 1n, width, apart)!;
  const last = mulDivUp(missing, width, apart)!;
  return { size: s1 + (first + last - 1n) / 2n + 1n, unit: 1n, steady: true };
}

/**
 * Down from a side over budget within a rounding of the target, nothing near fitting: steps of 1, 2, 4, ... units (the
 * loss model's, at the side) while quotes keep landing above it (the edge then lies a plateau or so below it).
 */
function gallop(input: PreparedInput, state: ExactState): Estimate {
  const top = state.high!.size;
  const run = state.streak < 0 ? BigInt(Math.min(-state.streak, 128)) : 1n;
  const step = slopeUnit(input, state.high!) << (run - 1n);
  return { size: step < top ? top - step + 1n : 1n, unit: 1n, steady: true };
}

/**
 * The line from (s1, y1) to the size above towards `target` (narrow: towards half a unit below it, on doubled values),
 * with the wei one unit spans between them.
 */
function line(state: ExactState, s1: bigint, y1: bigint, target: bigint, narrow: boolean): Estimate | undefined {
  const top = state.high!.size;
  const highValue = state.high!.quote!.requiredCollateral;
  // Doubled values must fit 256 bits on chain (a requirement of 2^255 is no market's).
  if (narrow && highValue >= HALF_RANGE) return undefined;
  const size = narrow ? interpolate(s1, 2n * y1, top, 2n * highValue, 2n * target - 1n) : interpolate(s1, y1, top, highValue, target);
  const apart = highValue > y1 ? highValue - y1 : 0n;
  const span = apart === 0n || (top - s1) / apart === 0n ? 1n : (top - s1) / apart;
  return size === undefined ? undefined : { size, unit: span, narrow };
}

/** Where the secant through the latest quote and the one before it reaches `target` in requiredCollateral. */
function secantTop(state: ExactState, target: bigint): bigint | undefined {
  const last = latest(state);
  const { prior } = state;
  if (last?.quote === undefined || prior?.quote === undefined || last.size === prior.size) return undefined;
  const [first, second] = prior.size < last.size ? [prior, last] : [last, prior];
  return interpolate(first.size, first.quote!.requiredCollateral, second.size, second.quote!.requiredCollateral, target);
}
