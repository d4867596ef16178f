// Semantics §14's search and range, pure: on requirements written here (near-linear in L with the roundings' jitter,
// flat plateaus of thin ranges, a floor that L = 1 already passes), the answer fits and L + 1 does not, in few
// candidates; the range's alignment and its 400s; a tick's price read back is the same tick.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { askedTicks, planRange, runLiquiditySearch, type LiquidityOutcome } from "../../src/quote/liquiditySearch.ts";
import { priceAtTick, sqrtRatioAtTick, tickAtPrice } from "../../src/quote/tickMath.ts";

/** A requirement c·L/2^64 + k, jittered by a few wei that depend on L alone (as the mint's roundings do). */
const requirement = (slope: bigint, k: bigint) => (liquidity: bigint) => (slope * liquidity) / (1n << 64n) + k + ((liquidity * 7919n) % 3n);

const outcome = (required: bigint): LiquidityOutcome => ({ kind: "required", amount0: 0n, amount1: 0n, required });

describe("the liquidity search", () => {
  test("random slopes, budgets and first guesses: the answer fits, L + 1 does not, within 40 candidates", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n << 54n, max: 1n << 80n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 26n }),
        fc.bigInt({ min: 0n, max: 1n << 100n }),
        async (slope, budget, first) => {
          const need = requirement(slope, 4n);
          let asked = 0;
          const result = await runLiquiditySearch(budget, first, async (liquidity) => {
            asked++;
            return outcome(need(liquidity));
          });
          assert.equal(result.kind, "found");
          if (result.kind !== "found") return;
          assert.ok(need(result.best.liquidity) <= budget);
          assert.ok(need(result.best.liquidity + 1n) > budget);
          assert.ok(asked <= 40, `${asked} candidates`);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a close first guess (the group's quote) proves the edge in at most 4 candidates", async () => {
    const need = requirement(3n << 63n, 4n);
    const budget = 10n ** 18n;
    const edge = ((budget - 6n) << 64n) / (3n << 63n);
    const counts: number[] = [];
    for (const first of [edge - 1000n, edge - 3n, edge, edge + 5n, edge + 100_000n]) {
      let asked = 0;
      const result = await runLiquiditySearch(budget, first, async (liquidity) => (asked++, outcome(need(liquidity))));
      assert.equal(result.kind, "found");
      counts.push(asked);
    }
    assert.ok(Math.max(...counts) <= 4, `candidates ${counts}`);
  });

  test("a budget under L = 1's requirement: insufficient, naming it", async () => {
    const result = await runLiquiditySearch(3n, 0n, async (liquidity) => outcome(5n + liquidity));
    assert.deepEqual({ kind: result.kind, least: result.kind === "insufficient" ? result.least : undefined }, { kind: "insufficient", least: 6n });
  });

  test("a revert other than the requirement stops the search with it", async () => {
    const result = await runLiquiditySearch(10n ** 18n, 5n, async () => ({ kind: "reverted", data: "0x6f4d0c05", errorName: "ExpiredMarket", errorArgs: {} }));
    assert.equal(result.kind, "reverted");
    assert.equal(result.trace.length, 1);
  });
});

describe("the range", () => {
  const bounds = { minTick: -46000, maxTick: -200, spacing: 200 };

  test("aligned outwards to the spacing; absent sides are the bounds", () => {
    const tick = (price: bigint) => tickAtPrice(price);
    const planned = planRange(askedTicks({ lowerPrice: 4n * 10n ** 17n, upperPrice: 6n * 10n ** 17n }), bounds);
    assert.ok(planned.ok);
    if (!planned.ok) return;
    const { lowerTick, upperTick } = planned.value;
    assert.ok(lowerTick % 200 === 0 && upperTick % 200 === 0);
    assert.ok(lowerTick <= tick(4n * 10n ** 17n) && lowerTick > tick(4n * 10n ** 17n) - 200);
    assert.ok(upperTick >= tick(6n * 10n ** 17n) && upperTick < tick(6n * 10n ** 17n) + 200);
    const whole = planRange(askedTicks({}), bounds);
    assert.deepEqual(whole.ok && [whole.value.lowerTick, whole.value.upperTick], [-46000, -200]);
  });

  test("past a bound or empty: 400 naming the market's prices", () => {
    for (const [asked, param] of [
      [{ lowerPrice: 10n ** 15n }, "lowerPrice"],
      [{ upperPrice: 10n ** 18n }, "upperPrice"],
      [{ lowerPrice: 6n * 10n ** 17n, upperPrice: 4n * 10n ** 17n }, "upperPrice"],
    ] as const) {
      const planned = planRange(askedTicks(asked), bounds);
      assert.equal(planned.ok, false);
      if (planned.ok) continue;
      assert.equal(planned.error.message, "Invalid query parameters");
      assert.equal(planned.error.details[0].param, param);
      assert.match(planned.error.details[0].message, /market's range is \[0\.0100\d*, 0\.98\d*\]/);
    }
  });

  test("a tick's price (rounded up) reads back as that tick; the price between two ticks reads as the lower", () => {
    // 1.0001^t for t = 0 is 1 exactly; the pool's sqrt price of tick 0 is 2^96.
    assert.equal(sqrtRatioAtTick(0), 1n << 96n);
    assert.equal(tickAtPrice(10n ** 18n), 0);
    for (const tick of [-200000, -46000, -6932, -1, 1, 200, 887000]) {
      assert.equal(tickAtPrice(priceAtTick(tick)), tick, `tick ${tick}`);
    }
    // The pool's price of tick 1 is 1.0001 rounded up by its sqrt's last unit: just above 1.0001.
    assert.equal(tickAtPrice(10n ** 18n + 10n ** 14n), 0);
    assert.equal(tickAtPrice(10n ** 18n + 10n ** 14n + 1n), 1);
  });
});
