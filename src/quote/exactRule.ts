// The rule by which the exact search of semantics §4b chooses its next candidate, from where it stands (its
// state) alone: written in integers, every division rounding down, and bounded to 256 bits, because
// contracts/ExactSearchRule.sol runs the same rule on chain, word for word, so that the searcher quotes exactly
// the candidates the service asks for (test/contracts/exactSearchRule.test.ts asks both the same questions).
import { maxInt256, maxUint256 } from "viem";
import type { CandidateQuote, Direction } from "./search.ts";

/** Below this (10^-12 of a token) the real contracts revert on rounding between sizes that fill (§4b). */
export const DUST = 10n ** 6n;

/** What the rule reads of the request and the market. */
export type ExactRuleInput = {
  direction: Direction;
  /** collateral / currentPrice (§4): the first candidate. */
  cap: bigint;
  currentPrice: bigint;
  expectedPrice: bigint;
  collateralAvailable: bigint;
  /**
   * The price edge read at the block (src/chain/priceEdge.ts): the base a swap moves before its price passes
   * expectedPrice, per the pool's own math. Absent when the market has none to read, or the read failed.
   */
  edge?: bigint;
};

/** A quoted size; above the interval, a revert may tell the price the market's range ends at (`rangeEnd`). */
export type Known = { readonly size: bigint; readonly quote?: CandidateQuote; readonly rangeEnd?: bigint };

/**
 * Where the exact search stands when it asks for a candidate: the largest size quoted below the top of the
 * feasible interval, the smallest quoted above it, how many quotes in a row landed on one side (positive below,
 * negative above; only guided quotes count), and how many were quoted. The next candidate depends on nothing
 * else, so a searcher on chain continues the same search from here.
 */
export type ExactState = { readonly low?: Known; readonly high?: Known; readonly streak: number; readonly quoted: number };

/** bound^2 * 10^18 / 2^192, rounded down, for a sqrt price X96 below 10^49 (a uint160's digits); else none. */
export function rangeEndFromBound(bound: bigint): bigint | undefined {
  if (bound < 0n || bound >= 10n ** 49n) return undefined;
  return (bound ** 2n * 10n ** 18n) >> 192n;
}

/** The largest D18 price whose scaled square (p * 10^36) fits 256 bits, as it must on chain. */
const MAX_SCALED_PRICE = maxUint256 / 10n ** 36n;

/**
 * 1 / sqrt(price), scaled: affine in size over one liquidity range (§4b). 10^54 / floor(sqrt(p * 10^36)), both
 * rounded down; none for a zero price or one above {@link MAX_SCALED_PRICE} (10^41 D18: no market's).
 */
