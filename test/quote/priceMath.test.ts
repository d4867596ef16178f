// src/quote/priceMath.ts held to its own words: each function's result is the integer its name and first line
// promise (rounded down, up, to nearest, or the exact boundary), proven here by comparisons of exact rationals in
// bigint (numerator against denominator, never the code under test), on 10,000 random inputs per function at every
// magnitude: sqrt prices over Uniswap's whole range (MIN_SQRT_RATIO..MAX_SQRT_RATIO), prices with all 18 decimals,
// and the extremes themselves. test/contracts/priceMath.test.ts holds the Solidity that must agree to the same names.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { everyMagnitude, prices, SQRT_EXTREMES, sqrtPrices } from "../support/priceSamples.ts";
import {
  highestSqrtX96PricedAtMost,
  MAX_SQRT_RATIO,
  MIN_SQRT_RATIO,
  mulDivDown,
  mulDivUp,
  priceD18FromSqrtX96Down,
  priceD18FromSqrtX96Nearest,
  sqrtDown,
  sqrtUp,
  sqrtX96FromPriceD18Down,
  sqrtX96FromPriceD18Up,
} from "../../src/quote/priceMath.ts";

const RUNS = 10_000;
const E18 = 10n ** 18n;
const TWO_192 = 2n ** 192n;
const TWO_256 = 2n ** 256n;

const sqrtPrice = sqrtPrices();
const price = prices();

/** Records the decimal digits of every input, so that a test can say it reached each magnitude. */
function digitCounter(): { seen: (value: bigint) => void; missing: (from: number, to: number) => number[] } {
  const counts = new Map<number, number>();
  return {
    seen: (value) => counts.set(value.toString().length, (counts.get(value.toString().length) ?? 0) + 1),
    missing: (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i).filter((digits) => (counts.get(digits) ?? 0) < 20),
  };
}

test("sqrtDown is floor(sqrt(n)) and sqrtUp ceil(sqrt(n)), on 10,000 n each up to 2^512", () => {
  // Perfect squares and their neighbours, where floor and ceil part.
  const nearSquares = everyMagnitude(256, [1n, 2n]).chain((k) => fc.constantFrom(k * k, k * k + 1n, k === 0n ? 0n : k * k - 1n));
  const squares = fc.oneof(everyMagnitude(512, [0n, 1n, 2n, 3n, 4n, TWO_256 - 1n, TWO_256, (TWO_256 - 1n) ** 2n, (TWO_256 - 1n) ** 2n - 1n]), nearSquares);
  const digits = digitCounter();
  let exact = 0;
  fc.assert(
    fc.property(squares, (n) => {
      digits.seen(n);
      const down = sqrtDown(n);
      assert.ok(down >= 0n && down * down <= n && n < (down + 1n) * (down + 1n), `sqrtDown(${n}) = ${down}`);
    }),
    { numRuns: RUNS, seed: 61 },
  );
  fc.assert(
    fc.property(squares, (n) => {
      const up = sqrtUp(n);
      assert.ok(n <= up * up && (up === 0n || (up - 1n) * (up - 1n) < n), `sqrtUp(${n}) = ${up}`);
      if (up * up === n) exact++;
    }),
    { numRuns: RUNS, seed: 62 },
  );
  assert.deepEqual(digits.missing(1, 154), []);
  assert.ok(exact >= 1000, `${exact} perfect squares`);
});

