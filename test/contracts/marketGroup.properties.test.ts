// Property-based tests of MarketGroup's quotes (eth_call on the embedded EVM) against the independent
// bigint model in poolModel.ts.
import { maxInt256 } from "viem";
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import fc from "fast-check";
import { configOf, MarketGroupHarness, reverted, type QuoteResult } from "./marketGroupHarness.ts";
import {
  applyTrade,
  compareRatios,
  E18,
  initialPool,
  maxFillableSize,
  minus,
  outOfRangeSqrtPrice,
  quoteModel,
  YES_NO,
  type MarketParamsModel,
  type ModelQuote,
  type PoolState,
  type Ratio,
} from "./poolModel.ts";

const RUNS = { numRuns: 100 } as const;

/** A value in [min, max], log-uniform by bit length so that every magnitude is visited. */
function logBigInt(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  const bits = max.toString(2).length;
  return fc.integer({ min: 0, max: bits }).chain((b) => {
    const low = 1n << BigInt(Math.max(b - 1, 0));
    const high = (1n << BigInt(b)) - 1n;
    const lo = low > min ? low : min;
    const hi = high < max ? high : max;
    return lo <= hi ? fc.bigInt({ min: lo, max: hi }) : fc.bigInt({ min, max });
  });
}

/** Any market createMarket accepts: three distinct prices in [1e12, 1e24], liquidity in (0, 2^80], fee <= 10%. */
const marketArb: fc.Arbitrary<MarketParamsModel> = fc
  .record({
    prices: fc.uniqueArray(logBigInt(10n ** 12n, 10n ** 24n), { minLength: 3, maxLength: 3 }),
    liquidity: logBigInt(1n, 1n << 80n),
    feeRate: fc.oneof(fc.constant(0n), fc.constant(100_000n), fc.bigInt({ min: 0n, max: 100_000n })),
  })
  .map(({ prices, liquidity, feeRate }) => {
    const [minPriceD18, priceD18, maxPriceD18] = [...prices].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) as [bigint, bigint, bigint];
    return { minPriceD18, priceD18, maxPriceD18, liquidity, feeRate };
  });

/** Signed sizes for a pool: small ones, every magnitude up to the fillable maximum, sizes at the edge, beyond it. */
function sizeArb(pool: PoolState): fc.Arbitrary<bigint> {
  const side = (direction: 1n | -1n) => {
    const max = maxFillableSize(pool, direction);
    const magnitudes = [fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: max + 1n, max: maxInt256 })];
    if (max > 0n) magnitudes.push(logBigInt(1n, max), fc.bigInt({ min: max > 1000n ? max - 1000n : 1n, max: max + 2n }));
    return fc.oneof(...magnitudes).map((s) => direction * s);
  };
  return fc.oneof(side(1n), side(-1n));
}

/** In-range sizes of one direction below its largest fillable size (so s + 1 fills too), log-uniform, plus the edge. */
function inRangeMagnitudeArb(pool: PoolState, direction: 1n | -1n): fc.Arbitrary<bigint> {
  const max = maxFillableSize(pool, direction);
  return fc.oneof(logBigInt(1n, max - 1n), fc.bigInt({ min: max > 100n ? max - 100n : 1n, max: max - 1n }));
}

function inRange(q: ModelQuote | "out-of-range"): ModelQuote {
  if (q === "out-of-range") throw new Error("the model says out of range");
  return q;
}

