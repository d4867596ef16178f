// Semantics §5 limitedBy from a search's record: the reason of the smallest size above maxSize found too large, in
// §4's order; for the bisection with none, collateral (its steps all went up towards the top of the range the budget
// sets); for the exact search, what maxSize + 1 breaks, and search only for an unproven answer. Hand-made records,
// then both searches run on fake markets whose rules break at known sizes.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { maxInt256 } from "viem";
import { runExactSearch } from "../../src/quote/exactSearch.ts";
import { limitedBy } from "../../src/quote/limitedBy.ts";
import { runSearch, type Evaluation, type Outcome, type TraceEntry } from "../../src/quote/search.ts";

const D18 = 10n ** 18n;
const entry = (size: bigint, outcome: Outcome): TraceEntry => ({ size, outcome });
const bisection = { search: "bisection" } as const;
const exact = { search: "exact", proven: true } as const;
const unproven = { search: "exact", proven: false } as const;

test("the smallest size above maxSize found too large decides, wherever it is in the trace, for a LONG or a SHORT", () => {
  const trace = [entry(100n, "reverted"), entry(50n, "over-budget"), entry(25n, "feasible"), entry(37n, "beyond-expected"), entry(31n, "feasible")];
  assert.equal(limitedBy(31n, trace, bisection), "expectedPrice");
  assert.equal(limitedBy(31n, trace.slice(0, 3), bisection), "collateral");
  assert.equal(limitedBy(31n, trace.slice(0, 1), bisection), "liquidity");
  const short = trace.map((e) => ({ ...e, size: -e.size }));
  assert.equal(limitedBy(31n, short, bisection), "expectedPrice");
});

test("a size above maxSize that is only short of priceLimit fits: it decides nothing", () => {
  const trace = [entry(8n, "feasible"), entry(12n, "short-of-limit"), entry(14n, "over-budget")];
  assert.equal(limitedBy(8n, trace, bisection), "collateral");
  assert.equal(limitedBy(8n, trace.slice(0, 2), bisection), "collateral");
});

test("the bisection with nothing too large above its answer: collateral, however far short of cap it stopped (never search)", () => {
  // cap 1000: 500, 750, ..., 998, 999 all fit; the range has no size left to try.
  const mids = [500n, 750n, 875n, 937n, 968n, 984n, 992n, 996n, 998n, 999n];
  const all = mids.map((size) => entry(size, "feasible"));
  assert.equal(limitedBy(999n, all, bisection), "collateral");
  // maxIterations stopped it a step short of the top: every step still went up, towards the top the budget sets.
  assert.equal(limitedBy(998n, all.slice(0, 9), bisection), "collateral");
  assert.equal(limitedBy(500n, all.slice(0, 1), bisection), "collateral");
  // A candidate too large below the answer decides nothing above it.
  assert.equal(limitedBy(999n, [entry(1n, "reverted"), ...all], bisection), "collateral");
  for (const trace of [all, all.slice(0, 3), [entry(1n, "reverted"), ...all]]) assert.notEqual(limitedBy(trace.at(-1)!.size, trace, bisection), "search");
});

test("the exact search: what maxSize + 1 breaks; liquidity at 2^255-1; search exactly when the answer is unproven", () => {
  const proven = [entry(10n ** 18n, "over-budget"), entry(5n * 10n ** 17n, "feasible"), entry(5n * 10n ** 17n + 1n, "beyond-expected")];
  assert.equal(limitedBy(5n * 10n ** 17n, proven, exact), "expectedPrice");
  assert.equal(limitedBy(5n * 10n ** 17n, proven.slice(0, 2), exact), "collateral");
  assert.equal(limitedBy(maxInt256, [entry(maxInt256, "feasible")], exact), "liquidity");
  // Unproven: the search ran out of candidates before maxSize + 1, whatever it found above (upperBound).
  assert.equal(limitedBy(5n * 10n ** 17n, proven.slice(0, 2), unproven), "search");
  assert.equal(limitedBy(2n * D18, [entry(D18, "feasible"), entry(2n * D18, "feasible")], unproven), "search");
});

/**
 * A LONG at price 1 whose rules break at known sizes: it reverts from `revertAt` on, needs one wei of collateral a
 * wei of size, and moves the price by a wei per wei of size.
 */
function market(revertAt: bigint) {
  return (size: bigint): Evaluation =>
    size >= revertAt
      ? { kind: "reverted", data: "0x" }
      : { kind: "quoted", quote: { requiredCollateral: size, fillPrice: D18 + size / 2n, priceAfter: D18 + size } };
}

test("property: on fake markets whose rules break at known sizes, a proven exact answer names the rule that breaks first", async () => {
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(
      fc.bigInt({ min: 10n ** 7n, max: 10n ** 15n }),
      fc.bigInt({ min: 10n ** 7n, max: 10n ** 15n }),
      fc.bigInt({ min: 10n ** 7n, max: 10n ** 15n }),
      fc.integer({ min: 1, max: 10 }),
      async (revertAt, budget, move, maxIterations) => {
        const rules = { direction: "LONG", currentPrice: D18, expectedPrice: D18 + move, priceLimit: D18, collateralAvailable: budget } as const;
        // The first size past each rule, in §4's order of checks: a tie goes to the earlier one.
        const first = [["liquidity", revertAt], ["collateral", budget + 1n], ["expectedPrice", move + 1n]] as const;
        const binding = first.reduce((a, b) => (b[1] < a[1] ? b : a))[0];
        const result = await runExactSearch({ ...rules, cap: budget, worstPrice: 0n, feeRate: 0n, liquidity: 0n, maxCandidates: 64 }, market(revertAt));
        assert.equal(result.kind, "found");
        if (result.kind !== "found" || !result.exact) return;
        assert.equal(limitedBy(result.size, result.trace, exact), binding);
        seen.add(binding);
        // The bisection's reason is a rule that the smallest size it tried above its answer breaks, or why none was.
        const bisected = await runSearch({ ...rules, cap: budget, maxIterations }, market(revertAt));
        if (bisected.kind !== "found") return;
        const reason = limitedBy(bisected.size, bisected.trace, bisection);
        const above = bisected.trace.filter((e) => e.size > bisected.size && e.outcome !== "feasible").map((e) => e.size);
        if (above.length === 0) {
          assert.equal(reason, "collateral");
          return;
        }
        const next = above.reduce((a, b) => (b < a ? b : a));
        const broken = first.filter(([, from]) => next >= from).map(([name]) => name);
        assert.equal(reason, broken[0], `the first rule ${next} breaks`);
      },
    ),
    { numRuns: 400, seed: 7 },
  );
  assert.deepEqual([...seen].sort(), ["collateral", "expectedPrice", "liquidity"]);
});