function inverseSqrtPrice(priceD18: bigint): bigint | undefined {
  if (priceD18 <= 0n || priceD18 > MAX_SCALED_PRICE) return undefined;
  return 10n ** 54n / sqrt(priceD18 * 10n ** 36n);
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

/** An estimate of the first size too large, and how many wei one unit of the value it followed spans there. */
type Estimate = { size: bigint; unit: bigint };

/**
 * Estimates the first size past the top of the feasible interval, for each rule a size can break: where
 * priceAfter passes expectedPrice (interpolated on 1/sqrt(price), affine in size over one range), where
 * requiredCollateral passes the budget, and where the price reaches the end of the market's range that a
 * PoolPriceOutOfRange revert above names. The rule the size above broke is interpolated between the two sides;
 * the others, and every rule while nothing above is known, are extrapolated from the start of the trade (size
 * 0: the current price, no collateral) through `low`. The smallest binds. A rule whose two quoted values are
 * too close to tell apart from their rounding gives none: the bracket is then split.
 */
function estimateTop(input: ExactRuleInput, low: Known | undefined, high: Known | undefined): Estimate | undefined {
  const current = inverseSqrtPrice(input.currentPrice);
  const passed = inverseSqrtPrice(input.direction === "LONG" ? input.expectedPrice + 1n : input.expectedPrice - 1n);
  const lowQuote = low?.quote;
  const highQuote = high?.quote;
  const tooCostly = highQuote !== undefined && highQuote.requiredCollateral > input.collateralAvailable;
  // Where the price edge guides, it stands for the price's rule (and the range's end): the pool's own answer.
  const byEdge = edgeTop(input, low, high, tooCostly);
  const estimates: Estimate[] = [];
  const along = (
    raw: (quote: CandidateQuote) => bigint,
    rawOrigin: bigint,
    scaled: (value: bigint) => bigint | undefined,
    origin: bigint | undefined,
    target: bigint | undefined,
    brokenAbove: boolean,
  ) => {
    if (target === undefined || origin === undefined) return;
    const lowValue = lowQuote === undefined ? undefined : scaled(raw(lowQuote));
    const [s1, y1] = low !== undefined && lowValue !== undefined ? [low.size, lowValue] : [0n, origin];
    if (brokenAbove && high !== undefined && highQuote !== undefined) {
      const highValue = scaled(raw(highQuote));
      if (highValue === undefined) return;
      // How far apart the two sides' values are, from the start of the trade when nothing below was quoted.
      const apart = abs(raw(highQuote) - (lowQuote === undefined || lowValue === undefined ? rawOrigin : raw(lowQuote)));
      if (lowQuote !== undefined && apart <= RESOLUTION) return;
      const size = interpolate(s1, y1, high.size, highValue, target);
      const unit = apart === 0n ? 1n : (high.size - s1) / apart;
      if (size !== undefined) estimates.push({ size, unit: unit > 0n ? unit : 1n });
      return;
    }
    const size = s1 > 0n ? interpolate(0n, origin, s1, y1, target) : undefined;
    if (size !== undefined) estimates.push({ size, unit: 1n });
  };
  if (byEdge === undefined) along((quote) => quote.priceAfter, input.currentPrice, inverseSqrtPrice, current, passed, highQuote !== undefined && !tooCostly);
  // The smallest requiredCollateral over budget, saturated at 2^256-1 so that it fits 256 bits on chain.
  const overBudget = input.collateralAvailable === maxUint256 ? maxUint256 : input.collateralAvailable + 1n;
  along((quote) => quote.requiredCollateral, 0n, (value) => value, 0n, overBudget, tooCostly);
  if (byEdge === undefined && high !== undefined && highQuote === undefined && high.rangeEnd !== undefined) {
    along((quote) => quote.priceAfter, input.currentPrice, inverseSqrtPrice, current, inverseSqrtPrice(high.rangeEnd), false);
  }
  // An estimate above the size known too large says only that another rule binds later: no guide. The edge's is
  // exempt: one wei past an edge that went too far is where its steps down start.
  const useful = [...(byEdge === undefined ? [] : [byEdge]), ...estimates.filter((e) => high === undefined || e.size <= high.size)];
  return useful.reduce<Estimate | undefined>((best, e) => (best === undefined || e.size < best.size ? e : best), undefined);
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
function edgeTop(input: ExactRuleInput, low: Known | undefined, high: Known | undefined, tooCostly: boolean): Estimate | undefined {
  const edge = input.edge;
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
 * The next size to quote, within (low, high) and at least DUST. The first is the cap, or the price edge where it is
 * smaller. Then the size just before the estimated first size too large, from the second quote in a row on one side
 * moved on by 1, 2, 4, ... units (the wei one unit of the value it follows spans) while quotes keep landing on that
 * side (`streak`), and at least as far as the last
 * quote missed the estimate by (doubling), but never past the bracket's split point: a good estimate closes the bracket in two or three
 * quotes, a poor one costs no more than a bisection of the bracket. With no estimate: doubling up when nothing
 * above is known, else the split point. While nothing fills, once the bracket above DUST is narrow enough to be
 * halved (at most DUST * 2^16), DUST itself.
 */
export function nextExactCandidate(input: ExactRuleInput, state: ExactState): { size: bigint; guided: boolean } {
  const { low, high, streak, quoted } = state;
  const floor = low === undefined ? DUST : low.size + 1n;
  const ceiling = high === undefined ? maxInt256 : high.size - 1n;
  const middle = high === undefined ? undefined : split(low === undefined ? DUST : low.size, high.size);
  const estimate = quoted === 0 ? undefined : estimateTop(input, low, high);
  let size: bigint;
  let guided = false;
  if (quoted === 0) {
    // The price edge when the budget's first guess lies beyond it: the price binds first there, or nearly.
    size = input.edge !== undefined && input.edge < input.cap ? input.edge : input.cap;
  } else if (estimate !== undefined) {
    guided = true;
    let overshoot = Math.abs(streak) <= 1 ? 0n : estimate.unit * 2n ** BigInt(Math.min(Math.abs(streak), 255) - 2);
    // Estimates that keep landing on one side converge from that side only (regula falsi): from the second in a
    // row, go past the estimate by as far as the last quote missed it, doubled at each further one.
    const gap = streak <= -2 ? high!.size - estimate.size : streak >= 2 && low !== undefined ? estimate.size - low.size : 0n;
    const far = gap <= 0n ? 0n : gap * 2n ** BigInt(Math.min(Math.abs(streak), 255) - 2);
    if (far > overshoot) overshoot = far;
    size = streak >= 0 ? estimate.size - 1n + overshoot : estimate.size - 1n - overshoot;
    if (middle !== undefined && (streak > 0 ? size > middle : streak < 0 && size < middle)) size = middle;
  } else {
    size = middle ?? low!.size * 2n;
  }
  if (quoted > 0 && low === undefined && high !== undefined && high.size / GEOMETRIC_RATIO <= DUST) {
    // Nothing fills yet and what is left above DUST would be halved: DUST itself, which either proves that no
    // size fills (it goes too far too) or gives the interval its bottom. Sizes closing in on DUST prove nothing.
    size = DUST;
    guided = false;
  }
  return { size: size < floor ? floor : size > ceiling ? ceiling : size, guided };
}

/** Whether the top of the feasible interval is known to the wei (or nothing lies above the largest size). */
export function isClosed({ low, high }: Pick<ExactState, "low" | "high">): boolean {
  return low?.size === maxInt256 || (high !== undefined && (low === undefined ? high.size <= DUST : high.size - low.size <= 1n));
}


function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