const FIXED_MARKETS: Record<string, MarketParamsModel> = {
  "yes/no 0.5 in [0.01, 0.99], 1% fee": YES_NO,
  "extreme bounds [1e-6, 1e6], liquidity 2^80, 10% fee": { priceD18: 3n * E18, minPriceD18: 10n ** 12n, maxPriceD18: 10n ** 24n, liquidity: 1n << 80n, feeRate: 100_000n },
  "numeric 1500 in [1000, 2000], 0.3% fee": { priceD18: 1500n * E18, minPriceD18: 1000n * E18, maxPriceD18: 2000n * E18, liquidity: 10n ** 18n, feeRate: 3_000n },
  // Just above the min price (LONG) or below the max price (SHORT), without fee, the collateral grows by
  // much less than a wei per wei of size: where a difference of two rounded values would drop.
  "near the floor: 0.3000001 in [0.3, 0.9], no fee": { priceD18: 300_000_100_000_000_000n, minPriceD18: 3n * 10n ** 17n, maxPriceD18: 9n * 10n ** 17n, liquidity: 10n ** 20n, feeRate: 0n },
  "near the ceiling: 0.8999999 in [0.1, 0.9], no fee": { priceD18: 899_999_900_000_000_000n, minPriceD18: 10n ** 17n, maxPriceD18: 9n * 10n ** 17n, liquidity: 10n ** 20n, feeRate: 0n },
  "thin liquidity 1e9, no fee": { priceD18: 7n * 10n ** 16n, minPriceD18: 10n ** 16n, maxPriceD18: 9n * 10n ** 17n, liquidity: 10n ** 9n, feeRate: 0n },
};

interface LiveMarket {
  name: string;
  id: bigint;
  pool: PoolState;
  referencePrice: bigint;
}

let h: MarketGroupHarness;
const markets: LiveMarket[] = [];

before(async () => {
  h = await MarketGroupHarness.start();
  for (const [name, params] of Object.entries(FIXED_MARKETS)) {
    const id = await h.createMarket(configOf(params));
    markets.push({ name, id, pool: initialPool(params), referencePrice: params.priceD18 });
  }
  // One market whose pool has moved: its sqrt price no longer comes from a config price.
  const params = FIXED_MARKETS["yes/no 0.5 in [0.01, 0.99], 1% fee"]!;
  const id = await h.createMarket(configOf(params));
  let pool = initialPool(params);
  let referencePrice = params.priceD18;
  for (const size of [23_456_789_012_345_678_901n, -98_765_432_109_876_543_210n, 77n]) {
    const q = inRange(quoteModel(pool, size));
    await h.trade(id, size);
    pool = applyTrade(pool, q);
    referencePrice = q.priceAfter;
  }
  markets.push({ name: "yes/no after three trades", id, pool, referencePrice });
});

const marketCaseArb = () => fc.integer({ min: 0, max: markets.length - 1 }).map((i) => markets[i]!);
const directedCaseArb = () => fc.tuple(marketCaseArb(), fc.constantFrom<1n | -1n>(1n, -1n));
/** A market, a direction and an in-range magnitude below the largest fillable one. */
const inRangeCaseArb = () =>
  directedCaseArb().chain(([m, direction]) => fc.tuple(fc.constant(m), fc.constant(direction), inRangeMagnitudeArb(m.pool, direction)));

/**
 * The contract's quote, or "out-of-range" when it reverts PoolPriceOutOfRange(poolPrice, sqrtMin, sqrtMax) with
 * the sqrt price the model says the trade would reach and the pool's range.
 */
async function contractQuote(id: bigint, pool: PoolState, size: bigint): Promise<QuoteResult | "out-of-range"> {
  try {
    return await h.quote(id, size);
  } catch (error) {
    const revert = await reverted(Promise.reject(error));
    assert.deepEqual(revert, { errorName: "PoolPriceOutOfRange", args: [outOfRangeSqrtPrice(pool, size), pool.sqrtMinX96, pool.sqrtMaxX96] }, `size ${size}`);
    return "out-of-range";
  }
}

function assertEqualsModel(actual: QuoteResult | "out-of-range", model: ModelQuote | "out-of-range", context: string): void {
  if (model === "out-of-range") {
    assert.equal(actual, "out-of-range", context);
    return;
  }
  assert.deepEqual(actual, { requiredCollateral: model.requiredCollateral, fillPrice: model.fillPrice, priceAfter: model.priceAfter }, context);
}

