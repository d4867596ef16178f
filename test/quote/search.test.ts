import { maxInt256 } from "viem";
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { D18 } from "../../src/quote/fixedPoint.ts";
import {
  classifyQuote,
  computeCap,
  inferDirection,
  runSearch,
  type Direction,
  type Evaluation,
  type Evaluator,
  type SearchPoint,
  type Outcome,
  type SearchInput,
  type SearchResult,
} from "../../src/quote/search.ts";

// A fake market: a pure bigint function of the signed size. The price moves by slope per unit of size
// (rounded against the trader), the collateral costs cost per unit (rounded up), and sizes past the
// liquidity, or that would push the price to zero, revert with PoolPriceOutOfRange.
type FakeMarket = {
  current: bigint;
  slope?: [bigint, bigint];
  cost?: [bigint, bigint];
  liquidity?: bigint;
};

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const abs = (x: bigint) => (x < 0n ? -x : x);
const poolRevert: Evaluation = { kind: "reverted", data: "0x7ae8b8b5", errorName: "PoolPriceOutOfRange" };

function fakeMarket(m: FakeMarket): (signedSize: bigint) => Evaluation {
  const [slopeNum, slopeDen] = m.slope ?? [1n, 1n];
  const [costNum, costDen] = m.cost ?? [1n, 1n];
  return (signedSize) => {
    const size = abs(signedSize);
    if (m.liquidity !== undefined && size > m.liquidity) return poolRevert;
    const move = ceilDiv(size * slopeNum, slopeDen);
    const priceAfter = signedSize >= 0n ? m.current + move : m.current - move;
    if (priceAfter <= 0n) return poolRevert;
    const fillPrice = (m.current + priceAfter) / 2n;
    return { kind: "quoted", quote: { requiredCollateral: ceilDiv(size * costNum, costDen), fillPrice, priceAfter } };
  };
}

/** Counts and records calls to an evaluator. */
type RecordedCandidate = { size: bigint; evaluation: Evaluation; point: SearchPoint };

function recording(evaluate: Evaluator): Evaluator & { calls: RecordedCandidate[] } {
  const calls: RecordedCandidate[] = [];
  const wrapped = async (size: bigint, point: SearchPoint) => {
    const evaluation = await evaluate(size, point);
    calls.push({ size, evaluation, point });
    return evaluation;
  };
  return Object.assign(wrapped, { calls });
}

const BIG = 10n ** 30n;

function input(overrides: Partial<SearchInput> & Pick<SearchInput, "direction" | "expectedPrice">): SearchInput {
  return { cap: 1024n, maxIterations: 10, priceLimit: 1000n, collateralAvailable: BIG, ...overrides };
}

const sizesOf = (result: SearchResult) => result.trace.map((t) => t.size);
const outcomesOf = (result: SearchResult) => result.trace.map((t) => t.outcome);

test("§3.8 direction: LONG when expectedPrice > currentPrice, else SHORT", () => {
  assert.equal(inferDirection(1001n, 1000n), "LONG");
  assert.equal(inferDirection(999n, 1000n), "SHORT");
  assert.equal(inferDirection(1000n, 1000n), "SHORT");
});

test("§4 cap = collateralAvailable * 10^18 / currentPriceD18 (integer division)", () => {
  assert.equal(computeCap(D18, D18 / 2n), 2n * D18);
  assert.equal(computeCap(10n, 3n * D18), 3n);
  assert.equal(computeCap(1n, 2n * D18), 0n);
  assert.equal(computeCap(7n, 1n), 7n * D18);
});

test("§4 cap is computed at full precision, then capped at 2^255-1", () => {
  assert.equal(computeCap(2n ** 256n - 1n, 1n), maxInt256);
  assert.equal(computeCap(2n ** 256n - 1n, D18), maxInt256);
  assert.equal(computeCap(2n ** 255n - 1n, D18), maxInt256);
  assert.equal(computeCap(2n ** 255n - 2n, D18), 2n ** 255n - 2n);
  assert.throws(() => computeCap(1n, 0n), RangeError);
});

