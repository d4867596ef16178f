// Random prices and sqrt prices at every magnitude, for the tests of the price math (its own rationals in
// test/quote/priceMath.test.ts, the Solidity's in test/contracts/priceMath.test.ts): log-uniform over bit lengths,
// Uniswap's ends and their neighbours, prices with all 18 decimals, and prices at a sqrt price's boundary.
import fc from "fast-check";
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../../src/quote/priceMath.ts";

const E18 = 10n ** 18n;

/** Values spread over every bit length up to `maxBits` (log-uniform), with `extremes` a quarter of the time. */
export function everyMagnitude(maxBits: number, extremes: readonly bigint[]): fc.Arbitrary<bigint> {
  const spread = fc
    .integer({ min: 0, max: maxBits })
    .chain((bits) => (bits === 0 ? fc.constant(0n) : fc.bigInt({ min: 1n << BigInt(bits - 1), max: (1n << BigInt(bits)) - 1n })));
  return fc.oneof({ arbitrary: spread, weight: 3 }, { arbitrary: fc.constantFrom(...extremes), weight: 1 });
}

/** The price (D18) of a sqrt price, from the test's own rationals: floor(x^2 * 10^18 / 2^192). */
export const priceOf = (sqrtPriceX96: bigint) => (sqrtPriceX96 * sqrtPriceX96 * E18) >> 192n;

/** Uniswap's ends and their neighbours, and a price of 1. */
export const SQRT_EXTREMES = [0n, 1n, MIN_SQRT_RATIO - 1n, MIN_SQRT_RATIO, MIN_SQRT_RATIO + 1n, 2n ** 96n, MAX_SQRT_RATIO - 1n, MAX_SQRT_RATIO];

/** Sqrt prices from 0 to MAX_SQRT_RATIO (below `maxBits` bits), every magnitude and the extremes. */
export function sqrtPrices(maxBits = 160): fc.Arbitrary<bigint> {
  const cap = (1n << BigInt(maxBits)) - 1n < MAX_SQRT_RATIO ? (1n << BigInt(maxBits)) - 1n : MAX_SQRT_RATIO;
  return everyMagnitude(maxBits, SQRT_EXTREMES.filter((x) => x <= cap)).map((x) => (x > cap ? cap : x));
}

/** The price edge's bound (2^64 prices, a sqrt price of 2^128), the prices of Uniswap's ends, and around 1. */
export const PRICE_EXTREMES = [0n, 1n, 2n, E18 - 1n, E18, E18 + 1n, priceOf(MIN_SQRT_RATIO) + 1n, (1n << 64n) * E18 - 1n, priceOf(MAX_SQRT_RATIO - 1n), priceOf(MAX_SQRT_RATIO)];

/**
 * D18 prices below `limit`: every magnitude (from 10^-18 to past the price of MAX_SQRT_RATIO by default), prices with
 * all 18 decimals, and prices at a sqrt price's boundary, where < and <= part: the price of a random sqrt price and
 * the one after, and j^2 * 5^18, whose sqrt price is exactly j * 2^87 (x^2 * 10^18 = p * 2^192 then).
 */
export function prices(limit = 1n << 190n): fc.Arbitrary<bigint> {
  const maxBits = (limit - 1n).toString(2).length;
  const boundary = fc.oneof(
    sqrtPrices(Math.min(160, (maxBits + 132) >> 1)).chain((x) => fc.constantFrom(priceOf(x), priceOf(x) + 1n)),
    everyMagnitude((maxBits - 42) >> 1, [1n]).map((j) => j * j * 5n ** 18n),
  );
  return fc
    .oneof(
      everyMagnitude(maxBits, PRICE_EXTREMES.filter((p) => p < limit)),
      fc.tuple(everyMagnitude(maxBits - 60, [0n, 1n]), fc.bigInt({ min: 0n, max: E18 - 1n })).map(([whole, decimals]) => whole * E18 + decimals),
      boundary,
    )
    .filter((p) => p < limit);
}