test("mulDivDown is floor(x * y / z) and mulDivUp ceil(x * y / z), none past 2^256 - 1, on 10,000 triples each", () => {
  const word = everyMagnitude(256, [0n, 1n, 2n, TWO_256 - 2n, TWO_256 - 1n]);
  const divisor = everyMagnitude(256, [1n, 2n, 3n, TWO_256 - 1n]).map((z) => (z === 0n ? 1n : z));
  // Products that z divides exactly (x a multiple of z), where floor and ceil meet, and one wei on either side.
  const triple = fc.oneof(
    fc.tuple(word, word, divisor),
    fc.tuple(divisor, everyMagnitude(128, [1n]), word, fc.constantFrom(-1n, 0n, 1n)).map(([z, q, y, d]) => {
      const x = z * q + d;
      return [x < 0n ? 0n : x, y, z] as const;
    }),
  );
  const seen = { down: 0, up: 0, none: 0, exact: 0 };
  fc.assert(
    fc.property(triple, ([x, y, z]) => {
      const product = x * y;
      const down = mulDivDown(x, y, z);
      if (product >= TWO_256 * z) assert.equal(down, undefined, `mulDivDown(${x}, ${y}, ${z}) past 2^256 - 1`);
      else assert.ok(down !== undefined && down * z <= product && product < (down + 1n) * z, `mulDivDown(${x}, ${y}, ${z}) = ${down}`);
      if (down === undefined) seen.none++;
      else seen.down++;
    }),
    { numRuns: RUNS, seed: 63 },
  );
  fc.assert(
    fc.property(triple, ([x, y, z]) => {
      const product = x * y;
      const up = mulDivUp(x, y, z);
      if (product > (TWO_256 - 1n) * z) assert.equal(up, undefined, `mulDivUp(${x}, ${y}, ${z}) past 2^256 - 1`);
      else assert.ok(up !== undefined && product <= up * z && (up === 0n || (up - 1n) * z < product), `mulDivUp(${x}, ${y}, ${z}) = ${up}`);
      if (up !== undefined) seen.up++;
      if (up !== undefined && up * z === product && product !== 0n) seen.exact++;
    }),
    { numRuns: RUNS, seed: 64 },
  );
  // Both sides of the bound, and quotients that divide exactly (where up and down agree), were asked.
  assert.ok(seen.down >= 2000 && seen.none >= 2000 && seen.up >= 2000 && seen.exact >= 200, JSON.stringify(seen));
});

test("a sqrt price's D18 price, rounded down and to nearest, on 10,000 sqrt prices each over MIN_SQRT_RATIO..MAX_SQRT_RATIO", () => {
  const digits = digitCounter();
  const extremes = new Set<bigint>();
  let roundedUp = 0;
  fc.assert(
    fc.property(sqrtPrice, (x) => {
      digits.seen(x);
      if (SQRT_EXTREMES.includes(x)) extremes.add(x);
      const p = priceD18FromSqrtX96Down(x);
      const scaled = x * x * E18; // the price is scaled / 2^192
      assert.ok(p * TWO_192 <= scaled && scaled < (p + 1n) * TWO_192, `priceD18FromSqrtX96Down(${x}) = ${p}`);
    }),
    { numRuns: RUNS, seed: 65 },
  );
  fc.assert(
    fc.property(sqrtPrice, (x) => {
      const p = priceD18FromSqrtX96Nearest(x);
      // Twice the price, times 2^192: the nearest p has |twice - 2p * 2^192| <= 2^192, a tie going up. No sqrt price
      // ties (x^2 * 10^18 holds an even power of two, half of 2^192 an odd one), so the half is never asked.
      const twice = 2n * x * x * E18;
      assert.ok((2n * p - 1n) * TWO_192 <= twice && twice < (2n * p + 1n) * TWO_192, `priceD18FromSqrtX96Nearest(${x}) = ${p}`);
      if (p * TWO_192 > x * x * E18) roundedUp++;
    }),
    { numRuns: RUNS, seed: 66 },
  );
  assert.deepEqual(digits.missing(1, 49), []);
  assert.equal(extremes.size, SQRT_EXTREMES.length);
  // Nearest parts from down on a good share of them (the rest round down, or are exact).
  assert.ok(roundedUp >= 2000 && roundedUp <= 8000, `${roundedUp} rounded up`);
});