/** value is ceil(exact): value >= exact and value - exact < 1. */
function assertCeil(value: bigint, exact: Ratio, what: string): void {
  assert.ok(compareRatios({ num: value, den: 1n }, exact) >= 0, `${what} ${value} below its exact value`);
  assert.ok(compareRatios(minus(value, exact), { num: 1n, den: 1n }) < 0, `${what} ${value} not the ceiling`);
}

/** value is floor(exact): value <= exact and exact - value < 1. */
function assertFloor(value: bigint, exact: Ratio, what: string): void {
  assert.ok(compareRatios({ num: value, den: 1n }, exact) <= 0, `${what} ${value} above its exact value`);
  assert.ok(compareRatios({ num: value + 1n, den: 1n }, exact) > 0, `${what} ${value} not the floor`);
}

/** requiredCollateral and |priceAfter - reference| of an in-range quote, with their exact values. */
function measures(q: QuoteResult, m: ModelQuote, referencePrice: bigint) {
  const distance = q.priceAfter > referencePrice ? q.priceAfter - referencePrice : referencePrice - q.priceAfter;
  const priceExact = m.exact.priceAfter;
  const distanceExact: Ratio = { num: priceExact.num > referencePrice * priceExact.den ? priceExact.num - referencePrice * priceExact.den : referencePrice * priceExact.den - priceExact.num, den: priceExact.den };
  return { required: q.requiredCollateral, requiredExact: m.exact.requiredCollateral, distance, distanceExact };
}

/** Checks the monotonicity rules between a smaller size a and a larger size b of the same direction. */
function assertMonotone(small: ReturnType<typeof measures>, large: ReturnType<typeof measures>, context: string): void {
  assert.ok(large.required >= small.required, `requiredCollateral dropped: ${context}`);
  assert.ok(large.distance >= small.distance, `|priceAfter - P| dropped: ${context}`);
  const one: Ratio = { num: 1n, den: 1n };
  const gap = (a: Ratio, b: Ratio): Ratio => ({ num: b.num * a.den - a.num * b.den, den: a.den * b.den });
  if (compareRatios(gap(small.requiredExact, large.requiredExact), one) >= 0) {
    assert.ok(large.required > small.required, `requiredCollateral not strictly increasing: ${context}`);
  }
  if (compareRatios(gap(small.distanceExact, large.distanceExact), one) >= 0) {
    assert.ok(large.distance > small.distance, `|priceAfter - P| not strictly increasing: ${context}`);
  }
}

/** Quotes two in-range sizes of one direction, |small| <= |large|, and checks the monotonicity rules. */
async function checkMonotonePair(m: LiveMarket, small: bigint, large: bigint): Promise<void> {
  const measured = async (size: bigint) => measures(await h.quote(m.id, size), inRange(quoteModel(m.pool, size)), m.referencePrice);
  assertMonotone(await measured(small), await measured(large), `${m.name}: ${small} -> ${large}`);
}

