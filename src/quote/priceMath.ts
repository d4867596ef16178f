// Price math in bigint, in the manner of Uniswap v3-core's math libraries: small functions, each naming its
// rounding (Down, Up, Nearest) or saying it is exact. Prices are D18 (value × 10^18); sqrt prices are a pool's
// Q64.96 (sqrt(price) × 2^96). Unbounded unless a function says otherwise; its domain is then the one on chain.
// The Solidity that must agree: contracts/libraries/PoolPrices.sol (the market group's own conversions) and
// contracts/PriceEdge.sol (the price edge's limits). Imports only fixedPoint.ts, so that the explorer page loads it
// as it is (served at /quoter/explorer/lib/): its figures follow the service's roundings.
import { D18, MAX_UINT256 } from "./fixedPoint.ts";

/** 2^96: a sqrt price of 1 in Q64.96. */
export const Q96 = 1n << 96n;
/** 2^192: the unit of a squared sqrt price. */
export const Q192 = 1n << 192n;
/** v3-core's TickMath.MIN_SQRT_RATIO and MAX_SQRT_RATIO: a pool's sqrt price lies in [MIN, MAX). */
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

/**
 * Rounded down: floor(sqrt(n)) for n >= 0. Newton's method from 2^ceil(bits/2), a start at or above the root: the
 * iterates then fall to it in a handful of steps.
 */
export function sqrtDown(n: bigint): bigint {
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

/** Rounded up: ceil(sqrt(n)) for n >= 0. */
export function sqrtUp(n: bigint): bigint {
  const root = sqrtDown(n);
  return root * root === n ? root : root + 1n;
}

/** Rounded down: floor(x * y / z) for x, y >= 0 and z > 0; none above 2^256 - 1, where FullMath.mulDiv reverts. */
export function mulDivDown(x: bigint, y: bigint, z: bigint): bigint | undefined {
  const result = (x * y) / z;
  return result > MAX_UINT256 ? undefined : result;
}

/** Rounded up: ceil(x * y / z) for x, y >= 0 and z > 0; none above 2^256 - 1 (FullMath.mulDivRoundingUp's bound). */
export function mulDivUp(x: bigint, y: bigint, z: bigint): bigint | undefined {
  const result = (x * y + z - 1n) / z;
  return result > MAX_UINT256 ? undefined : result;
}

/**
 * Rounded down: floor(sqrtPriceX96^2 * 10^18 / 2^192), the price a market group reads from its pool
 * (PoolPrices.priceD18FromSqrtPriceX96; price18DigitsAfter).
 */
export function priceD18FromSqrtX96Down(sqrtPriceX96: bigint): bigint {
  return (sqrtPriceX96 * sqrtPriceX96 * D18) / Q192;
}

/** Rounded to nearest, half up: for showing a sqrt price (a revert's range), never for an answer. */
export function priceD18FromSqrtX96Nearest(sqrtPriceX96: bigint): bigint {
  return (sqrtPriceX96 * sqrtPriceX96 * D18 + Q192 / 2n) / Q192;
}

/**
 * Rounded down: floor(sqrt(price * 2^192 / 10^18)), the largest sqrt price whose exact price is at most `price`
 * (PoolPrices.sqrtPriceX96FromPriceD18, Floor). One rounding: floor(sqrt(floor(v))) = floor(sqrt(v)).
 */
export function sqrtX96FromPriceD18Down(price: bigint): bigint {
  return sqrtDown((price * Q192) / D18);
}

/**
 * Rounded up: ceil(sqrt(price * 2^192 / 10^18)), the smallest sqrt price whose price, exact or rounded down, is at
 * least `price` (PoolPrices.sqrtPriceX96FromPriceD18, Ceil). One rounding: ceil(sqrt(ceil(v))) = ceil(sqrt(v)).
 */
export function sqrtX96FromPriceD18Up(price: bigint): bigint {
  return sqrtUp((price * Q192 + D18 - 1n) / D18);
}

/**
 * Exact: the largest sqrt price whose price rounded down ({@link priceD18FromSqrtX96Down}) is at most `price`, i.e.
 * whose exact price is below price + 1: floor(sqrt(floor(((price + 1) * 2^192 - 1) / 10^18))).
 */
export function highestSqrtX96PricedAtMost(price: bigint): bigint {
  return sqrtDown(((price + 1n) * Q192 - 1n) / D18);
}
