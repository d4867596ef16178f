// Exact bigint arithmetic the liquidity tests check MarketGroup's liquidity surface against, written here from the
// facts of Uniswap v3 and of the real Sapience group (docs/semantics.md section 8): the pool's tick prices, the
// tokens of a liquidity and the liquidity of tokens (rounded down, as v3's position manager), the tokens the pool
// takes for a mint (rounded up), the collateral a new liquidity position needs and the group's own quote.
import { E18, isqrt, Q96 } from "./poolModel.ts";

/** Extra bits the tick factors are derived with before they are rounded: far more than 20 squarings lose. */
const GUARD_BITS = 256n;

/**
 * round(2^128 / sqrt(1.0001)^(2^i)) for i = 0 to 19: the first from an exact square root, each next one the square of
 * the previous, carried with GUARD_BITS more bits, rounded to the nearest unit at the end.
 */
export const TICK_FACTORS: readonly bigint[] = (() => {
  const shift = 128n + GUARD_BITS;
  let x = isqrt(((1n << (2n * shift)) * 10_000n) / 10_001n);
  const factors: bigint[] = [];
  for (let i = 0; i < 20; i++) {
    factors.push((x + (1n << (GUARD_BITS - 1n))) >> GUARD_BITS);
    x = (x * x) >> shift;
  }
  return factors;
})();

const MAX_UINT256 = (1n << 256n) - 1n;

/** A tick's sqrt price (Q96) as a v3 pool computes it: the Q128 product of the factors of |tick|'s bits, each step
 * truncated, inverted for a positive tick, rounded up to Q96. */
export function poolSqrtAtTick(tick: number): bigint {
  const magnitude = BigInt(Math.abs(tick));
  let ratio = 1n << 128n;
  TICK_FACTORS.forEach((factor, i) => {
    if ((magnitude >> BigInt(i)) & 1n) ratio = (ratio * factor) >> 128n;
  });
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const order = (a: bigint, b: bigint): [bigint, bigint] => (a < b ? [a, b] : [b, a]);

/** Base tokens of liquidity L between sqrt prices a and b: L * 2^96 * (b - a) / b, then / a, down (or up). */
export function amount0Of(a: bigint, b: bigint, liquidity: bigint, up = false): bigint {
  const [lo, hi] = order(a, b);
  const numerator = (liquidity << 96n) * (hi - lo);
  return up ? ceilDiv(ceilDiv(numerator, hi), lo) : numerator / hi / lo;
}

/** Quote tokens of liquidity L between sqrt prices a and b: L * (b - a) / 2^96, down (or up). */
export function amount1Of(a: bigint, b: bigint, liquidity: bigint, up = false): bigint {
  const [lo, hi] = order(a, b);
  return up ? ceilDiv(liquidity * (hi - lo), Q96) : (liquidity * (hi - lo)) / Q96;
}

/** The tokens liquidity L holds in [a, b] at sqrt price p, rounded down. */
export function tokensOf(p: bigint, a: bigint, b: bigint, liquidity: bigint): [bigint, bigint] {
  const [lo, hi] = order(a, b);
  if (p <= lo) return [amount0Of(lo, hi, liquidity), 0n];
  if (p >= hi) return [0n, amount1Of(lo, hi, liquidity)];
  return [amount0Of(p, hi, liquidity), amount1Of(lo, p, liquidity)];
}

const MAX_UINT128 = (1n << 128n) - 1n;

/** A liquidity, which must fit 128 bits: v3 reverts past them. */
function checked128(liquidity: bigint): bigint {
  if (liquidity > MAX_UINT128) throw new RangeError(`liquidity ${liquidity} past 128 bits`);
  return liquidity;
}

/** The most liquidity the amounts pay for in [a, b] at sqrt price p (the least of both sides inside the range); a
 * RangeError where v3 reverts (past 128 bits). */
export function liquidityOf(p: bigint, a: bigint, b: bigint, amount0: bigint, amount1: bigint): bigint {
  const [lo, hi] = order(a, b);
  const from0 = (x: bigint, y: bigint) => checked128((amount0 * ((x * y) / Q96)) / (y - x));
  const from1 = (x: bigint, y: bigint) => checked128((amount1 * Q96) / (y - x));
  if (p <= lo) return from0(lo, hi);
  if (p >= hi) return from1(lo, hi);
  const [l0, l1] = [from0(p, hi), from1(lo, p)];
  return l0 < l1 ? l0 : l1;
}

/** The tokens a v3 pool takes to mint L in [lowerTick, upperTick] at (sqrt price p, tick), rounded up. */
export function mintCost(p: bigint, tick: number, lowerTick: number, upperTick: number, liquidity: bigint): [bigint, bigint] {
  const [a, b] = [poolSqrtAtTick(lowerTick), poolSqrtAtTick(upperTick)];
  if (tick < lowerTick) return [amount0Of(a, b, liquidity, true), 0n];
  if (tick < upperTick) return [amount0Of(p, b, liquidity, true), amount1Of(a, p, liquidity, true)];
  return [0n, amount1Of(a, b, liquidity, true)];
}

/**
 * The collateral a new position of L in [a, b] owing loan0 base and loan1 quote tokens needs on a market of prices
 * [m, M]: at m it holds L's base tokens of the whole range worth floor(x * m / E), at M its quote tokens; it owes its
 * loans, each one wei more, base valued at that bound (down). The larger shortfall, plus 2 when not 0.
 */
export function requirementOf(liquidity: bigint, loan0: bigint, loan1: bigint, a: bigint, b: bigint, m: bigint, M: bigint): bigint {
  const shortfall = (owed: bigint, held: bigint) => (owed > held ? owed - held : 0n);
  const atMin = shortfall(loan1 + 1n + ((loan0 + 1n) * m) / E18, (amount0Of(a, b, liquidity) * m) / E18);
  const atMax = shortfall(loan1 + 1n + ((loan0 + 1n) * M) / E18, amount1Of(a, b, liquidity));
  const required = atMin > atMax ? atMin : atMax;
  return required > 0n ? required + 2n : 0n;
}

/** The group's own quote for a budget: the liquidity of one token each, scaled by budget / its requirement, the
 * liquidity truncated to 128 bits; a RangeError where the group reverts (a unit liquidity past 128 bits, a product
 * past 256). */
export function groupQuoteOf(budget: bigint, p: bigint, a: bigint, b: bigint, m: bigint, M: bigint): [bigint, bigint, bigint] {
  const unit = liquidityOf(p, a, b, E18, E18);
  const [unit0, unit1] = tokensOf(p, a, b, unit);
  const ratio = (budget * E18) / requirementOf(unit, unit0, unit1, a, b, m, M);
  if (unit * ratio > MAX_UINT256) throw new RangeError("liquidity times ratio past 256 bits");
  return [(unit0 * ratio) / E18, (unit1 * ratio) / E18, ((unit * ratio) / E18) & MAX_UINT128];
}
