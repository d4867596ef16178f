// Sanity checks of the independent model itself (no chain).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ceilSqrtRatio, E18, floorSqrtRatio, initialPool, isqrt, quoteModel } from "./poolModel.ts";

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

test("model: a LONG of one token at 0.5 fills just above 0.5, and a SHORT of the same size brings the sqrt price back within 2", () => {
  const pool = initialPool({ priceD18: E18 / 2n, minPriceD18: E18 / 100n, maxPriceD18: (E18 * 99n) / 100n, liquidity: 10n ** 20n, feeRate: 0n });
  const long = quoteModel(pool, 10n ** 18n);
  assert.notEqual(long, "out-of-range");
  if (long === "out-of-range") return;
  // A LONG of 1 base token at about 0.5 costs about 0.5 quote tokens, and the price rises.
  assert.ok(long.fillPrice > E18 / 2n && long.fillPrice < (E18 * 51n) / 100n);
  assert.ok(long.priceAfter > long.fillPrice);
  const back = quoteModel({ ...pool, sqrtPriceX96: long.sqrtPriceAfter }, -(10n ** 18n));
  assert.notEqual(back, "out-of-range");
  if (back === "out-of-range") return;
  const drift = back.sqrtPriceAfter - pool.sqrtPriceX96;
  assert.ok(drift >= 0n && drift <= 2n, `sqrt price drift ${drift}`);
});