const classifyCases: [string, SearchInput, [bigint, bigint, Outcome][]][] = [
  [
    "LONG: priceAfter > expectedPrice is beyond, priceAfter <= priceLimit is short of the limit",
    input({ direction: "LONG", expectedPrice: 1300n, priceLimit: 1100n, collateralAvailable: 50n }),
    [[51n, 1400n, "over-budget"], [50n, 1301n, "beyond-expected"], [50n, 1300n, "feasible"], [50n, 1101n, "feasible"], [50n, 1100n, "short-of-limit"]],
  ],
  [
    "SHORT: priceAfter < expectedPrice is beyond, priceAfter >= priceLimit is short of the limit",
    input({ direction: "SHORT", expectedPrice: 700n, priceLimit: 900n, collateralAvailable: 50n }),
    [[51n, 600n, "over-budget"], [50n, 699n, "beyond-expected"], [50n, 700n, "feasible"], [50n, 899n, "feasible"], [50n, 900n, "short-of-limit"]],
  ],
];
for (const [rule, search, cases] of classifyCases) {
  test(`§4 classify in order, over-budget first; ${rule}`, () => {
    for (const [requiredCollateral, priceAfter, outcome] of cases) {
      assert.equal(classifyQuote(search, { requiredCollateral, fillPrice: 0n, priceAfter }), outcome, `${requiredCollateral} ${priceAfter}`);
    }
  });
}

test("§4 LONG: bisection finds the largest size whose priceAfter <= expectedPrice", async () => {
  const result = await runSearch(input({ direction: "LONG", expectedPrice: 1300n }), fakeMarket({ current: 1000n }));
  assert.equal(result.kind, "found");
  assert.ok(result.kind === "found");
  assert.equal(result.size, 300n);
  assert.deepEqual(result.quote, { requiredCollateral: 300n, fillPrice: 1150n, priceAfter: 1300n });
  assert.deepEqual(sizesOf(result), [512n, 256n, 384n, 320n, 288n, 304n, 296n, 300n, 302n, 301n]);
  assert.equal(result.iterations, 10);
});

test("each candidate comes with the point it is the midpoint of, so a searcher on chain can resume there", async () => {
  const evaluate = recording(fakeMarket({ current: 1000n }));
  await runSearch(input({ direction: "SHORT", expectedPrice: 700n }), evaluate);
  assert.equal(evaluate.calls.length, 10);
  evaluate.calls.forEach(({ size, point }, index) => {
    assert.equal(point.iteration, index);
    assert.equal(-size, (point.low + point.high) / 2n, `candidate ${index}`);
  });
  // Bounds only narrow: each point lies within the previous one.
  for (let i = 1; i < evaluate.calls.length; i++) {
    const [previous, current] = [evaluate.calls[i - 1]!.point, evaluate.calls[i]!.point];
    assert.ok(current.low >= previous.low && current.high <= previous.high);
  }
});

test("§4 SHORT: candidates are quoted as -mid, the result size is unsigned", async () => {
  const evaluate = recording(fakeMarket({ current: 1000n }));
  const result = await runSearch(input({ direction: "SHORT", expectedPrice: 700n }), evaluate);
  assert.ok(result.kind === "found");
  assert.equal(result.size, 300n);
  assert.equal(result.quote.priceAfter, 700n);
  assert.ok(evaluate.calls.every((c) => c.size < 0n));
  assert.deepEqual(sizesOf(result), evaluate.calls.map((c) => c.size));
  assert.equal(sizesOf(result)[0], -512n);
});

