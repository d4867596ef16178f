// The rule by which the exact search of semantics §4b chooses its next step, from where it stands (its state)
// alone, and how each step moves the state: written in integers, every division rounding down, and bounded to 256
// bits, because contracts/ExactSearchRule.sol runs the same rule on chain, function for function, so that the
// searcher quotes exactly the candidates the service asks for (test/contracts/exactSearchRule.test.ts asks both the
// same questions).
import { maxInt256, maxUint256 } from "viem";
import type { CandidateQuote, Direction } from "./search.ts";

/** Below this (10^-12 of a token) the real contracts revert on rounding between sizes that fill (§4b). */
export const DUST = 10n ** 6n;

/** What the rule reads of the request and the market. */
export type ExactRuleInput = {
  readonly direction: Direction;
  /** collateral / currentPrice (§4): the first candidate unless the price edge is nearer. */
  readonly cap: bigint;
  readonly currentPrice: bigint;
  readonly expectedPrice: bigint;
  readonly collateralAvailable: bigint;
  /**
   * The settlement price at which a position in the trade's direction loses the most: the market's minimum price
   * for a LONG, its maximum for a SHORT (getMarket's minPriceD18, maxPriceD18). The loss model reads it.
   */
  readonly worstPrice: bigint;
  /** The pool's fee tier, in pips (getMarket's feeRate). */
  readonly feeRate: bigint;
  /** The pool's liquidity in range at the block (its `liquidity()`); 0 where it could not be read. */
  readonly liquidity: bigint;
};

/**
 * The input with what the pool's own range says before any quote, worked out once per search: whether to read the
 * price edge first ({@link edgeFirst}), and the budget's first guess ({@link poolBudgetTop}).
 */
export type PreparedInput = ExactRuleInput & { readonly edgeFirst: boolean; readonly poolBudget: bigint | undefined };

export function prepareExactRule(input: ExactRuleInput): PreparedInput {
  const poolBudget = poolBudgetTop(input);
  const price = poolPriceTop(input);
  return { ...input, poolBudget, edgeFirst: price === undefined || poolBudget === undefined || price <= poolBudget + poolBudget / 8n };
}

/** A quoted size; above the interval, a revert may tell the price the market's range ends at (`rangeEnd`). */
export type Known = { readonly size: bigint; readonly quote?: CandidateQuote; readonly rangeEnd?: bigint };

/**
 * The price edge (src/chain/priceEdge.ts) as the search knows it: asked for or not, and its size when the market's
 * QuoterV2 answered one (none when the market names no QuoterV2, or the call failed).
 */
export type EdgeKnowledge = { readonly asked: boolean; readonly size?: bigint };

/**
 * Where the exact search stands when it chooses its next step: the largest size quoted below the top of the
 * feasible interval (`low`), the smallest quoted above it (`high`), the quote made before the latest one (`prior`:
 * with the latest, the two points a secant runs through), how many quotes in a row landed on one side (positive
 * below, negative above; only guided quotes count), how many were quoted, and the price edge. The next step depends
 * on nothing else, so a searcher on chain continues the same search from here.
 */
export type ExactState = {
  readonly low?: Known;
  readonly high?: Known;
  readonly prior?: Known;
  readonly streak: number;
  readonly quoted: number;
  readonly edge: EdgeKnowledge;
};

/** The search's next step: read the price edge, or quote a size (guided: chosen by an estimate). */
export type ExactStep = { readonly kind: "edge" } | { readonly kind: "quote"; readonly size: bigint; readonly guided: boolean };

/** A search that has done nothing yet. */
export const START: ExactState = { streak: 0, quoted: 0, edge: { asked: false } };

/** The latest quote: the side the streak is on. */
function latestOf(state: ExactState): Known | undefined {
  return state.streak > 0 ? state.low : state.streak < 0 ? state.high : undefined;
}

/** The price edge read (its size, or none). */
export function recordEdge(state: ExactState, size: bigint | undefined): ExactState {
  return { ...state, edge: size === undefined ? { asked: true } : { asked: true, size } };
}

