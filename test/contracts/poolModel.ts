// Exact bigint arithmetic the contract tests check MarketGroup against: price and sqrt-price conversions, the loss
// a position takes at its worst settlement price over a price move (as semantics §8 and the group's NatSpec state
// it), and the market specs the tests create. Independent of the contract's code: every value is an exact fraction
// first, rounded once at the end, with no 256-bit limits.

export const Q96 = 1n << 96n;
export const E18 = 10n ** 18n;
export const FEE_UNIT = 1_000_000n;
export const MAX_UINT160 = (1n << 160n) - 1n;

/** An exact rational num/den (den > 0). */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

export const floorOf = (r: Ratio): bigint => (r.num >= 0n ? r.num / r.den : -((-r.num + r.den - 1n) / r.den));
export const ceilOf = (r: Ratio): bigint => -floorOf({ num: -r.num, den: r.den });
export const add = (a: Ratio, b: Ratio): Ratio => ({ num: a.num * b.den + b.num * a.den, den: a.den * b.den });
export const ZERO: Ratio = { num: 0n, den: 1n };

/** Compares two ratios: negative, zero or positive as a < b, a = b, a > b. */
export function compareRatios(a: Ratio, b: Ratio): number {
  const lhs = a.num * b.den;
  const rhs = b.num * a.den;
  return lhs < rhs ? -1 : lhs > rhs ? 1 : 0;
}

/** floor(sqrt(n)) for n >= 0, by Newton's method on bigints. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << (BigInt(n.toString(2).length) / 2n + 1n);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** The largest r with r^2 <= num/den. */
export function floorSqrtRatio(num: bigint, den: bigint): bigint {
  let r = isqrt(num / den);
  while ((r + 1n) * (r + 1n) * den <= num) r += 1n;
  while (r * r * den > num) r -= 1n;
  return r;
}

/** The smallest r with r^2 >= num/den. */
export function ceilSqrtRatio(num: bigint, den: bigint): bigint {
  const r = floorSqrtRatio(num, den);
  return r * r * den === num ? r : r + 1n;
}

/** sqrt(priceD18 / 1e18) * 2^96, rounded down or up. */
export const sqrtOfPrice = (priceD18: bigint, up = false): bigint => (up ? ceilSqrtRatio : floorSqrtRatio)(priceD18 * Q96 * Q96, E18);

/** The D18 price of a sqrt price, rounded down: floor(sqrt^2 * 1e18 / 2^192). */
export const priceOfSqrt = (sqrtPriceX96: bigint): bigint => (sqrtPriceX96 * sqrtPriceX96 * E18) / (Q96 * Q96);

export interface RangeSpec {
  readonly minPriceD18: bigint;
  readonly maxPriceD18: bigint;
  readonly liquidity: bigint;
}

/** What createMarket is given, but the time window and the claims. feeRate is a v3 fee tier (500, 3000, 10000). */
export interface MarketSpec {
  readonly priceD18: bigint;
  readonly minPriceD18: bigint;
  readonly maxPriceD18: bigint;
  readonly feeRate: number;
  readonly ranges: readonly RangeSpec[];
}

/** The v3 tick spacing of each fee tier v3-core's factory enables. */
export const TICK_SPACING: Record<number, number> = { 500: 10, 3000: 60, 10000: 200 };

/** One range over the market's whole price range. */
export const wholeRange = (m: Omit<MarketSpec, "ranges">, liquidity: bigint): MarketSpec => ({
  ...m,
  ranges: [{ minPriceD18: m.minPriceD18, maxPriceD18: m.maxPriceD18, liquidity }],
});

/** A yes/no market: price 0.5 in [0.01, 0.99], 1% fee, liquidity 10^20 over the whole range. */
export const YES_NO: MarketSpec = wholeRange({ priceD18: E18 / 2n, minPriceD18: E18 / 100n, maxPriceD18: (E18 * 99n) / 100n, feeRate: 10_000 }, 10n ** 20n);

/** The same yes/no market with liquidity over three ranges (the whole one, [0.4, 0.6], [0.45, 0.55]). */
export const MULTI_RANGE: MarketSpec = {
  ...YES_NO,
  ranges: [
    { minPriceD18: E18 / 100n, maxPriceD18: (E18 * 99n) / 100n, liquidity: 10n ** 20n },
    { minPriceD18: (E18 * 4n) / 10n, maxPriceD18: (E18 * 6n) / 10n, liquidity: 3n * 10n ** 20n },
    { minPriceD18: (E18 * 45n) / 100n, maxPriceD18: (E18 * 55n) / 100n, liquidity: 5n * 10n ** 20n },
  ],
};

/** A range as the group placed it: the sqrt prices (Q96) of its ticks, and its liquidity. */
export interface PlacedRange {
  readonly sqrtLowerX96: bigint;
  readonly sqrtUpperX96: bigint;
  readonly liquidity: bigint;
  readonly tickLower: number;
  readonly tickUpper: number;
}

/**
 * The exact loss at the worst settlement price of a trade that moved the pool from `from` to `to` (sqrt prices),
 * over `ranges`: a LONG (to > from) pays y / (1 - f) quote tokens for x base tokens worth x * m at the minimum price
 * m; a SHORT (to < from) owes x / (1 - f) base tokens, worth that times M at the maximum price M, for y quote tokens,
 * where on each range x = L * Q * (hi - lo) / (lo * hi) and y = L * (hi - lo) / Q.
 */
export function moveLoss(ranges: readonly PlacedRange[], from: bigint, to: bigint, worstPriceD18: bigint, feeRate: number): Ratio {
  const long = to > from;
  const keep: Ratio = { num: FEE_UNIT - BigInt(feeRate), den: FEE_UNIT };
  let loss = ZERO;
  for (const r of ranges) {
    const lo = long ? max(from, r.sqrtLowerX96) : max(to, r.sqrtLowerX96);
    const hi = long ? min(to, r.sqrtUpperX96) : min(from, r.sqrtUpperX96);
    if (hi <= lo) continue;
    const y: Ratio = { num: r.liquidity * (hi - lo), den: Q96 };
    const x: Ratio = { num: r.liquidity * Q96 * (hi - lo), den: lo * hi };
    const term = long
      ? add({ num: y.num * keep.den, den: y.den * keep.num }, { num: -x.num * worstPriceD18, den: x.den * E18 })
      : add({ num: x.num * worstPriceD18 * keep.den, den: x.den * E18 * keep.num }, { num: -y.num, den: y.den });
    loss = add(loss, term);
  }
  return loss;
}

/** The loss of the pool's own integer amounts: q quote tokens against s base tokens at the worst price. */
export function amountsLoss(size: bigint, quoteAmount: bigint, minPriceD18: bigint, maxPriceD18: bigint): Ratio {
  return size > 0n
    ? { num: quoteAmount * E18 - size * minPriceD18, den: E18 }
    : { num: -size * maxPriceD18 - quoteAmount * E18, den: E18 };
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);
