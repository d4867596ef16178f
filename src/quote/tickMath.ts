// A Uniswap v3 pool's ticks in bigint (semantics §14): a tick's sqrt price exactly as the pool computes it (the same
// approximation as contracts/libraries/PoolTicks.sol, not the exact power), the tick of a D18 price, a tick's price as
// the answer shows it, the alignment of a range to the pool's spacing, and v3's liquidity of token amounts. Pure.
import { D18 } from "./fixedPoint.ts";
import { Q96, Q192 } from "./priceMath.ts";

/** The ticks a v3 pool accepts: |tick| <= 887272. */
export const MAX_TICK = 887272;
export const MIN_TICK = -MAX_TICK;

/** round(2^128 / sqrt(1.0001)^(2^i)) for i = 0 to 19, the pool's factors (PoolTicks.sol). */
const FACTORS: readonly bigint[] = [
  0xfffcb933bd6fad37aa2d162d1a594001n, 0xfff97272373d413259a46990580e213an, 0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n, 0xffcb9843d60f6159c9db58835c926644n, 0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n, 0xfe5dee046a99a2a811c461f1969c3053n, 0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n, 0xf3392b0822b70005940c7a398e4b70f3n, 0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n, 0xa9f746462d870fdf8a65dc1f90e061e5n, 0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n, 0x9aa508b5b7a84e1c677de54f3e99bc9n, 0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n, 0x48a170391f7dc42444e8fa2n,
];

const MAX_UINT256 = (1n << 256n) - 1n;

/** A tick's sqrt price (Q96) as the pool computes it, for |tick| <= MAX_TICK: rounded up to Q96 at the end. */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || Math.abs(tick) > MAX_TICK) throw new RangeError(`tick ${tick} is past ±${MAX_TICK}`);
  const magnitude = Math.abs(tick);
  let ratio = 1n << 128n;
  FACTORS.forEach((factor, i) => {
    if ((magnitude >> i) & 1) ratio = (ratio * factor) >> 128n;
  });
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** Whether the pool's price of `tick` is at most `price` (D18), compared without rounding. */
const pricedAtMost = (tick: number, price: bigint): boolean => {
  const sqrt = sqrtRatioAtTick(tick);
  return sqrt * sqrt * D18 <= price * Q192;
};

/** The tick of a D18 price: the largest tick whose pool price is at most it, within [MIN_TICK, MAX_TICK]. */
export function tickAtPrice(price: bigint): number {
  if (!pricedAtMost(MIN_TICK, price)) return MIN_TICK;
  let [low, high] = [MIN_TICK, MAX_TICK];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (pricedAtMost(mid, price)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Rounded up: a tick's D18 price as the answer shows it, so that the price read back is the same tick. */
export function priceAtTick(tick: number): bigint {
  const sqrt = sqrtRatioAtTick(tick);
  return (sqrt * sqrt * D18 + Q192 - 1n) / Q192;
}

/** The largest multiple of `spacing` at or below `tick`. */
export function alignDown(tick: number, spacing: number): number {
  return tick - (((tick % spacing) + spacing) % spacing) + 0;
}

/** The smallest multiple of `spacing` at or above `tick`. */
export function alignUp(tick: number, spacing: number): number {
  // + 0: never -0.
  return -alignDown(-tick, spacing) + 0;
}

/** v3's LiquidityAmounts.getLiquidityForAmounts, rounded down: the liquidity the amounts pay for in [a, b] at `p`. */
export function liquidityForAmounts(p: bigint, a: bigint, b: bigint, amount0: bigint, amount1: bigint): bigint {
  const from0 = (x: bigint, y: bigint) => (amount0 * ((x * y) / Q96)) / (y - x);
  const from1 = (x: bigint, y: bigint) => (amount1 * Q96) / (y - x);
  if (p <= a) return from0(a, b);
  if (p >= b) return from1(a, b);
  const [l0, l1] = [from0(p, b), from1(a, p)];
  return l0 < l1 ? l0 : l1;
}