test("§4 too small to pass priceLimit sends the search up (LONG, priceLimit beyond the current price)", async () => {
  const result = await runSearch(
    input({ direction: "LONG", expectedPrice: 1800n, priceLimit: 1600n }),
    fakeMarket({ current: 1000n }),
  );
  assert.ok(result.kind === "found");
  assert.equal(result.size, 800n);
  assert.deepEqual(result.trace[0], {
    size: 512n,
    outcome: "short-of-limit",
    quote: { requiredCollateral: 512n, fillPrice: 1256n, priceAfter: 1512n },
  });
  assert.equal(result.trace[1]?.size, 768n);
  assert.equal(result.trace[1]?.outcome, "feasible");
});

test("§4 too small to pass priceLimit sends the search up (SHORT, priceLimit below the current price)", async () => {
  const result = await runSearch(
    input({ direction: "SHORT", expectedPrice: 200n, priceLimit: 400n }),
    fakeMarket({ current: 1000n }),
  );
  assert.ok(result.kind === "found");
  assert.equal(result.size, 800n);
  assert.deepEqual(outcomesOf(result).slice(0, 2), ["short-of-limit", "feasible"]);
});

test("§4 a size that does not move the price past the default priceLimit (= current price) is short of the limit", async () => {
  // The price moves by 1 per 1000 units, rounded up: size 0 < s <= 1000 moves it by 1.
  const result = await runSearch(
    input({ direction: "LONG", cap: 4096n, expectedPrice: 1000n + 1n, priceLimit: 1000n }),
    fakeMarket({ current: 1000n, slope: [1n, 1000n] }),
  );
  assert.ok(result.kind === "found");
  assert.ok(result.size <= 1000n);
  // A flat market never passes the limit: every candidate is short of it and the search climbs.
  const flat = await runSearch(input({ direction: "LONG", expectedPrice: 2000n }), fakeMarket({ current: 1000n, slope: [0n, 1n] }));
  assert.equal(flat.kind, "no-valid-size");
  assert.deepEqual(sizesOf(flat), [512n, 768n, 896n, 960n, 992n, 1008n, 1016n, 1020n, 1022n, 1023n]);
  assert.ok(outcomesOf(flat).every((o) => o === "short-of-limit"));
});

test("§4 requiredCollateral > collateralAvailable is over budget and moves the high bound down", async () => {
  const result = await runSearch(
    input({ direction: "LONG", expectedPrice: 5000n, collateralAvailable: 500n }),
    fakeMarket({ current: 1000n, cost: [2n, 1n] }),
  );
  assert.ok(result.kind === "found");
  assert.equal(result.size, 250n);
  assert.equal(result.quote.requiredCollateral, 500n);
  assert.equal(result.trace[0]?.outcome, "over-budget");
});

test("§4 priceAfter beyond expectedPrice moves the high bound down", async () => {
  const result = await runSearch(input({ direction: "LONG", expectedPrice: 1100n }), fakeMarket({ current: 1000n }));
  assert.ok(result.kind === "found");
  assert.equal(result.size, 100n);
  assert.deepEqual(outcomesOf(result).slice(0, 3), ["beyond-expected", "beyond-expected", "beyond-expected"]);
});

test("§4 a generic revert (PoolPriceOutOfRange, Panic, undecodable) means the size is too large", async () => {
  const reverts: Evaluation[] = [
    poolRevert,
    { kind: "reverted", data: "0x4e487b710000000000000000000000000000000000000000000000000000000000000011", errorName: "Panic" },
    { kind: "reverted", data: "0x" },
    { kind: "reverted", data: "0xdeadbeef" },
  ];
  for (const revert of reverts) {
    const market = fakeMarket({ current: 1000n });
    const evaluate = (size: bigint) => (abs(size) > 200n ? revert : market(size));
    const result = await runSearch(input({ direction: "LONG", expectedPrice: 5000n }), evaluate);
    assert.ok(result.kind === "found");
    assert.equal(result.size, 200n);
    assert.deepEqual(result.trace[0], { size: 512n, outcome: "reverted", revert: revert.kind === "reverted" ? (revert.errorName ?? revert.data) : "" });
  }
});

