// An independent model, in exact bigint rationals, of the reference market group's pool math. It
// follows the economics as stated (not the contract's code): values are computed as exact fractions
// first and rounded once at the end, with no 256-bit limits and no nested-division tricks.
import { maxUint256 } from "viem";

export const Q96 = 1n << 96n;
export const E18 = 10n ** 18n;
export const FEE_UNIT = 1_000_000n;

/** An exact non-negative rational num/den (den > 0). */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

export const floorOf = (r: Ratio): bigint => r.num / r.den;
export const ceilOf = (r: Ratio): bigint => (r.num + r.den - 1n) / r.den;

/** value - r as an exact ratio (may be negative). */
export function minus(value: bigint, r: Ratio): Ratio {
  return { num: value * r.den - r.num, den: r.den };
}

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

export interface MarketParamsModel {
  readonly priceD18: bigint;
  readonly minPriceD18: bigint;
  readonly maxPriceD18: bigint;
  readonly liquidity: bigint;
  readonly feeRate: bigint;
}

/** A yes/no market: price 0.5 in [0.01, 0.99], liquidity 10^20, 1% fee. */
export const YES_NO: MarketParamsModel = {
  priceD18: E18 / 2n,
  minPriceD18: E18 / 100n,
  maxPriceD18: (E18 * 99n) / 100n,
  liquidity: 10n ** 20n,
  feeRate: 10_000n,
};

export interface PoolState {
  readonly liquidity: bigint;
  readonly feeRate: bigint;
  readonly minPriceD18: bigint;
  readonly maxPriceD18: bigint;
  readonly sqrtPriceX96: bigint;
  readonly sqrtMinX96: bigint;
  readonly sqrtMaxX96: bigint;
}

/** sqrt(priceD18 / 1e18) * 2^96 as the exact ratio's square: priceD18 * 2^192 / 1e18. */
const sqrtSquare = (priceD18: bigint): [bigint, bigint] => [priceD18 * Q96 * Q96, E18];

/** The pool right after createMarket: sqrt price rounded down, range rounded inwards. */
export function initialPool(m: MarketParamsModel): PoolState {
  return {
    liquidity: m.liquidity,
    feeRate: m.feeRate,
    minPriceD18: m.minPriceD18,
    maxPriceD18: m.maxPriceD18,
    sqrtPriceX96: floorSqrtRatio(...sqrtSquare(m.priceD18)),
    sqrtMinX96: ceilSqrtRatio(...sqrtSquare(m.minPriceD18)),
    sqrtMaxX96: floorSqrtRatio(...sqrtSquare(m.maxPriceD18)),
  };
}

export interface ModelQuote {
  readonly requiredCollateral: bigint;
  readonly fillPrice: bigint;
  readonly priceAfter: bigint;
  readonly sqrtPriceAfter: bigint;
  /** The values before their final rounding. requiredCollateral's may be negative (it is then clamped). */
  readonly exact: { readonly requiredCollateral: Ratio; readonly fillPrice: Ratio; readonly priceAfter: Ratio };
}

/**
 * A trade of `size` base tokens (positive: LONG) on `pool`, or "out-of-range" when the pool cannot fill it
 * (a LONG that would take every base token) or the new sqrt price leaves [sqrtMin, sqrtMax].
 */
export function quoteModel(pool: PoolState, size: bigint): ModelQuote | "out-of-range" {
  if (size === 0n) throw new Error("size zero");
  const long = size > 0n;
  const s = long ? size : -size;
  const { liquidity: L, sqrtPriceX96: X } = pool;
  // 1/sqrt(P') = 1/sqrt(P) -+ s/L, in Q96: sqrt(P') = L*Q*X / (L*Q -+ s*X).
  const d = long ? L * Q96 - s * X : L * Q96 + s * X;
  if (d <= 0n) return "out-of-range";
  const nextExact: Ratio = { num: L * Q96 * X, den: d };
  const sqrtNext = ceilOf(nextExact);
  if (sqrtNext > pool.sqrtMaxX96 || sqrtNext < pool.sqrtMinX96) return "out-of-range";

  // Quote tokens exchanged: L times the move of the exact sqrt price, |next - X| * L / Q.
  const moveNum = long ? nextExact.num - X * d : X * d - nextExact.num;
  const dy: Ratio = { num: L * moveNum, den: d * Q96 };

  const priceAfter: Ratio = { num: sqrtNext * sqrtNext * E18, den: Q96 * Q96 };
  const fillPrice: Ratio = { num: dy.num * E18, den: dy.den * s };
  // LONG: dy * (1 + f/F) - s * minPrice / E.  SHORT: s * maxPrice / E - dy * (1 - f/F).
  const withFee: Ratio = { num: dy.num * (long ? FEE_UNIT + pool.feeRate : FEE_UNIT - pool.feeRate), den: dy.den * FEE_UNIT };
  const bound: Ratio = { num: s * (long ? pool.minPriceD18 : pool.maxPriceD18), den: E18 };
  const required: Ratio = long
    ? { num: withFee.num * bound.den - bound.num * withFee.den, den: withFee.den * bound.den }
    : { num: bound.num * withFee.den - withFee.num * bound.den, den: withFee.den * bound.den };

  const round = long ? ceilOf : floorOf;
  const requiredRounded = ceilOf(required);
  return {
    requiredCollateral: requiredRounded > 0n ? requiredRounded : 0n,
    fillPrice: round(fillPrice),
    priceAfter: round(priceAfter),
    sqrtPriceAfter: sqrtNext,
    exact: { requiredCollateral: required, fillPrice, priceAfter },
  };
}

/** The largest |size| in `direction` the pool can fill (0 if none), by bisection on the model. */
export function maxFillableSize(pool: PoolState, direction: 1n | -1n): bigint {
  let low = 0n;
  let high = 1n << 255n;
  if (quoteModel(pool, direction * high) !== "out-of-range") return high;
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    if (quoteModel(pool, direction * mid) === "out-of-range") high = mid;
    else low = mid;
  }
  return low;
}

/** The pool after a trade the model accepted. */
export function applyTrade(pool: PoolState, q: ModelQuote): PoolState {
  return { ...pool, sqrtPriceX96: q.sqrtPriceAfter };
}

export const MAX_UINT160 = (1n << 160n) - 1n;

/**
 * The sqrt price a PoolPriceOutOfRange revert reports for `size`: the sqrt price the trade would reach,
 * ceil(L*Q*X / D), saturated as the contract documents: 2^160 - 1 for a LONG the pool cannot fill (D <= 0)
 * or that would pass it, 0 for a SHORT whose D = L*Q + s*X does not fit 256 bits.
 */
export function outOfRangeSqrtPrice(pool: PoolState, size: bigint): bigint {
  const long = size > 0n;
  const s = long ? size : -size;
  const { liquidity: L, sqrtPriceX96: X } = pool;
  const d = long ? L * Q96 - s * X : L * Q96 + s * X;
  if (d <= 0n) return MAX_UINT160;
  if (d > maxUint256) return 0n;
  const next = ceilOf({ num: L * Q96 * X, den: d });
  return next > MAX_UINT160 ? MAX_UINT160 : next;
}
