// The exact search's rule is written twice: in TypeScript (ExactSearchRule of src/quote/exactRule.ts), which
// decides every answer, and in Solidity (the library contracts/ExactSearchRule.sol), which lets the searcher quote the
// same candidates on chain. Both are asked the same questions here, on random states that reach every bound (sizes
// to 2^255-1, prices and budgets to 2^256-1, streaks of any length, a price edge or none), and must answer alike to
// the wei. So is the price edge, a fact of the rule's input: the QuoterV2 call that measures it
// (src/chain/searchers/priceEdge.ts, contracts/PriceEdge.sol) and the size read from its answer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encodeAbiParameters, getAbiItem, maxInt256, maxUint256, zeroAddress, type Hex } from "viem";
import { exactStateArgs } from "../../src/chain/searchers/searcher.ts";
import { interpretEdge, planEdge } from "../../src/chain/searchers/priceEdge.ts";
import { exactRuleHarnessAbi, exactRuleHarnessBytecode, marketGroupAbi } from "../../src/generated/contracts.ts";
import { ExactSearchRule } from "../../src/quote/exactRule.ts";
import { START, type EdgeKnowledge, type ExactRuleInput, type ExactState, type ExactStep, type Known } from "../../src/quote/exactState.ts";
import { pureHarness } from "../support/pureHarness.ts";

const DUST = 10n ** 6n;
const D18 = 10n ** 18n;

const onChain = pureHarness(exactRuleHarnessAbi, exactRuleHarnessBytecode);

/** Values spread over every magnitude up to `max` (log-uniform), with the bounds themselves. */
function magnitude(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  const bits = max.toString(2).length;
  return fc.oneof(
    fc.integer({ min: 0, max: bits }).chain((b) => fc.bigInt({ min: 0n, max: (1n << BigInt(b)) - 1n })).map((v) => (v < min ? min : v > max ? max : v)),
    fc.constantFrom(min, min + 1n, max - 1n, max),
  );
}

const size = magnitude(DUST, maxInt256);
const uint = magnitude(0n, maxUint256);
const price = fc.oneof(magnitude(1n, maxUint256), fc.bigInt({ min: 10n ** 16n, max: 10n ** 22n }));

const quoteOf = fc.record({ requiredCollateral: uint, fillPrice: fc.oneof(uint, price), priceAfter: fc.oneof(uint, price) });
const side = (at: bigint, revertAllowed: boolean): fc.Arbitrary<Known> =>
  revertAllowed
    ? fc.oneof(
        quoteOf.map((quote) => ({ size: at, quote })),
        fc.option(fc.oneof(uint, magnitude(0n, 10n ** 41n)), { nil: undefined }).map((rangeEnd) => (rangeEnd === undefined ? { size: at } : { size: at, rangeEnd })),
      )
    : quoteOf.map((quote) => ({ size: at, quote }));

/** The price edge as the search may know it: not asked, asked and none, or a size anywhere or within a few wei of a side. */
const edgeOf = (near: readonly bigint[]): fc.Arbitrary<EdgeKnowledge> => {
  const close =
    near.length === 0
      ? size
      : fc.tuple(fc.constantFrom(...near), fc.integer({ min: -40, max: 40 })).map(([at, d]) => {
          const e = at + BigInt(d);
          return e < 0n ? 0n : e > maxInt256 ? maxInt256 : e;
        });
  return fc.oneof(
    { arbitrary: fc.constant<EdgeKnowledge>({ asked: false }), weight: 1 },
    { arbitrary: fc.constant<EdgeKnowledge>({ asked: true }), weight: 3 },
    { arbitrary: fc.oneof(magnitude(0n, maxInt256), close, close).map((at): EdgeKnowledge => ({ asked: true, size: at })), weight: 4 },
  );
};