for (const name of ["MarketSettled", "EpochSettled"]) {
  test(`§4 a ${name}() revert stops the search at once: "Market is settled"`, async () => {
    const market = fakeMarket({ current: 1000n });
    let calls = 0;
    const evaluate = (size: bigint): Evaluation => {
      calls++;
      return calls === 2 ? { kind: "reverted", data: "0x01020304", errorName: name } : market(size);
    };
    const result = await runSearch(input({ direction: "LONG", expectedPrice: 5000n }), evaluate);
    assert.deepEqual(result, {
      kind: "market-settled",
      revertName: name,
      iterations: 2,
      trace: [
        { size: 512n, outcome: "feasible", quote: { requiredCollateral: 512n, fillPrice: 1256n, priceAfter: 1512n } },
        { size: 768n, outcome: "reverted", revert: name },
      ],
    });
    assert.equal(calls, 2);
  });
}

for (const name of ["InvalidMarket", "ExpiredMarket", "MarketNotStarted"]) {
  test(`§4 an ${name}() revert stops the search at once: no valid size, naming the error`, async () => {
    let calls = 0;
    const evaluate = (): Evaluation => {
      calls++;
      return { kind: "reverted", data: "0x01020304", errorName: name };
    };
    const result = await runSearch(input({ direction: "SHORT", expectedPrice: 500n }), evaluate);
    assert.deepEqual(result, {
      kind: "no-valid-size",
      revertName: name,
      iterations: 1,
      trace: [{ size: -512n, outcome: "reverted", revert: name }],
    });
    assert.equal(calls, 1);
  });
}

test("§4 the search stops early when high - low <= 1", async () => {
  const two = await runSearch(input({ direction: "LONG", cap: 2n, expectedPrice: 5000n }), fakeMarket({ current: 1000n }));
  assert.ok(two.kind === "found");
  assert.equal(two.size, 1n);
  assert.equal(two.iterations, 1);
  const one = await runSearch(input({ direction: "LONG", cap: 1n, expectedPrice: 5000n }), fakeMarket({ current: 1000n }));
  assert.deepEqual(one, { kind: "no-valid-size", iterations: 0, trace: [] });
  // Converges after 3 candidates on a cap of 8 although 10 are allowed.
  const eight = await runSearch(input({ direction: "LONG", cap: 8n, expectedPrice: 5000n }), fakeMarket({ current: 1000n }));
  assert.ok(eight.kind === "found");
  assert.deepEqual(sizesOf(eight), [4n, 6n, 7n]);
  assert.equal(eight.size, 7n);
});

test("§5 cap = 0: no candidate is quoted and the answer is no valid size", async () => {
  const evaluate = recording(fakeMarket({ current: 1000n }));
  const result = await runSearch(input({ direction: "LONG", cap: 0n, expectedPrice: 5000n }), evaluate);
  assert.deepEqual(result, { kind: "no-valid-size", iterations: 0, trace: [] });
  assert.equal(evaluate.calls.length, 0);
});

test("§4 maxIterations 1: exactly one candidate, cap / 2", async () => {
  const result = await runSearch(input({ direction: "LONG", cap: 1001n, maxIterations: 1, expectedPrice: 5000n }), fakeMarket({ current: 1000n }));
  assert.ok(result.kind === "found");
  assert.equal(result.size, 500n);
  assert.equal(result.iterations, 1);
});

test("§4 maxIterations 10: at most 10 candidates on a huge cap; iterations counts quoted candidates", async () => {
  const evaluate = recording(fakeMarket({ current: D18 }));
  const result = await runSearch(input({ direction: "LONG", cap: maxInt256, expectedPrice: 2n * D18, priceLimit: D18 }), evaluate);
  assert.equal(evaluate.calls.length, 10);
  assert.equal(result.iterations, 10);
  assert.equal(result.trace.length, 10);
  assert.equal(result.trace[0]?.size, maxInt256 / 2n);
});

