// The exact search's rule is written twice: in TypeScript (src/quote/exactRule.ts), which decides every
// answer, and in Solidity (contracts/ExactSearchRule.sol), which lets the searcher quote the same candidates on
// chain. Both are asked the same questions here, on random states that reach every bound (sizes to 2^255-1,
// prices and budgets to 2^256-1, streaks of any length), and must answer alike to the wei.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { maxInt256, maxUint256 } from "viem";
import { exactStateArgs } from "../../src/chain/searcher.ts";
import { exactRuleHarnessAbi, exactRuleHarnessBytecode } from "../../src/generated/contracts.ts";
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

const input: fc.Arbitrary<ExactRuleInput> = fc.record({
  direction: fc.constantFrom("LONG" as const, "SHORT" as const),
  cap: magnitude(0n, maxInt256),
  currentPrice: price,
  expectedPrice: price,
  collateralAvailable: fc.oneof(uint, fc.bigInt({ min: 1n, max: 10n ** 30n })),
});

const stateTuple = exactStateArgs;
const inputTuple = (i: ExactRuleInput) => ({
  isLong: i.direction === "LONG",
  cap: i.cap,
  currentPrice: i.currentPrice,
  expectedPrice: i.expectedPrice,
  collateralAvailable: i.collateralAvailable,
});

describe("the exact search's rule: TypeScript and Solidity choose alike", () => {
  test("3,000 random states at every magnitude: the same next candidate, guided or not, and the same closed state", async () => {
    const seen = { guided: 0, unguided: 0, first: 0, dust: 0 };
    await fc.assert(
      fc.asyncProperty(input, state, async (i, s) => {
        const closed = isClosed(s);
        assert.equal(await onChain("closed", [stateTuple(s)]), closed);
        if (closed) return;
        const expected = nextExactCandidate(i, s);
        const [size, guided] = (await onChain("next", [inputTuple(i), stateTuple(s)])) as [bigint, boolean];
        assert.deepEqual({ size, guided }, expected);
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
