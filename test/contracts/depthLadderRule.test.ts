// A spaced depth ladder's levels are planned twice: in TypeScript (ladderPrices in src/quote/depthRequest.ts, over
// the price interpretReferencePrice reads), which decides the answer, and in Solidity (contracts/DepthLadderRule.sol,
// over SearcherBase's _priceOf), which lets the ladder searcher read the price and search the levels in one call.
// Both are asked the same questions here, at every magnitude up to 2^256-1, and must answer alike to the wei.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { maxUint256, numberToHex, type Hex } from "viem";
import type { RawCall } from "../../src/chain/rpc/call.ts";
import { interpretReferencePrice } from "../../src/chain/searchers/marketGroup.ts";
import { depthLadderRuleHarnessAbi, depthLadderRuleHarnessBytecode } from "../../src/generated/contracts.ts";
import { DEPTH_MAX_LEVELS, ladderPrices } from "../../src/quote/depthRequest.ts";
import { pureHarness } from "../support/pureHarness.ts";

const onChain = pureHarness(depthLadderRuleHarnessAbi, depthLadderRuleHarnessBytecode);

/** The prices the searcher plans: the harness's answer as TypeScript reads it. */
async function solidityPrices(current: bigint | undefined, to: bigint, levels: number): Promise<readonly bigint[]> {
  return (await onChain("prices", [current !== undefined, current ?? 0n, to, BigInt(levels)])) as readonly bigint[];
}

/** Values spread over every magnitude from 1 to 2^256-1 (log-uniform), with the bounds themselves. */
const magnitude = fc.oneof(
  fc.integer({ min: 1, max: 256 }).chain((bits) => fc.bigInt({ min: 1n, max: (1n << BigInt(bits)) - 1n })),
  fc.constantFrom(1n, 2n, maxUint256 - 1n, maxUint256),
);
/** Prices as the demo markets have them (cents to thousands, 18 decimals). */
const ordinary = fc.bigInt({ min: 10n ** 16n, max: 10n ** 22n });
const levels = fc.oneof(fc.integer({ min: 1, max: DEPTH_MAX_LEVELS }), fc.constantFrom(1, 2, 3, DEPTH_MAX_LEVELS - 1, DEPTH_MAX_LEVELS));

/** A ladder's question: the market's price (or none), `to` anywhere or right next to the price, the levels. */
const question = fc
  .record({
    current: fc.oneof(magnitude, ordinary),
    far: fc.oneof(magnitude, ordinary),
    near: fc.bigInt({ min: -120n, max: 120n }),
    shape: fc.constantFrom("far", "far", "near", "equal"),
    hasPrice: fc.integer({ min: 0, max: 9 }).map((draw) => draw > 0),
    levels,
  })
  .map(({ current, far, near, shape, hasPrice, levels }) => {
    const nearby = current + near;
    const to = shape === "far" ? far : shape === "equal" ? current : nearby < 1n ? 1n : nearby > maxUint256 ? maxUint256 : nearby;
    return { current: hasPrice ? current : undefined, to, levels };
  });