/** A quote that raised the low side (feasible, or short of priceLimit); an unguided one starts the streak afresh. */
export function recordBelow(state: ExactState, guided: boolean, size: bigint, quote: CandidateQuote): ExactState {
  const streak = guided && state.streak > 0 ? state.streak + 1 : 1;
  return { ...state, prior: latestOf(state), low: { size, quote }, streak, quoted: state.quoted + 1 };
}

/** A quote over the budget or beyond expectedPrice. */
export function recordAbove(state: ExactState, guided: boolean, size: bigint, quote: CandidateQuote): ExactState {
  return stepAbove(state, guided, { size, quote });
}

/** A size that reverted, with the D18 price its revert says the market's range ends at, if any. */
export function recordRevert(state: ExactState, guided: boolean, size: bigint, rangeEnd: bigint | undefined): ExactState {
  return stepAbove(state, guided, rangeEnd === undefined ? { size } : { size, rangeEnd });
}

function stepAbove(state: ExactState, guided: boolean, high: Known): ExactState {
  const streak = guided && state.streak < 0 ? state.streak - 1 : -1;
  return { ...state, prior: latestOf(state), high, streak, quoted: state.quoted + 1 };
}

/** bound^2 * 10^18 / 2^192, rounded down, for a sqrt price X96 below 10^49 (a uint160's digits); else none. */
export function rangeEndFromBound(bound: bigint): bigint | undefined {
  if (bound < 0n || bound >= 10n ** 49n) return undefined;
  return (bound ** 2n * 10n ** 18n) >> 192n;
}

const D18 = 10n ** 18n;
const D36 = 10n ** 36n;

/** The largest D18 price whose scaled square (p * 10^36) fits 256 bits, as it must on chain. */
const MAX_SCALED_PRICE = maxUint256 / D36;

/**
 * 1 / sqrt(price), scaled: affine in size over one liquidity range (§4b). 10^54 / floor(sqrt(p * 10^36)), both
 * rounded down; none for a zero price or one above {@link MAX_SCALED_PRICE} (10^41 D18: no market's).
 */
function inverseSqrtPrice(priceD18: bigint): bigint | undefined {
  if (priceD18 <= 0n || priceD18 > MAX_SCALED_PRICE) return undefined;
  return 10n ** 54n / sqrt(priceD18 * D36);
}

/**
 * floor(sqrt(n)) for n >= 0, by Newton's method from 2^ceil(bits/2), a start at or above the root: the iterates then
 * fall to it in a handful of steps (starting from n took about bits/2 halvings first).
 */
export function sqrt(n: bigint): bigint {
  if (n === 0n) return 0n;
  const bits = n.toString(16).length * 4;
  let x = 1n << BigInt((bits + 1) >> 1);
  let y = (x + n / x) >> 1n;
  while (y < x) {
    x = y;
    y = (x + n / x) >> 1n;
  }
  return x;
}

/** floor(x * y / z) for x, y >= 0 and z > 0, when it fits 256 bits (as mulDiv on chain); else none. */
function mulDiv(x: bigint, y: bigint, z: bigint): bigint | undefined {
  const result = (x * y) / z;
  return result > maxUint256 ? undefined : result;
}

/**
 * Where the line through (s1, y1) and (s2, y2), s1 < s2, reaches `target`: s1 + |target - y1| * (s2 - s1) /
 * |y2 - y1| (rounded up: the first size at or past the target on the line; at most maxInt256), when the target lies
 * on the side the line moves to. Else none.
 */
export function interpolate(s1: bigint, y1: bigint, s2: bigint, y2: bigint, target: bigint): bigint | undefined {
  const rise = y2 - y1;
  const needed = target - y1;
  if (rise === 0n || (needed !== 0n && needed < 0n !== rise < 0n)) return undefined;
  const step = (abs(needed) * (s2 - s1) + abs(rise) - 1n) / abs(rise);
  const size = s1 + step;
  return size > maxInt256 ? maxInt256 : size;
}

/** Two quoted values this close (in units of their last digit) cannot be told apart from their rounding. */
const RESOLUTION = 2n;

/**
 * Once the sides' requiredCollateral are at most this many units apart, the budget's edge lies within a few of their
 * roundings: the bracket is then searched as narrow (see {@link nextExactStep}).
 */
const NARROW_UNITS = 8n;

