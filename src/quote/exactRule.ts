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
};

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
  keep(budgetTop(input, state, tooCostly));
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
 *   rounded-up value steps onto it), narrow, once they are a few roundings apart; the line, when the last two quotes
 *   fell on either side; else the secant through the last two quotes, or the loss model from the latest
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
  const ceiling = tooCostly ? high!.size : maxInt256;
  const inside = (size: bigint | undefined) => size !== undefined && size > s1 && size <= ceiling;
  if (tooCostly) {
    const highValue = high!.quote!.requiredCollateral;
    const apart = highValue - y1;
    const line = (narrow: boolean): Estimate | undefined => {
      // Doubled values must fit 256 bits on chain (a requirement of 2^255 is no market's).
      if (narrow && highValue >= HALF_RANGE) return undefined;
      const size = narrow ? interpolate(s1, 2n * y1, high!.size, 2n * highValue, 2n * target - 1n) : interpolate(s1, y1, high!.size, highValue, target);
      const unit = apart <= 0n ? 1n : (high!.size - s1) / apart;
      return size === undefined ? undefined : { size, unit: unit > 0n ? unit : 1n, narrow };
    };
    if (lowValue !== undefined && apart <= RESOLUTION) return { size: (low!.size + high!.size) / 2n + 1n, unit: 1n, narrow: true };
    if (lowValue !== undefined && apart <= NARROW_UNITS) return line(true);
    if (lowValue !== undefined && (state.streak === 1 || state.streak === -1)) return line(false);
    const steady = secantTop(state, target) ?? lossModelTop(input, state, target);
    return inside(steady) ? { size: steady!, unit: 1n, steady: true } : line(false);
  }
  const modelled = lossModelTop(input, state, target);
  if (inside(modelled)) return { size: modelled!, unit: 1n, steady: true };
  const size = s1 > 0n ? interpolate(0n, 0n, s1, y1, target) : undefined;
  return size === undefined ? undefined : { size, unit: 1n };
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
 * Where requiredCollateral first reaches `target`, by the loss of a position opened on a Uniswap v3 pool within one
 * liquidity range, anchored on the latest quote: its average fill price moves as sqrt(priceAfter), with 1/sqrt(price)
 * affine in size from the current price (fill(s) = fill * u / u(s), u the scaled 1/sqrt price, u(0) the current
 * price's and u(size) the quote's), and the requirement is the loss at the worst settlement price, s * (fill(s) - min)
 * for a LONG and s * (max - fill(s)) for a SHORT (how a market group values the collateral a position needs). The
 * model's value is shifted to pass through the quote's own requiredCollateral, and Newton's method runs from there.
 * Prices are held to 10^-36 (at 10^-18 a size of 10^18 would turn the fill's last unit into a wei); every product is
 * floored (mulDiv). None where a value leaves 256 bits, the model's slope is not positive, or the quote gives no curve
 * (a revert, a price the scale refuses, no price move).
 */
function lossModelTop(input: ExactRuleInput, state: ExactState, target: bigint): bigint | undefined {
  const latest = latestOf(state);
  const quote = latest?.quote;
  if (latest === undefined || quote === undefined) return undefined;
  const a = inverseSqrtPrice(input.currentPrice);
  const b = inverseSqrtPrice(quote.priceAfter);
  if (a === undefined || b === undefined || a === b) return undefined;
  const long = input.direction === "LONG";
  const moved = abs(a - b);
  const fill36 = quote.fillPrice * D18;
  const worst36 = input.worstPrice * D18;
  if (fill36 > maxUint256 || worst36 > maxUint256) return undefined;
  // The model at s: its requirement (signed: the model may say a gain) and its slope (10^-36 per wei).
  const at = (s: bigint) => {
    const shift = mulDiv(moved, s, latest.size);
    if (shift === undefined || (long ? shift >= a : a + shift > maxUint256)) return undefined;
    const u = long ? a - shift : a + shift;
    const fill = mulDiv(fill36, b, u);
    const marginal = fill === undefined ? undefined : mulDiv(fill, a, u);
    if (fill === undefined || marginal === undefined) return undefined;
    const margin = long ? fill - worst36 : worst36 - fill;
    const value = mulDiv(s, abs(margin), D36);
    if (value === undefined || value >= MODEL_BOUND) return undefined;
    return { value: margin < 0n ? -value : value, slope: long ? marginal - worst36 : worst36 - marginal };
  };
  const anchor = at(latest.size);
  const distance = target - quote.requiredCollateral;
  if (anchor === undefined || abs(distance) >= MODEL_BOUND) return undefined;
  const goal = distance + anchor.value;
  let size = latest.size;
  let here = anchor;
  for (let i = 0; i < MODEL_STEPS; i++) {
    if (here.slope <= 0n) return undefined;
    const gap = goal - here.value;
    const step = mulDiv(abs(gap), D36, here.slope);
    if (step === undefined) return undefined;
    if (step === 0n) break;
    size = gap < 0n ? size - step : size + step;
    if (size <= 0n || size > maxInt256) return undefined;
    const next = at(size);
    if (next === undefined) return undefined;
    here = next;
  }
  return size < maxInt256 ? size + 1n : maxInt256;
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
 * The next step, within (low, high) and at least DUST. The price edge is read first (once). The first size is the
 * cap, or the price edge where it is smaller. Then the size just before the estimated first size too large:
 * - narrow: kept to the bracket's middle half, and halfway from the second quote in a row on one side (the edge lies
 *   anywhere within a rounding there);
 * - steady (a secant, the loss model): as it is;
 * - otherwise (regula falsi's lines, the price's): from the third quote in a row on one side, moved on by 1, 2, 4,
 *   ... units while quotes keep landing on that side (`streak`), and at least as far as the last quote missed the
 *   estimate by (doubling), but never past the bracket's split point.
 * A good estimate closes the bracket in two or three quotes, a poor one costs no more than a bisection of the
 * bracket. With no estimate: doubling up when nothing above is known, else the split point. While nothing fills and
 * no estimate guides, once the bracket above DUST is narrow enough to be halved (at most DUST * 2^16), DUST itself.
 */
export function nextExactStep(input: ExactRuleInput, state: ExactState): ExactStep {
  if (!state.edge.asked) return { kind: "edge" };
  const { low, high, streak, quoted } = state;
  const floor = low === undefined ? DUST : low.size + 1n;
  const ceiling = high === undefined ? maxInt256 : high.size - 1n;
  const middle = high === undefined ? undefined : split(low === undefined ? DUST : low.size, high.size);
  const estimate = quoted === 0 ? undefined : estimateTop(input, state);
  let size: bigint;
  let guided = false;
  const edge = state.edge.size;
  if (quoted === 0) {
    // The price edge when the budget's first guess lies beyond it: the price binds first there, or nearly.
    size = edge !== undefined && edge < input.cap ? edge : input.cap;
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