describe("MarketGroup properties (eth_call against the bigint model)", () => {
  test("(a) random markets: createMarket's sqrt price and every quote equal the model to the wei, reverts included", async () => {
    await fc.assert(
      fc.asyncProperty(
        marketArb.chain((params) => fc.tuple(fc.constant(params), fc.array(sizeArb(initialPool(params)), { minLength: 3, maxLength: 3 }))),
        async ([params, sizes]) => {
          const id = await h.createMarket(configOf(params));
          const pool = initialPool(params);
          assert.equal(await h.sqrtPriceX96(id), pool.sqrtPriceX96);
          assert.equal(await h.referencePrice(id), params.priceD18);
          for (const size of sizes) assertEqualsModel(await contractQuote(id, pool, size), quoteModel(pool, size), `size ${size}`);
        },
      ),
      RUNS,
    );
  });

  test("(a) fixed and traded markets: requiredCollateral, fillPrice and priceAfter equal the model to the wei", async () => {
    await fc.assert(
      fc.asyncProperty(
        marketCaseArb().chain((m) => fc.tuple(fc.constant(m), sizeArb(m.pool))),
        async ([m, size]) => assertEqualsModel(await contractQuote(m.id, m.pool, size), quoteModel(m.pool, size), `${m.name}, size ${size}`),
      ),
      RUNS,
    );
  });

  test("(b) rounding against the trader: LONG fillPrice/priceAfter are ceilings, SHORT ones floors, requiredCollateral a ceiling of a positive value", async () => {
    await fc.assert(
      fc.asyncProperty(
        inRangeCaseArb(),
        async ([m, direction, s]) => {
          const size = direction * s;
          const q = await h.quote(m.id, size);
          const model = inRange(quoteModel(m.pool, size));
          assert.ok(model.exact.requiredCollateral.num > 0n, "the exact collateral is positive in range");
          assertCeil(q.requiredCollateral, model.exact.requiredCollateral, "requiredCollateral");
          const rounded = direction > 0n ? assertCeil : assertFloor;
          rounded(q.fillPrice, model.exact.fillPrice, "fillPrice");
          rounded(q.priceAfter, model.exact.priceAfter, "priceAfter");
        },
      ),
      RUNS,
    );
  });

  test("(c) neighbouring sizes s and s+1: requiredCollateral and |priceAfter - P| never decrease (strictly increase when the exact values differ by >= 1)", async () => {
    await fc.assert(
      fc.asyncProperty(
        inRangeCaseArb(),
        ([m, direction, s]) => checkMonotonePair(m, direction * s, direction * (s + 1n)),
      ),
      { numRuns: 400 },
    );
  });

  test("(c) random pairs of sizes: requiredCollateral and |priceAfter - P| never decrease in |size| (strictly increase when the exact values differ by >= 1)", async () => {
    await fc.assert(
      fc.asyncProperty(
        directedCaseArb().chain(([m, direction]) =>
          fc.tuple(fc.constant(m), fc.constant(direction), inRangeMagnitudeArb(m.pool, direction), inRangeMagnitudeArb(m.pool, direction)),
        ),
        ([m, direction, s1, s2]) => (s1 <= s2 ? checkMonotonePair(m, direction * s1, direction * s2) : checkMonotonePair(m, direction * s2, direction * s1)),
      ),
      RUNS,
    );
  });

  test("executeTrade sequences: after each trade getSqrtPriceX96, getReferencePrice and later quotes follow the model", async () => {
    await fc.assert(
      fc.asyncProperty(
        marketArb,
        fc.array(fc.tuple(fc.constantFrom<1n | -1n>(1n, -1n), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 4 }),
        async (params, steps) => {
          const id = await h.createMarket(configOf(params));
          let pool = initialPool(params);
          for (const [direction, fraction] of steps) {
            // A size up to the largest fillable one, by a fraction of its bit length.
            const max = maxFillableSize(pool, direction);
            if (max === 0n) continue;
            const size = direction * (1n + (max - 1n) / (1n << BigInt(Math.floor((1 - fraction) * max.toString(2).length))));
            const model = inRange(quoteModel(pool, size));
            const { result } = await h.simulateTrade(id, size);
            assert.deepEqual(result, [model.requiredCollateral, model.fillPrice, model.priceAfter]);
            await h.trade(id, size);
            pool = applyTrade(pool, model);
            assert.equal(await h.sqrtPriceX96(id), pool.sqrtPriceX96);
            assert.equal(await h.referencePrice(id), model.priceAfter);
          }
          for (const size of [1n, -1n, 10n ** 18n, -(10n ** 18n)]) assertEqualsModel(await contractQuote(id, pool, size), quoteModel(pool, size), `after trades, size ${size}`);
        },
      ),
      RUNS,
    );
  });
});