/**
 * An estimate of the first size too large; how many wei one unit of the value it followed spans there (the unit of
 * regula falsi's steps past it); whether it came from a bracket narrowed to a few roundings (`narrow`); and whether
 * it came from the latest quotes alone (`steady`: a secant or the loss model, which regula falsi's steps would spoil).
 */
type Estimate = { readonly size: bigint; readonly unit: bigint; readonly narrow?: boolean; readonly steady?: boolean };

/**
 * Estimates the first size past the top of the feasible interval, for each rule a size can break: where priceAfter
 * passes expectedPrice (the price edge, or interpolated on 1/sqrt(price), affine in size over one range), where
 * requiredCollateral passes the budget ({@link budgetTop}), and where the price reaches the end of the market's range
 * that a PoolPriceOutOfRange revert above names. The smallest binds.
 */
function estimateTop(input: ExactRuleInput, state: ExactState): Estimate | undefined {
  const { high } = state;
  const highQuote = high?.quote;
  const tooCostly = highQuote !== undefined && highQuote.requiredCollateral > input.collateralAvailable;
  let best = edgeTop(state, tooCostly);
  // An estimate above the size known too large says only that another rule binds later: no guide. The edge's is
  // exempt: one wei past an edge that went too far is where its steps down start.
  const keep = (estimate: Estimate | undefined) => {
    if (estimate === undefined || (high !== undefined && estimate.size > high.size)) return;
    if (best === undefined || estimate.size < best.size) best = estimate;
  };
  if (best === undefined) {
    // Without the edge, the price's own line: to expectedPrice, and to the range's end a revert above names.
    const current = inverseSqrtPrice(input.currentPrice);
    const passed = inverseSqrtPrice(input.direction === "LONG" ? input.expectedPrice + 1n : input.expectedPrice - 1n);
    keep(priceLine(state, current, passed, highQuote !== undefined && !tooCostly));
    if (high !== undefined && highQuote === undefined && high.rangeEnd !== undefined) {
      keep(priceLine(state, current, inverseSqrtPrice(high.rangeEnd), false));
    }
  }
  // Nothing can come nearer than one wei past the largest size known to fit: the budget need not be asked then.
  const nearest = state.low === undefined ? DUST + 1n : state.low.size + 1n;
  if (best === undefined || best.size > nearest) keep(budgetTop(input, state, tooCostly));
  return best;
}

/**
 * Where 1/sqrt(priceAfter), affine in size over one liquidity range, reaches `target` (a scaled 1/sqrt price):
 * interpolated between the sides when the size above broke the price (`brokenAbove`), else extrapolated from the
 * start of the trade (size 0, the current price) through `low`. None where the sides' prices are too close to tell
 * apart from their rounding.
 */
function priceLine(state: ExactState, origin: bigint | undefined, target: bigint | undefined, brokenAbove: boolean): Estimate | undefined {
  const { low, high } = state;
  if (target === undefined || origin === undefined) return undefined;
  const lowValue = low?.quote === undefined ? undefined : inverseSqrtPrice(low.quote.priceAfter);
  const [s1, y1] = low !== undefined && lowValue !== undefined ? [low.size, lowValue] : [0n, origin];
  if (brokenAbove && high?.quote !== undefined) {
    const highValue = inverseSqrtPrice(high.quote.priceAfter);
    if (highValue === undefined) return undefined;
    // How far apart the two sides' prices are, from the current price when nothing below was quoted.
    const apart = abs(high.quote.priceAfter - (lowValue === undefined ? 0n : low!.quote!.priceAfter));
    if (lowValue !== undefined && apart <= RESOLUTION) return undefined;
    const size = interpolate(s1, y1, high.size, highValue, target);
    const unit = lowValue === undefined || apart === 0n ? 1n : (high.size - s1) / apart;
    return size === undefined ? undefined : { size, unit: unit > 0n ? unit : 1n };
  }
  const size = s1 > 0n ? interpolate(0n, origin, s1, y1, target) : undefined;
  return size === undefined ? undefined : { size, unit: 1n };
}