test("a price's sqrt price, rounded down (the largest whose exact price is at most p) and up (the smallest whose price is at least p), on 10,000 prices each", () => {
  const digits = digitCounter();
  let eighteenDecimals = 0;
  fc.assert(
    fc.property(price, (p) => {
      digits.seen(p);
      if (p % 10n !== 0n && p > E18) eighteenDecimals++;
      const x = sqrtX96FromPriceD18Down(p);
      const target = p * TWO_192; // the price times 2^192, against x^2 * 10^18
      assert.ok(x * x * E18 <= target && target < (x + 1n) * (x + 1n) * E18, `sqrtX96FromPriceD18Down(${p}) = ${x}`);
    }),
    { numRuns: RUNS, seed: 67 },
  );
  fc.assert(
    fc.property(price, (p) => {
      const x = sqrtX96FromPriceD18Up(p);
      const target = p * TWO_192;
      assert.ok(target <= x * x * E18 && (x === 0n || (x - 1n) * (x - 1n) * E18 < target), `sqrtX96FromPriceD18Up(${p}) = ${x}`);
    }),
    { numRuns: RUNS, seed: 68 },
  );
  assert.deepEqual(digits.missing(1, 57), []);
  assert.ok(eighteenDecimals >= 2000, `${eighteenDecimals} prices with 18 decimals`);
});

test("the largest sqrt price whose price, rounded down as the group rounds it, is at most p, on 10,000 prices", () => {
  const digits = digitCounter();
  fc.assert(
    fc.property(price, (p) => {
      digits.seen(p);
      const x = highestSqrtX96PricedAtMost(p);
      // floor(x^2 * 10^18 / 2^192) <= p exactly when x^2 * 10^18 < (p + 1) * 2^192.
      const above = (p + 1n) * TWO_192;
      assert.ok(x * x * E18 < above && above <= (x + 1n) * (x + 1n) * E18, `highestSqrtX96PricedAtMost(${p}) = ${x}`);
    }),
    { numRuns: RUNS, seed: 69 },
  );
  assert.deepEqual(digits.missing(1, 57), []);
});

test("the module's names hold at hand-picked points: a price of 1, Uniswap's ends, exact sqrt prices", () => {
  assert.equal(priceD18FromSqrtX96Down(2n ** 96n), E18);
  assert.equal(sqrtX96FromPriceD18Down(E18), 2n ** 96n);
  assert.equal(sqrtX96FromPriceD18Up(E18), 2n ** 96n);
  assert.equal(highestSqrtX96PricedAtMost(E18), sqrtX96FromPriceD18Up(E18 + 1n) - 1n);
  // The least sqrt price a pool can have is worth less than 10^-18: its price rounds down to 0, to nearest to 0.
  assert.equal(priceD18FromSqrtX96Down(MIN_SQRT_RATIO), 0n);
  assert.equal(priceD18FromSqrtX96Nearest(MIN_SQRT_RATIO), 0n);
  assert.ok(priceD18FromSqrtX96Down(MAX_SQRT_RATIO) > 10n ** 56n);
  // 2^95 squared is a quarter of 2^192: a price of 0.25 exactly, alike in every rounding; j * 2^87 is 5^18 * j^2's.
  assert.equal(priceD18FromSqrtX96Nearest(2n ** 95n), E18 / 4n);
  assert.equal(sqrtX96FromPriceD18Down(9n * 5n ** 18n), 3n * 2n ** 87n);
  assert.equal(sqrtX96FromPriceD18Up(9n * 5n ** 18n), 3n * 2n ** 87n);
  assert.equal(highestSqrtX96PricedAtMost(9n * 5n ** 18n - 1n), 3n * 2n ** 87n - 1n);
  assert.equal(sqrtUp(0n), 0n);
  assert.equal(mulDivUp(1n, 1n, 3n), 1n);
  assert.equal(mulDivDown(1n, 1n, 3n), 0n);
});