/** A state the search can be in: sides in order, a streak whose sign matches a side that exists, a prior quote. */
const randomState: fc.Arbitrary<ExactState> = fc.oneof(
  fc.constant<ExactState>(START),
  fc.constant<ExactState>({ ...START, edge: { asked: true } }),
  fc
    .record({
      shape: fc.constantFrom("low", "high", "both"),
      a: size,
      b: size,
      streak: fc.integer({ min: 1, max: 40 }),
      last: fc.constantFrom("below", "above"),
      quoted: fc.integer({ min: 1, max: 40 }),
      prior: fc.option(fc.tuple(size, quoteOf), { nil: undefined }),
    })
    .chain(({ shape, a, b, streak, last, quoted, prior }) => {
      let [lowSize, highSize] = a < b ? [a, b] : [b, a];
      if (lowSize === highSize) highSize = lowSize + 1n;
      const low = shape === "high" ? fc.constant(undefined) : side(lowSize, false);
      const high = shape === "low" ? fc.constant(undefined) : side(shape === "high" ? a : highSize, true);
      const signed = (last === "below" && shape !== "high") || shape === "low" ? streak : -streak;
      return fc.record({ low, high, edge: edgeOf([lowSize, highSize]) }).map(({ low, high, edge }) => ({
        ...(low ? { low } : {}),
        ...(high ? { high } : {}),
        ...(prior ? { prior: { size: prior[0], quote: prior[1] } } : {}),
        streak: signed,
        quoted,
        edge,
      }));
    }),
);

const randomInput: fc.Arbitrary<ExactRuleInput> = fc.record({
  direction: fc.constantFrom("LONG" as const, "SHORT" as const),
  cap: magnitude(0n, maxInt256),
  currentPrice: price,
  expectedPrice: price,
  collateralAvailable: fc.oneof(uint, fc.bigInt({ min: 1n, max: 10n ** 30n })),
  worstPrice: fc.oneof(uint, price),
  feeRate: fc.oneof(fc.constantFrom(0n, 500n, 3000n, 10_000n, 999_999n, 1_000_000n), fc.bigInt({ min: 0n, max: 2n ** 24n - 1n })),
  liquidity: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 2n ** 128n - 1n }), fc.bigInt({ min: 10n ** 14n, max: 10n ** 26n })),
});

/**
 * A search as it stands on a market like the demo's: a price near 0.5 or 1000, quotes whose prices, fills and
 * requirements follow a pool's curve (the loss model's ground), a bracket that may have narrowed to a few wei. The loss
 * model, the secant and the narrow bracket are all asked here; random states rarely reach them.
 */
const marketLike: fc.Arbitrary<readonly [ExactRuleInput, ExactState]> = fc
  .record({
    long: fc.boolean(),
    deep: fc.boolean(),
    budget: magnitude(10n ** 9n, 10n ** 27n),
    liquidity: fc.bigInt({ min: 10n ** 14n, max: 10n ** 26n }),
    fractions: fc.array(fc.bigInt({ min: 1n, max: 2000n }), { minLength: 1, maxLength: 3 }),
    apart: fc.oneof(fc.bigInt({ min: 1n, max: 40n }), magnitude(1n, 10n ** 20n)),
    streak: fc.integer({ min: 1, max: 6 }),
    edge: fc.boolean(),
  })
  .map(({ long, deep, budget, liquidity, fractions, apart, streak, edge }) => {
    const current = deep ? 5n * 10n ** 17n : 1000n * D18;
    const worst = long ? (current * 8n) / 10n : (current * 12n) / 10n;
    const cap = (budget * D18) / current;
    // A LONG of s moves 1/sqrt(p) down by s / L; its requirement is the loss s * (fill - min), a SHORT's s * (max - fill).
    const quoteAt = (s: bigint) => {
      const move = (s * D18) / liquidity;
      const capped = move < D18 ? move : D18 - 1n;
      const priceAfter = long ? current + (current * move) / D18 : current - (current * capped) / (2n * D18);
      const fill = (current + priceAfter) / 2n;
      const margin = long ? fill - worst : worst - fill;
      return { requiredCollateral: (s * (margin > 0n ? margin : 1n)) / D18 + 2n, fillPrice: fill, priceAfter: priceAfter > 0n ? priceAfter : 1n };
    };
    const sizes = fractions.map((f) => (cap * f) / 1000n + DUST).sort((x, y) => (x < y ? -1 : 1));
    const lowSize = sizes[0]!;
    const highSize = lowSize + apart;
    const state: ExactState = {
      low: { size: lowSize, quote: quoteAt(lowSize) },
      high: { size: highSize, quote: quoteAt(highSize) },
      ...(sizes.length > 1 ? { prior: { size: sizes.at(-1)!, quote: quoteAt(sizes.at(-1)!) } } : {}),
      streak: streak % 2 === 0 ? -streak : streak,
      quoted: 3,
      edge: edge ? { asked: true, size: highSize + 3n } : { asked: true },
    };
    const input: ExactRuleInput = { direction: long ? "LONG" : "SHORT", cap, currentPrice: current, expectedPrice: long ? current * 2n : current / 2n, collateralAvailable: budget, worstPrice: worst, feeRate: 3000n, liquidity };
    return [input, state] as const;
  });