/**
 * The budget's first size too large: where requiredCollateral first passes collateralAvailable.
 * - Between a side that fits and one over budget: halfway, once their values are within a rounding or two (nothing
 *   tells where between them the edge lies); the line between them towards half a unit below the target (where a
 *   rounded-up value steps onto it), once they are a few roundings apart (narrow); the middle of the wei that the
 *   units still missing above a side that fits span (a few units short of the target); steps of 1, 2, 4, ... units
 *   (the loss model's, at the side) down from a side over budget within a rounding of the target, while quotes keep
 *   landing above it (the edge then lies a plateau or so below it, and nothing near fits); the line, when the last
 *   two quotes fell on either side; else the secant through the last two quotes, or the loss model from the latest
 *   ({@link lossModelTop}), kept inside the bracket; the line where neither is.
 * - With nothing over budget above: the loss model (a secant through two quotes that both fit reaches past the edge
 *   on a curve that bends up), or the line from the start of the trade (no collateral at size 0) through `low`.
 */
function budgetTop(input: ExactRuleInput, state: ExactState, tooCostly: boolean): Estimate | undefined {
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
  const span = apart === 0n || (top - s1) / apart === 0n ? 1n : (top - s1) / apart;
  const line = (narrow: boolean): Estimate | undefined => {
    // Doubled values must fit 256 bits on chain (a requirement of 2^255 is no market's).
    if (narrow && highValue >= HALF_RANGE) return undefined;
    const size = narrow ? interpolate(s1, 2n * y1, top, 2n * highValue, 2n * target - 1n) : interpolate(s1, y1, top, highValue, target);
    return size === undefined ? undefined : { size, unit: span, narrow };
  };
  if (lowValue !== undefined) {
    if (apart <= RESOLUTION) return { size: (s1 + top) / 2n + 1n, unit: 1n, narrow: true };
    if (apart <= NARROW_UNITS) return line(true);
    const missing = lowValue < target ? target - lowValue : 0n;
    if (missing > 0n && missing <= NARROW_UNITS && missing * span < top - s1) return { size: s1 + (missing * span + 1n) / 2n + 1n, unit: 1n, steady: true };
  }
  if (highValue - target < RESOLUTION && (lowValue === undefined || (lowValue < target && target - lowValue > NARROW_UNITS))) {
    const run = state.streak < 0 ? BigInt(Math.min(-state.streak, 128)) : 1n;
    const step = slopeUnit(input, high!) << (run - 1n);
    return { size: step < top ? top - step + 1n : 1n, unit: 1n, steady: true };
  }
  if (lowValue !== undefined && (state.streak === 1 || state.streak === -1)) return line(false);
  const steady = secantTop(state, target) ?? lossModelTop(input, state, target);
  return steady !== undefined && steady > s1 && steady <= top ? { size: steady, unit: 1n, steady: true } : line(false);
}

/** Where the secant through the latest quote and the one before it reaches `target` in requiredCollateral. */
function secantTop(state: ExactState, target: bigint): bigint | undefined {
  const latest = latestOf(state);
  const { prior } = state;
  if (latest?.quote === undefined || prior?.quote === undefined || latest.size === prior.size) return undefined;
  const [first, second] = prior.size < latest.size ? [prior, latest] : [latest, prior];
  return interpolate(first.size, first.quote!.requiredCollateral, second.size, second.quote!.requiredCollateral, target);
}

/** Newton steps on the loss model: enough to converge from any quote on one range. */
const MODEL_STEPS = 8;

/** 2^255: doubled values at or above it leave 256 bits. */
const HALF_RANGE = 1n << 255n;

/** The loss model's values and its distance to the target stay below 2^253, so that their sums fit an int256. */
const MODEL_BOUND = 1n << 253n;

/**
 * A trade's curve on one liquidity range of a Uniswap v3 pool, as the loss model reads it: u(s), the scaled 1/sqrt of
 * the price after a trade of s, is affine in s (u(0) = a, the current price's; moving by `kNum / kDen` per wei, down
 * for a LONG, up for a SHORT), and the trade's average fill price moves as sqrt(price after): fill(s) = fill(r) *
 * u(r) / u(s), given at one size r by `fillRef` (10^-36) and `uRef`.
 */
type Curve = { readonly long: boolean; readonly a: bigint; readonly kNum: bigint; readonly kDen: bigint; readonly fillRef: bigint; readonly uRef: bigint };

/**
 * The curve through the latest quote: u from the current price's to the quote's priceAfter over its size, the fill
 * at the quote's fillPrice. None where the quote gives no curve (a revert, a price the scale refuses, no price move).
 */