test("§6 an evaluator that throws (transport failure) rejects runSearch; it never becomes an outcome", async () => {
  const failure = new Error("connect ECONNREFUSED");
  const market = fakeMarket({ current: 1000n });
  let calls = 0;
  const throwingSync: Evaluator = (size) => {
    if (++calls === 3) throw failure;
    return market(size);
  };
  await assert.rejects(runSearch(input({ direction: "LONG", expectedPrice: 1300n }), throwingSync), failure);
  const throwingAsync: Evaluator = async () => Promise.reject(failure);
  await assert.rejects(runSearch(input({ direction: "SHORT", expectedPrice: 700n }), throwingAsync), failure);
});

test("§5 no best, a revert and no price rejection: insufficient liquidity", async () => {
  const allRevert = await runSearch(input({ direction: "LONG", expectedPrice: 5000n }), () => poolRevert);
  assert.equal(allRevert.kind, "insufficient-liquidity");
  assert.equal(allRevert.iterations, 10);
  // Over-budget candidates are not price rejections.
  const market = fakeMarket({ current: 1000n, cost: [10n, 1n] });
  const revertThenOverBudget = (size: bigint) => (abs(size) > 500n ? poolRevert : market(size));
  const mixed = await runSearch(input({ direction: "LONG", expectedPrice: 5000n, collateralAvailable: 1n }), revertThenOverBudget);
  assert.deepEqual(new Set(outcomesOf(mixed)), new Set(["reverted", "over-budget"]));
  assert.equal(mixed.kind, "insufficient-liquidity");
});

test("§5 no best and a price rejection (beyond expectedPrice or short of priceLimit): no valid size", async () => {
  // Reverts above 512, beyond expectedPrice below: no size fits.
  const market = fakeMarket({ current: 1000n, slope: [1000n, 1n] });
  const beyond = await runSearch(input({ direction: "LONG", expectedPrice: 1001n }), (s) => (abs(s) >= 512n ? poolRevert : market(s)));
  assert.deepEqual(new Set(outcomesOf(beyond)), new Set(["reverted", "beyond-expected"]));
  assert.equal(beyond.kind, "no-valid-size");
  // Reverts above 700, short of a far priceLimit below.
  const flat = fakeMarket({ current: 1000n });
  const short = await runSearch(
    input({ direction: "LONG", expectedPrice: 5000n, priceLimit: 1900n }),
    (s) => (abs(s) > 700n ? poolRevert : flat(s)),
  );
  assert.deepEqual(new Set(outcomesOf(short)), new Set(["reverted", "short-of-limit"]));
  assert.equal(short.kind, "no-valid-size");
  // Only over budget, no revert.
  const overBudget = await runSearch(input({ direction: "LONG", expectedPrice: 5000n, collateralAvailable: 0n }), flat);
  assert.equal(overBudget.kind, "no-valid-size");
  assert.ok(!("revertName" in overBudget));
});

test("§5 a best found wins over earlier reverts: the answer is the size that fills", async () => {
  const market = fakeMarket({ current: 1000n, liquidity: 10n });
  const result = await runSearch(input({ direction: "LONG", expectedPrice: 5000n }), market);
  assert.ok(result.kind === "found");
  assert.equal(result.size, 10n);
});

// ---- properties over monotone fake markets ----