const stateTuple = exactStateArgs;
const inputTuple = (i: ExactRuleInput) => ({
  isLong: i.direction === "LONG",
  cap: i.cap,
  currentPrice: i.currentPrice,
  expectedPrice: i.expectedPrice,
  collateralAvailable: i.collateralAvailable,
  worstPrice: i.worstPrice,
  feeRate: i.feeRate,
  liquidity: i.liquidity,
  // Worked out by the harness's own prepare, as the searcher does.
  edgeFirst: false,
  hasPoolBudget: false,
  poolBudget: 0n,
  hasCurrentRoot: false,
  currentRoot: 0n,
});

/** The Solidity rule's next step, as the TypeScript's. */
async function nextOnChain(i: ExactRuleInput, s: ExactState): Promise<ExactStep> {
  const [readEdge, size, guided] = (await onChain("next", [inputTuple(i), stateTuple(s)])) as [boolean, bigint, boolean];
  return readEdge ? { kind: "edge" } : { kind: "quote", size, guided };
}

describe("the exact search's rule: TypeScript and Solidity choose alike", () => {
  test("4,000 random states at every magnitude (the price edge known, unknown or not asked yet): the same next step, and the same closed state", async () => {
    const seen = { guided: 0, unguided: 0, first: 0, dust: 0, edge: 0 };
    await fc.assert(
      fc.asyncProperty(randomInput, randomState, async (i, s) => {
        const closed = ExactSearchRule.closed(s);
        assert.equal(await onChain("closed", [stateTuple(s)]), closed);
        if (closed) return;
        const expected = ExactSearchRule.next(ExactSearchRule.prepare(i), s);
        assert.deepEqual(await nextOnChain(i, s), expected);
        if (expected.kind === "edge") seen.edge++;
        else if (s.quoted === 0) seen.first++;
        else if (s.low === undefined && expected.size === DUST) seen.dust++;
        else if (expected.guided) seen.guided++;
        else seen.unguided++;
      }),
      { numRuns: 4000, seed: 41 },
    );
    // The questions must reach every way the rule chooses, not only its first candidate.
    assert.ok(seen.guided >= 300 && seen.unguided >= 100 && seen.edge >= 100 && seen.first >= 100, JSON.stringify(seen));
    // Nothing fills yet and little is left above DUST: both quote DUST itself.
    assert.ok(seen.dust >= 20, JSON.stringify(seen));
  });

  test("2,000 searches as they stand on markets like the demo's (the loss model, the secant, narrow brackets): the same next step", async () => {
    const sizes = new Set<bigint>();
    await fc.assert(
      fc.asyncProperty(marketLike, async ([i, s]) => {
        if (ExactSearchRule.closed(s)) return;
        const expected = ExactSearchRule.next(ExactSearchRule.prepare(i), s);
        assert.deepEqual(await nextOnChain(i, s), expected);
        if (expected.kind === "quote") sizes.add(expected.size - s.low!.size);
      }),
      { numRuns: 2000, seed: 45 },
    );
    assert.ok(sizes.size >= 500, `${sizes.size} distinct steps`);
  });

  test("1,000 first steps on pools like the demo's (the pool's range guesses the budget's edge, and whether the price binds first): the same step", async () => {
    const seen = { edgeFirst: 0, budgetFirst: 0, guessed: 0 };
    const first = fc
      .record({
        long: fc.boolean(),
        deep: fc.boolean(),
        fee: fc.constantFrom(500n, 3000n, 10_000n),
        liquidity: magnitude(10n ** 12n, 10n ** 27n),
        budget: magnitude(10n ** 7n, 10n ** 28n),
        distance: fc.bigInt({ min: 1n, max: 9_000n }),
        edge: fc.oneof({ arbitrary: fc.constant<bigint | undefined>(undefined), weight: 4 }, { arbitrary: magnitude(DUST, 10n ** 30n), weight: 1 }),
      })
      .map(({ long, deep, fee, liquidity, budget, distance, edge }) => {
        const current = deep ? 5n * 10n ** 17n - 1n : 1000n * D18 - 1n;
        const input: ExactRuleInput = {
          direction: long ? "LONG" : "SHORT",
          cap: (budget * D18) / current,
          currentPrice: current,
          expectedPrice: long ? current + (current * distance) / 10_000n : current - (current * distance) / 10_000n,
          collateralAvailable: budget,
          worstPrice: long ? current / 5n : current * 2n,
          feeRate: fee,
          liquidity,
        };
        const state: ExactState = edge === undefined ? START : { ...START, edge: { asked: true, size: edge } };
        return [input, state] as const;
      });
    await fc.assert(
      fc.asyncProperty(first, async ([i, s]) => {
        const prepared = ExactSearchRule.prepare(i);
        const expected = ExactSearchRule.next(prepared, s);
        assert.deepEqual(await nextOnChain(i, s), expected);
        if (!s.edge.asked) seen[prepared.edgeFirst ? "edgeFirst" : "budgetFirst"]++;
        if (expected.kind === "quote" && prepared.poolBudget !== undefined && expected.size === prepared.poolBudget - 1n) seen.guessed++;
      }),
      { numRuns: 1000, seed: 47 },
    );
    assert.ok(seen.edgeFirst >= 200 && seen.budgetFirst >= 200 && seen.guessed >= 200, JSON.stringify(seen));
  });

  test("1,000 random steps recorded (below, above, a revert, the edge): the same state after each", async () => {
    const step = fc.record({
      kind: fc.constantFrom(0, 1, 2, 3),
      guided: fc.boolean(),
      size,
      quote: quoteOf,
      rangeEnd: fc.oneof(fc.constant(0n), uint),
      hasEdge: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(randomState, step, async (s, { kind, guided, size: at, quote, rangeEnd, hasEdge }) => {
        const after =
          kind === 0
            ? ExactSearchRule.recordBelow(s, guided, at, quote)
            : kind === 1
              ? ExactSearchRule.recordAbove(s, guided, at, quote)
              : kind === 2
                ? ExactSearchRule.recordRevert(s, guided, at, rangeEnd === 0n ? undefined : rangeEnd)
                : ExactSearchRule.recordEdge(s, hasEdge ? at : undefined);
        const side = { known: true, size: at, quoted: hasEdge, requiredCollateral: quote.requiredCollateral, fillPrice: quote.fillPrice, priceAfter: quote.priceAfter, rangeEnd };
        const onChainState = await onChain("record", [stateTuple(s), kind, guided, at, side]);
        assert.deepEqual(onChainState, stateTuple(after));
      }),
      { numRuns: 1000, seed: 46 },
    );
  });

  test("the price edge's QuoterV2 call, planned from 2,000 random getMarket answers (well formed or not): the same call", async () => {
    const outputs = getAbiItem({ abi: marketGroupAbi, name: "getMarket" }).outputs;
    const address = fc.oneof(
      { arbitrary: fc.constant(zeroAddress), weight: 1 },
      { arbitrary: fc.bigInt({ min: 1n, max: 2n ** 160n - 1n }).map((v) => `0x${v.toString(16).padStart(40, "0")}` as Hex), weight: 6 },
    );
    const answer = fc
      .record({
        quoter: address,
        base: address,
        quote: address,
        fee: fc.oneof(fc.constantFrom(0, 500, 3000, 10_000, 2 ** 24 - 1), fc.integer({ min: 0, max: 2 ** 24 - 1 })),
        minPrice: fc.oneof(magnitude(0n, maxUint256), fc.bigInt({ min: 0n, max: 10n ** 24n })),
        maxPrice: fc.oneof(magnitude(0n, maxUint256), fc.bigInt({ min: 0n, max: 10n ** 24n })),
        // Words overwritten at random (a malformed answer), or the answer cut short.
        corrupt: fc.option(fc.tuple(fc.integer({ min: 0, max: 40 }), uint), { nil: undefined, freq: 3 }),
        cut: fc.option(fc.integer({ min: 0, max: 1200 }), { nil: undefined, freq: 8 }),
        // Base is token0 (the lower address) on most markets asked, as on the demo's.
        ordered: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
      })
      .map(({ quoter, base: first, quote: second, fee, minPrice, maxPrice, corrupt, cut, ordered }) => {
        const [base, quote] = ordered && BigInt(first) > BigInt(second) ? [second, first] : [first, second];
        const data = { marketId: 1n, startTime: 1n, endTime: 2n, pool: zeroAddress, quoteToken: quote, baseToken: base, minPriceD18: minPrice, maxPriceD18: maxPrice, baseAssetMinPriceTick: 0, baseAssetMaxPriceTick: 0, settled: false, settlementPriceD18: 0n, assertionId: `0x${"0".repeat(64)}` as Hex, claimStatementYesOrNumeric: "0x" as Hex, claimStatementNo: "0x" as Hex };
        const params = { feeRate: fee, assertionLiveness: 0n, bondAmount: 0n, bondCurrency: zeroAddress, uniswapPositionManager: zeroAddress, uniswapSwapRouter: zeroAddress, uniswapQuoter: quoter, optimisticOracleV3: zeroAddress };
        let hex = encodeAbiParameters(outputs, [data, params] as never).slice(2);
        if (corrupt !== undefined && corrupt[0] * 64 < hex.length) hex = hex.slice(0, corrupt[0] * 64) + corrupt[1].toString(16).padStart(64, "0") + hex.slice(corrupt[0] * 64 + 64);
        if (cut !== undefined) hex = hex.slice(0, 2 * cut);
        return `0x${hex}` as Hex;
      });
    let planned = 0;
    // The price edge's bound and the price just below it, where (price + 1) * 2^192 / 10^18 reaches 2^256.
    const edgeBound = fc.constantFrom((1n << 64n) * D18 - 1n, (1n << 64n) * D18);
    await fc.assert(
      fc.asyncProperty(answer, fc.boolean(), fc.oneof(price, magnitude(1n, maxUint256), edgeBound), async (market, isLong, expected) => {
        const mine = planEdge({ success: true, data: market }, isLong ? "LONG" : "SHORT", expected);
        const [isPlanned, quoter, data] = (await onChain("planEdge", [market, isLong, expected])) as [boolean, Hex, Hex];
        assert.deepEqual(isPlanned ? { to: quoter.toLowerCase(), data } : undefined, mine && { to: mine.to.toLowerCase(), data: mine.data });
        if (isPlanned) planned++;
      }),
      { numRuns: 2000, seed: 43 },
    );
    assert.ok(planned >= 400, `${planned} calls planned`);
  });

  test("the edge read from 500 random QuoterV2 answers: the same size, or none alike", async () => {
    const answer = fc.record({
      success: fc.boolean(),
      data: fc.oneof(
        fc.constant("0x" as Hex),
        fc.integer({ min: 0, max: 31 }).map((n) => `0x${"ab".repeat(n)}` as Hex),
        fc.tuple(uint, fc.integer({ min: 0, max: 3 })).map(([w, extra]) => `0x${w.toString(16).padStart(64, "0")}${"00".repeat(32 * extra)}` as Hex),
      ),
    });
    await fc.assert(
      fc.asyncProperty(answer, async (raw) => {
        const [hasEdge, edge] = (await onChain("edgeOf", [raw.success, raw.data])) as [boolean, bigint];
        assert.equal(hasEdge ? edge : undefined, interpretEdge(raw));
      }),
      { numRuns: 500, seed: 44 },
    );
  });

  test("the range's end from a PoolPriceOutOfRange bound: the same price, and none from 10^49 on", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(magnitude(0n, 2n ** 160n), uint, fc.constantFrom(10n ** 49n - 1n, 10n ** 49n)), async (bound) => {
        assert.equal(await onChain("rangeEndOf", [bound]), ExactSearchRule.rangeEndOf(bound) ?? 0n);
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