function quoteCurve(input: ExactRuleInput, latest: Known | undefined): Curve | undefined {
  const quote = latest?.quote;
  if (latest === undefined || quote === undefined) return undefined;
  const a = inverseSqrtPrice(input.currentPrice);
  const b = inverseSqrtPrice(quote.priceAfter);
  const fillRef = quote.fillPrice * D18;
  if (a === undefined || b === undefined || a === b || fillRef > maxUint256) return undefined;
  return { long: input.direction === "LONG", a, kNum: abs(a - b), kDen: latest.size, fillRef, uRef: b };
}

/** Parts of a million: the unit of a v3 fee tier. */
const PIPS = 1_000_000n;

/**
 * The curve of the pool's own range at the block, before any quote: u moves by 10^27 / liquidity per wei (a v3 pool
 * moves 1/sqrt(price) by size / L within a range), the fill starts at the current price with the pool's fee, paid
 * on a LONG's quote (price / (1 - fee)) and on a SHORT's base (price * (1 - fee)). None without the liquidity.
 */
function poolCurve(input: ExactRuleInput): Curve | undefined {
  const a = inverseSqrtPrice(input.currentPrice);
  if (a === undefined || input.liquidity === 0n || input.feeRate >= PIPS) return undefined;
  const long = input.direction === "LONG";
  const fillRef = long ? mulDiv(input.currentPrice * D18, PIPS, PIPS - input.feeRate) : mulDiv(input.currentPrice * D18, PIPS - input.feeRate, PIPS);
  if (fillRef === undefined) return undefined;
  return { long, a, kNum: 10n ** 27n, kDen: input.liquidity, fillRef, uRef: a };
}

/**
 * The loss model at s on a curve: the requirement, the loss at the worst settlement price (s * (fill(s) - min) for a
 * LONG, s * (max - fill(s)) for a SHORT: how a market group values the collateral a position needs), signed (the model
 * may say a gain), and its slope in 10^-36 per wei. Prices held to 10^-36 (at 10^-18 a size of 10^18 would turn the
 * fill's last unit into a wei); every product floored (mulDiv). None where a value leaves its bounds.
 */
function modelAt(curve: Curve, worst36: bigint, s: bigint): { value: bigint; slope: bigint } | undefined {
  const shift = mulDiv(curve.kNum, s, curve.kDen);
  if (shift === undefined || (curve.long ? shift >= curve.a : curve.a + shift > maxUint256)) return undefined;
  const u = curve.long ? curve.a - shift : curve.a + shift;
  const fill = mulDiv(curve.fillRef, curve.uRef, u);
  const marginal = fill === undefined ? undefined : mulDiv(fill, curve.a, u);
  if (fill === undefined || marginal === undefined) return undefined;
  const margin = curve.long ? fill - worst36 : worst36 - fill;
  const value = mulDiv(s, abs(margin), D36);
  if (value === undefined || value >= MODEL_BOUND) return undefined;
  return { value: margin < 0n ? -value : value, slope: curve.long ? marginal - worst36 : worst36 - marginal };
}

/**
 * Newton's method on the loss model from `start`, where the model is worth `here`, towards `goal`: the first size at
 * or past it (one wei past the root), once a step is a wei or none, or after MODEL_STEPS. None where the slope is not
 * positive, a size leaves (0, 2^255-1] or a value its bounds.
 */
function newton(curve: Curve, worst36: bigint, goal: bigint, start: bigint, here: { value: bigint; slope: bigint }): bigint | undefined {
  let size = start;
  for (let i = 0; i < MODEL_STEPS; i++) {
    if (here.slope <= 0n) return undefined;
    const gap = goal - here.value;
    const step = mulDiv(abs(gap), D36, here.slope);
    if (step === undefined) return undefined;
    size = gap < 0n ? size - step : size + step;
    if (size <= 0n || size > maxInt256) return undefined;
    // A step of a wei or none: the model has converged (its own rounding is coarser than that).
    if (step <= 1n) break;
    const next = modelAt(curve, worst36, size);
    if (next === undefined) return undefined;
    here = next;
  }
  return size < maxInt256 ? size + 1n : maxInt256;
}