describe("the depth ladder's levels: TypeScript and Solidity plan alike", () => {
  test("3,000 random ladders at every magnitude: the same prices, in order, rounded toward the current price on both sides", async () => {
    const seen = { above: 0, below: 0, roundedAbove: 0, roundedBelow: 0, repeated: 0, oneLevel: 0, huge: 0, noPrice: 0, atPrice: 0 };
    await fc.assert(
      fc.asyncProperty(question, async ({ current, to, levels }) => {
        const expected = ladderPrices(current, to, levels);
        assert.deepEqual(await solidityPrices(current, to, levels), expected);
        if (current === undefined) return void seen.noPrice++;
        if (current === to) return void seen.atPrice++;
        const distance = to > current ? to - current : current - to;
        const inexact = expected.some((_, i) => (distance * BigInt(i + 1)) % BigInt(levels) !== 0n);
        if (to > current) seen.above++;
        else seen.below++;
        if (inexact && to > current) seen.roundedAbove++;
        if (inexact && to < current) seen.roundedBelow++;
        if (new Set(expected).size < expected.length) seen.repeated++;
        if (levels === 1) seen.oneLevel++;
        if (current >= 1n << 255n || to >= 1n << 255n) seen.huge++;
      }),
      { numRuns: 3000, seed: 36 },
    );
    // The questions must reach every way the rule can go, not only its ordinary ladders.
    const reached = Object.entries(seen).filter(([, count]) => count < 50);
    assert.deepEqual(reached, [], JSON.stringify(seen));
  });

  test("by hand: the rounding toward the current price above and below it, `to` next to the price, one level, the bounds", async () => {
    const E18 = 10n ** 18n;
    const cases: [bigint | undefined, bigint, number, bigint[]][] = [
      // 3.25, 5.5, 7.75, 10 from 1: rounded down above the price.
      [1n, 10n, 4, [3n, 5n, 7n, 10n]],
      // 7.75, 5.5, 3.25, 1 from 10: rounded up below it.
      [10n, 1n, 4, [8n, 6n, 4n, 1n]],
      // One wei (10^-18) from the price: the first levels are the price itself, the last is `to`.
      [1000n * E18, 1000n * E18 + 1n, 3, [1000n * E18, 1000n * E18, 1000n * E18 + 1n]],
      [1000n * E18, 1000n * E18 - 1n, 3, [1000n * E18, 1000n * E18, 1000n * E18 - 1n]],
      [5n * 10n ** 17n, 2n * 10n ** 17n, 1, [2n * 10n ** 17n]],
      // The distance times the level passes 256 bits: the product is taken whole.
      [1n, maxUint256, 2, [1n + (maxUint256 - 1n) / 2n, maxUint256]],
      [maxUint256, 1n, 2, [maxUint256 - (maxUint256 - 1n) / 2n, 1n]],
      [maxUint256, maxUint256 - 1n, 50, [...Array.from({ length: 49 }, () => maxUint256), maxUint256 - 1n]],
      // No price: `to` alone (its quote says why); `to` at the price: none.
      [undefined, 9n * 10n ** 17n, 10, [9n * 10n ** 17n]],
      [5n * 10n ** 17n, 5n * 10n ** 17n, 10, []],
    ];
    for (const [current, to, levels, expected] of cases) {
      const name = `${current} to ${to} in ${levels}`;
      assert.deepEqual(ladderPrices(current, to, levels), expected, `TypeScript: ${name}`);
      assert.deepEqual(await solidityPrices(current, to, levels), expected, `Solidity: ${name}`);
    }
  });

  test("1,000 random getReferencePrice answers: the same price, or the same none (a revert, short data, zero)", async () => {
    const word = fc.oneof(magnitude, fc.constant(0n), ordinary).map((value) => numberToHex(value, { size: 32 }).slice(2));
    const answer: fc.Arbitrary<RawCall> = fc.record({
      success: fc.boolean(),
      data: fc.oneof(
        word.map((w) => `0x${w}` as Hex),
        fc.tuple(word, fc.uint8Array({ maxLength: 40 })).map(([w, extra]) => `0x${w}${Buffer.from(extra).toString("hex")}` as Hex),
        fc.uint8Array({ maxLength: 31 }).map((bytes) => `0x${Buffer.from(bytes).toString("hex")}` as Hex),
      ),
    });
    const seen = { price: 0, none: 0 };
    await fc.assert(
      fc.asyncProperty(answer, async (raw) => {
        const expected = interpretReferencePrice(raw);
        const [hasPrice, price] = (await onChain("priceOf", [raw])) as [boolean, bigint];
        assert.deepEqual(hasPrice ? price : undefined, expected);
        seen[expected === undefined ? "none" : "price"]++;
      }),
      { numRuns: 1000, seed: 37 },
    );
    assert.ok(seen.price >= 200 && seen.none >= 200, JSON.stringify(seen));
  });
});
