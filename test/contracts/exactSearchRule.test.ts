// The exact search's rule is written twice: in TypeScript (src/quote/exactRule.ts), which decides every
// answer, and in Solidity (contracts/ExactSearchRule.sol), which lets the searcher quote the same candidates on
// chain. Both are asked the same questions here, on random states that reach every bound (sizes to 2^255-1,
// prices and budgets to 2^256-1, streaks of any length, a price edge or none), and must answer alike to the wei.
// So is the price edge, a fact of the rule's input: the QuoterV2 call that measures it (src/chain/priceEdge.ts,
// contracts/PriceEdge.sol) and the size read from its answer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encodeAbiParameters, getAbiItem, maxInt256, maxUint256, zeroAddress, type Hex } from "viem";
import { exactStateArgs } from "../../src/chain/searcher.ts";
import { interpretEdge, planEdge } from "../../src/chain/priceEdge.ts";
import { exactRuleHarnessAbi, exactRuleHarnessBytecode, marketGroupAbi } from "../../src/generated/contracts.ts";
import { isClosed, nextExactCandidate, rangeEndFromBound, type ExactRuleInput, type ExactState, type Known } from "../../src/quote/exactRule.ts";
import { pureHarness } from "../support/pureHarness.ts";

const DUST = 10n ** 6n;

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

const quoteOf = fc.record({ requiredCollateral: uint, fillPrice: fc.constant(0n), priceAfter: fc.oneof(uint, price) });
const side = (at: bigint, revertAllowed: boolean): fc.Arbitrary<Known> =>
  revertAllowed
    ? fc.oneof(
        quoteOf.map((quote) => ({ size: at, quote })),
        fc.option(fc.oneof(uint, magnitude(0n, 10n ** 41n)), { nil: undefined }).map((rangeEnd) => (rangeEnd === undefined ? { size: at } : { size: at, rangeEnd })),
      )
    : quoteOf.map((quote) => ({ size: at, quote }));

/** A state the search can be in: sides in order, a streak whose sign matches a side that exists. */
const state: fc.Arbitrary<ExactState> = fc.oneof(
  fc.constant<ExactState>({ streak: 0, quoted: 0 }),
  fc
    .record({
      shape: fc.constantFrom("low", "high", "both"),
      a: size,
      b: size,
      streak: fc.integer({ min: 1, max: 40 }),
      last: fc.constantFrom("below", "above", "unguided"),
      quoted: fc.integer({ min: 1, max: 40 }),
    })
    .chain(({ shape, a, b, streak, last, quoted }) => {
      let [lowSize, highSize] = a < b ? [a, b] : [b, a];
      if (lowSize === highSize) highSize = lowSize + 1n;
      const low = shape === "high" ? fc.constant(undefined) : side(lowSize, false);
      const high = shape === "low" ? fc.constant(undefined) : side(shape === "high" ? a : highSize, true);
      const signed = last === "unguided" ? 0 : (last === "below" && shape !== "high") || shape === "low" ? streak : -streak;
      return fc.record({ low, high }).map(({ low, high }) => ({
        ...(low ? { low } : {}),
        ...(high ? { high } : {}),
        streak: signed,
        quoted,
      }));
    }),
);

const baseInput: fc.Arbitrary<ExactRuleInput> = fc.record({
  direction: fc.constantFrom("LONG" as const, "SHORT" as const),
  cap: magnitude(0n, maxInt256),
  currentPrice: price,
  expectedPrice: price,
  collateralAvailable: fc.oneof(uint, fc.bigInt({ min: 1n, max: 10n ** 30n })),
});

/**
 * The price edge beside a state: none, anywhere, or within a few wei of the size of a side (inside and just outside
 * the window in which it guides), so that every branch of the edge's rule is asked.
 */
const withEdge = (s: ExactState): fc.Arbitrary<bigint | undefined> => {
  const near = [s.low?.size, s.high?.size].filter((x): x is bigint => x !== undefined);
  const close = near.length === 0 ? size : fc.tuple(fc.constantFrom(...near), fc.integer({ min: -40, max: 40 })).map(([at, d]) => {
    const e = at + BigInt(d);
    return e < 0n ? 0n : e > maxInt256 ? maxInt256 : e;
  });
  return fc.oneof(fc.constant(undefined), magnitude(0n, maxInt256), close, close);
};

const question = fc.tuple(baseInput, state).chain(([i, s]) =>
  withEdge(s).map((edge) => [edge === undefined ? i : { ...i, edge }, s] as const),
);

const stateTuple = exactStateArgs;
const inputTuple = (i: ExactRuleInput) => ({
  isLong: i.direction === "LONG",
  cap: i.cap,
  currentPrice: i.currentPrice,
  expectedPrice: i.expectedPrice,
  collateralAvailable: i.collateralAvailable,
  hasEdge: i.edge !== undefined,
  edge: i.edge ?? 0n,
});

describe("the exact search's rule: TypeScript and Solidity choose alike", () => {
  test("3,000 random states at every magnitude, with and without a price edge: the same next candidate, guided or not, and the same closed state", async () => {
    const seen = { guided: 0, unguided: 0, first: 0, dust: 0, byEdge: 0 };
    await fc.assert(
      fc.asyncProperty(question, async ([i, s]) => {
        const closed = isClosed(s);
        assert.equal(await onChain("closed", [stateTuple(s)]), closed);
        if (closed) return;
        const expected = nextExactCandidate(i, s);
        const [size, guided] = (await onChain("next", [inputTuple(i), stateTuple(s)])) as [bigint, boolean];
        assert.deepEqual({ size, guided }, expected);
        const { edge, ...without } = i;
        if (edge !== undefined && nextExactCandidate(without, s).size !== size) seen.byEdge++;
        if (s.quoted > 0 && s.low === undefined && size === DUST) seen.dust++;
        if (s.quoted === 0) seen.first++;
        else if (guided) seen.guided++;
        else seen.unguided++;
      }),
      { numRuns: 3000, seed: 41 },
    );
    // The questions must reach both of the rule's ways of choosing, not only its first candidate.
    assert.ok(seen.guided >= 300 && seen.unguided >= 100, JSON.stringify(seen));
    // Nothing fills yet and little is left above DUST: both quote DUST itself.
    assert.ok(seen.dust >= 20, JSON.stringify(seen));
    // The edge must change the choice often enough for its branches to be compared.
    assert.ok(seen.byEdge >= 300, JSON.stringify(seen));
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
    await fc.assert(
      fc.asyncProperty(answer, fc.boolean(), fc.oneof(price, magnitude(1n, maxUint256)), async (market, isLong, expected) => {
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
        assert.equal(await onChain("rangeEndOf", [bound]), rangeEndFromBound(bound) ?? 0n);
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