/** The worst settlement price at 10^-36, when it fits 256 bits. */
function worst36Of(input: ExactRuleInput): bigint | undefined {
  const worst36 = input.worstPrice * D18;
  return worst36 > maxUint256 ? undefined : worst36;
}

/**
 * Where requiredCollateral first reaches `target` by the loss model on the latest quote's curve, its value shifted
 * to pass through the quote's own requiredCollateral: Newton's method from the quote.
 */
function lossModelTop(input: ExactRuleInput, state: ExactState, target: bigint): bigint | undefined {
  const latest = latestOf(state);
  const curve = quoteCurve(input, latest);
  const worst36 = worst36Of(input);
  if (curve === undefined || worst36 === undefined) return undefined;
  const anchor = modelAt(curve, worst36, latest!.size);
  const distance = target - latest!.quote!.requiredCollateral;
  if (anchor === undefined || abs(distance) >= MODEL_BOUND) return undefined;
  return newton(curve, worst36, distance + anchor.value, latest!.size, anchor);
}

/** The wei one unit of requiredCollateral spans at a quoted side, by the loss model's slope there (at least 1). */
function slopeUnit(input: ExactRuleInput, side: Known): bigint {
  const curve = quoteCurve(input, side);
  const worst36 = worst36Of(input);
  const here = curve === undefined || worst36 === undefined ? undefined : modelAt(curve, worst36, side.size);
  if (here === undefined || here.slope <= 0n) return 1n;
  const unit = D36 / here.slope;
  return unit > 0n ? unit : 1n;
}

/**
 * The wei a market group adds to every requirement against rounding (the real group's 2, which the reference group
 * copies): the pool's model, anchored on no quote, leaves it to the target.
 */
const REQUIREMENT_ROUNDING = 2n;

/** The budget's first size too large by the loss model on the pool's range, before any quote: Newton's method from 0. */
function poolBudgetTop(input: ExactRuleInput): bigint | undefined {
  const curve = poolCurve(input);
  const worst36 = worst36Of(input);
  const target = input.collateralAvailable === maxUint256 ? maxUint256 : input.collateralAvailable + 1n;
  if (curve === undefined || worst36 === undefined || target >= MODEL_BOUND) return undefined;
  const origin = modelAt(curve, worst36, 0n);
  return origin === undefined ? undefined : newton(curve, worst36, target - REQUIREMENT_ROUNDING, 0n, origin);
}

/**
 * The size at which the price reaches expectedPrice on the pool's range at the block: 1/sqrt(price) moves by size /
 * L, a SHORT's base paying the fee on top. None without the liquidity, or where the scale refuses a price.
 */
function poolPriceTop(input: ExactRuleInput): bigint | undefined {
  const a = inverseSqrtPrice(input.currentPrice);
  const t = inverseSqrtPrice(input.expectedPrice);
  if (a === undefined || t === undefined || input.liquidity === 0n || input.feeRate >= PIPS) return undefined;
  const moved = mulDiv(input.liquidity, abs(a - t), 10n ** 27n);
  if (moved === undefined) return undefined;
  return input.direction === "LONG" ? moved : mulDiv(moved, PIPS, PIPS - input.feeRate);
}