const marketCase = fc
  .record({
    direction: fc.constantFrom<Direction>("LONG", "SHORT"),
    current: fc.bigInt({ min: 1n, max: 10n ** 6n }),
    slopeNum: fc.bigInt({ min: 0n, max: 5n }),
    slopeDen: fc.bigInt({ min: 1n, max: 5n }),
    costNum: fc.bigInt({ min: 0n, max: 5n }),
    costDen: fc.bigInt({ min: 1n, max: 5n }),
    liquidity: fc.option(fc.bigInt({ min: 0n, max: 1200n }), { nil: undefined }),
    expectedMove: fc.bigInt({ min: 1n, max: 3000n }),
    limitOffset: fc.bigInt({ min: -200n, max: 2000n }),
    collateral: fc.bigInt({ min: 0n, max: 5000n }),
  })
  .map((c) => {
    const sign = c.direction === "LONG" ? 1n : -1n;
    const market = fakeMarket({ current: c.current, slope: [c.slopeNum, c.slopeDen], cost: [c.costNum, c.costDen], liquidity: c.liquidity });
    return {
      ...c,
      market,
      expectedPrice: c.current + sign * c.expectedMove,
      priceLimit: c.current + sign * c.limitOffset,
    };
  });

/** Feasibility of an unsigned size, written directly from the price limit rules (independent of classifyQuote). */
function feasible(c: { direction: Direction; market: (s: bigint) => Evaluation; expectedPrice: bigint; priceLimit: bigint; collateral: bigint }, size: bigint): boolean {
  const e = c.market(c.direction === "LONG" ? size : -size);
  if (e.kind !== "quoted") return false;
  const p = e.quote.priceAfter;
  const withinPrices = c.direction === "LONG" ? c.priceLimit < p && p <= c.expectedPrice : c.expectedPrice <= p && p < c.priceLimit;
  return withinPrices && e.quote.requiredCollateral <= c.collateral;
}

test("§4 property: on a monotone market with cap <= 1024 and 10 iterations, the result is the largest feasible size in (0, cap)", async () => {
  await fc.assert(
    fc.asyncProperty(marketCase, fc.bigInt({ min: 0n, max: 1024n }), async (c, cap) => {
      const result = await runSearch(
        { direction: c.direction, cap, maxIterations: 10, expectedPrice: c.expectedPrice, priceLimit: c.priceLimit, collateralAvailable: c.collateral },
        c.market,
      );
      let largest: bigint | undefined;
      for (let s = cap - 1n; s >= 1n; s--) {
        if (feasible(c, s)) {
          largest = s;
          break;
        }
      }
      if (largest === undefined) {
        assert.notEqual(result.kind, "found");
      } else {
        assert.ok(result.kind === "found", `expected ${largest}, got ${result.kind}`);
        assert.equal(result.size, largest);
      }
    }),
    { numRuns: 400 },
  );
});

test("§4/§5 property: on any cap and iteration count, the result is never infeasible, is the largest feasible candidate quoted, and the failure kind follows §5", async () => {
  await fc.assert(
    fc.asyncProperty(marketCase, fc.bigInt({ min: 0n, max: 10n ** 8n }), fc.integer({ min: 1, max: 10 }), async (c, cap, maxIterations) => {
      const result = await runSearch(
        { direction: c.direction, cap, maxIterations, expectedPrice: c.expectedPrice, priceLimit: c.priceLimit, collateralAvailable: c.collateral },
        c.market,
      );
      assert.ok(result.iterations <= maxIterations);
      assert.equal(result.iterations, result.trace.length);
      const quotedFeasible = result.trace.filter((t) => feasible(c, abs(t.size))).map((t) => abs(t.size));
      assert.deepEqual(
        result.trace.filter((t) => t.outcome === "feasible").map((t) => abs(t.size)),
        quotedFeasible,
      );
      if (result.kind === "found") {
        assert.ok(feasible(c, result.size));
        assert.equal(result.size, quotedFeasible.reduce((a, b) => (a > b ? a : b)));
        return;
      }
      assert.equal(quotedFeasible.length, 0);
      const outcomes = new Set(outcomesOf(result));
      const insufficient = outcomes.has("reverted") && !outcomes.has("beyond-expected") && !outcomes.has("short-of-limit");
      assert.equal(result.kind, insufficient ? "insufficient-liquidity" : "no-valid-size");
    }),
    { numRuns: 400 },
  );
});
