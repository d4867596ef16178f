// Sanity checks of the exact model itself (no chain).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ceilOf, ceilSqrtRatio, compareRatios, E18, floorOf, floorSqrtRatio, isqrt, moveLoss, priceOfSqrt, Q96, sqrtOfPrice } from "./poolModel.ts";

test("model: isqrt(n) is the largest r with r^2 <= n; floor/ceil sqrt of a ratio bracket it", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 1n << 300n }), fc.bigInt({ min: 1n, max: 1n << 80n }), (n, d) => {
      const r = isqrt(n);
      assert.ok(r * r <= n && (r + 1n) * (r + 1n) > n);
      const lo = floorSqrtRatio(n, d);
      const hi = ceilSqrtRatio(n, d);
      assert.ok(lo * lo * d <= n && (lo + 1n) * (lo + 1n) * d > n);
      assert.ok(hi * hi * d >= n && (hi === 0n || (hi - 1n) * (hi - 1n) * d < n));
    }),
    { numRuns: 300 },
  );
});

test("model: floorOf and ceilOf round negative fractions the right way", () => {
  assert.equal(floorOf({ num: -3n, den: 2n }), -2n);
  assert.equal(ceilOf({ num: -3n, den: 2n }), -1n);
  assert.equal(ceilOf({ num: 3n, den: 2n }), 2n);
});

test("model: a price of 0.5 reads back as 0.499999999999999999 through its sqrt price rounded down", () => {
  assert.equal(priceOfSqrt(sqrtOfPrice(E18 / 2n)), E18 / 2n - 1n);
  assert.equal(priceOfSqrt(sqrtOfPrice(E18)), E18);
});

test("model: over one range, the loss of a move is what the v3 amounts give (LONG and SHORT), and 0 for no move", () => {
  const L = 10n ** 20n;
  const range = { sqrtLowerX96: sqrtOfPrice(E18 / 100n), sqrtUpperX96: sqrtOfPrice((99n * E18) / 100n), liquidity: L, tickLower: 0, tickUpper: 0 };
  const from = sqrtOfPrice(E18 / 2n);
  const to = sqrtOfPrice((E18 * 6n) / 10n);
  // y = L (to - from) / Q quote tokens buy x = L Q (to - from) / (from to) base tokens.
  const y = { num: L * (to - from), den: Q96 };
  const x = { num: L * Q96 * (to - from), den: from * to };
  const long = moveLoss([range], from, to, E18 / 100n, 0);
  assert.equal(compareRatios(long, { num: y.num * x.den * E18 - x.num * (E18 / 100n) * y.den, den: y.den * x.den * E18 }), 0);
  // The fee: the input is the amount moved / (1 - f).
  const withFee = moveLoss([range], from, to, E18 / 100n, 10_000);
  assert.equal(compareRatios(withFee, { num: long.num * 99n + 0n, den: long.den * 99n }) > 0, true);
  const short = moveLoss([range], to, from, (99n * E18) / 100n, 0);
  assert.equal(compareRatios(short, { num: x.num * 99n * y.den - y.num * x.den * 100n, den: x.den * y.den * 100n }), 0);
  assert.equal(compareRatios(moveLoss([range], from, from, E18 / 100n, 10_000), { num: 0n, den: 1n }), 0);
});