/** Whether a quote found the price binding: the size known too large went past expectedPrice, or reverted. */
function priceFoundBinding(input: ExactRuleInput, state: ExactState): boolean {
  const quote = state.high?.quote;
  if (state.high === undefined) return false;
  if (quote === undefined) return true;
  return input.direction === "LONG" ? quote.priceAfter > input.expectedPrice : quote.priceAfter < input.expectedPrice;
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

/** A bracket wider than this ratio is split at its geometric mean, not its midpoint. */
const GEOMETRIC_RATIO = 2n ** 16n;

/**
 * Where a bracket is split when no estimate guides: near its geometric mean while it spans more than 2^16
 * (floor(sqrt(bottom)) * floor(sqrt(top)), which fits 256 bits where bottom * top would not), else its midpoint.
 */
function split(bottom: bigint, top: bigint): bigint {
  return top / GEOMETRIC_RATIO > bottom ? sqrt(bottom) * sqrt(top) : (bottom + top) / 2n;
}

/**
 * The next step, within (low, high) and at least DUST. The price edge is read before the first quote where the pool's
 * range says the price may bind first, else once a quote finds it binding (never twice). The first size is the pool's
 * budget guess (the cap without one), or the price edge where it is smaller. Then the size just before the estimated
 * first size too large:
 * - narrow: kept to the bracket's middle half, and halfway from the second quote in a row on one side (the edge lies
 *   anywhere within a rounding there);
 * - steady (a secant, the loss model, a window or a gallop near the budget's edge): as it is;
 * - otherwise (regula falsi's lines, the price's): from the third quote in a row on one side, moved on by 1, 2, 4,
 *   ... units while quotes keep landing on that side (`streak`), and at least as far as the last quote missed the
 *   estimate by (doubling), but never past the bracket's split point.
 * A good estimate closes the bracket in two or three quotes, a poor one costs no more than a bisection of the
 * bracket. With no estimate: doubling up when nothing above is known, else the split point. While nothing fills and
 * no estimate guides, once the bracket above DUST is narrow enough to be halved (at most DUST * 2^16), DUST itself.
 */
export function nextExactStep(input: PreparedInput, state: ExactState): ExactStep {
  const { low, high, streak, quoted } = state;
  // The price edge first unless the pool's range says the budget binds well before the price (its price edge more than
  // an eighth past its budget edge); else once a quote finds the price binding.
  if (!state.edge.asked && (quoted === 0 ? input.edgeFirst : priceFoundBinding(input, state))) return { kind: "edge" };
  const floor = low === undefined ? DUST : low.size + 1n;
  const ceiling = high === undefined ? maxInt256 : high.size - 1n;
  const middle = high === undefined ? undefined : split(low === undefined ? DUST : low.size, high.size);
  const estimate = quoted === 0 ? undefined : estimateTop(input, state);
  let size: bigint;
  let guided = false;
  const edge = state.edge.size;
  if (quoted === 0) {
    // The budget's first guess: the pool's own range's, else the cap. The price edge where it is nearer: the price
    // binds first there, or nearly.
    const first = input.poolBudget === undefined ? input.cap : input.poolBudget - 1n;
    size = edge !== undefined && edge < first ? edge : first;
  } else if (estimate?.narrow && low !== undefined && high !== undefined) {
    guided = true;
    const quarter = (high.size - low.size) / 4n;
    size = streak >= 2 || streak <= -2 ? (low.size + high.size) / 2n : estimate.size - 1n;
    if (size < low.size + quarter) size = low.size + quarter;
    if (size > high.size - quarter) size = high.size - quarter;
  } else if (estimate !== undefined) {
    guided = true;
    size = estimate.size - 1n;
    const run = streak < 0 ? -streak : streak;
    if (!estimate.steady) {
      // Estimates that keep landing on one side converge from that side only (regula falsi): from the third in a
      // row, go past the estimate by 1, 2, 4, ... units, and at least as far as the last quote missed it, doubled.
      if (run >= 3) {
        const doubling = 2n ** BigInt(Math.min(run, 257) - 3);
        const gap = streak < 0 ? high!.size - estimate.size : low !== undefined ? estimate.size - low.size : 0n;
        const far = gap > 0n ? gap * doubling : 0n;
        const overshoot = far > estimate.unit * doubling ? far : estimate.unit * doubling;
        size = streak > 0 ? size + overshoot : size - overshoot;
      }
      if (middle !== undefined && (streak > 0 ? size > middle : streak < 0 && size < middle)) size = middle;
    }
  } else if (low === undefined && high !== undefined && high.size / GEOMETRIC_RATIO <= DUST) {
    // Nothing fills yet, nothing guides, and what is left above DUST would be halved: DUST itself, which either
    // proves that no size fills (it goes too far too) or gives the interval its bottom.
    size = DUST;
  } else {
    size = middle ?? low!.size * 2n;
  }
  return { kind: "quote", size: size < floor ? floor : size > ceiling ? ceiling : size, guided };
}

/** Whether the top of the feasible interval is known to the wei (or nothing lies above the largest size). */
export function isClosed({ low, high }: Pick<ExactState, "low" | "high">): boolean {
  return low?.size === maxInt256 || (high !== undefined && (low === undefined ? high.size <= DUST : high.size - low.size <= 1n));
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
