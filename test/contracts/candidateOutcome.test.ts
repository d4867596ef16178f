// A candidate's outcome is decided twice: on chain, where the searchers classify each quote to choose the next
// candidate (SearcherBase._outcome: quoted or reverted, too large or not), and in the service, which classifies the
// recorded quotes again (interpretQuote, classifyQuote) and draws each answer's limitedBy from those outcomes. Both
// are given the same raw quotes here, well formed or not, at every magnitude and on every boundary of §4's checks,
// and must agree: the same quotes read as reverted, the same figures decoded, the same candidates too large, and,
// split by its figures, the chain's "too large" is the service's reason (collateral before expectedPrice).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { bytesToHex, encodeAbiParameters, maxUint256, type Hex } from "viem";
import { interpretQuote } from "../../src/chain/searchers/marketGroup.ts";
import { candidateOutcomeHarnessAbi, candidateOutcomeHarnessBytecode } from "../../src/generated/contracts.ts";
import { reasonOf, type LimitedBy } from "../../src/quote/limitedBy.ts";
import { classifyQuote, type Direction } from "../../src/quote/search.ts";
import { pureHarness } from "../support/pureHarness.ts";

const onChain = pureHarness(candidateOutcomeHarnessAbi, candidateOutcomeHarnessBytecode);

/** Values spread over every magnitude up to 2^256-1 (log-uniform), with the bounds themselves. */
const uint = fc.oneof(
  fc.integer({ min: 0, max: 256 }).chain((bits) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })),
  fc.constantFrom(0n, 1n, maxUint256 - 1n, maxUint256),
);

/** A value at, just below or just above `at` (within 256 bits), or anywhere. */
const near = (at: bigint) =>
  fc.oneof(
    fc.constantFrom(-1n, 0n, 1n).map((step) => at + step).filter((value) => value >= 0n && value <= maxUint256),
    uint,
  );

const rules = fc.record({
  direction: fc.constantFrom<Direction>("LONG", "SHORT"),
  expectedPrice: fc.oneof(uint, fc.bigInt({ min: 10n ** 16n, max: 10n ** 22n })),
  collateralAvailable: fc.oneof(uint, fc.bigInt({ min: 1n, max: 10n ** 30n })),
  priceLimit: uint,
});

const QUOTE_WORDS = [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }] as const;

/**
 * The return or revert data of one quote: its three words (often on a boundary of the rules), maybe with trailing
 * bytes; or bytes too short to hold them; or any bytes.
 */
const quoteData = (expectedPrice: bigint, collateralAvailable: bigint): fc.Arbitrary<Hex> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(near(collateralAvailable), uint, near(expectedPrice), fc.uint8Array({ maxLength: 40 }))
        .map(([required, fill, after, tail]) => `${encodeAbiParameters(QUOTE_WORDS, [required, fill, after])}${bytesToHex(tail).slice(2)}` as Hex),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 95 }).map((bytes) => bytesToHex(bytes)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => bytesToHex(bytes)) },
  );

const question = rules.chain((r) =>
  fc.record({
    rules: fc.constant(r),
    // Mostly successful calls: a revert's data, whatever it holds, is a revert on both sides.
    success: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    data: quoteData(r.expectedPrice, r.collateralAvailable),
  }),
);

describe("a candidate's outcome: the searchers on chain and the service classify alike", () => {
  test("4,000 random quotes at every magnitude: the same reverts, figures and too-large candidates, and the service's reason matches the chain's figures", async () => {
    const seen: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(question, async ({ rules, success, data }) => {
        const [quoted, tooLarge, requiredCollateral, priceAfter] = (await onChain("outcome", [
          rules.direction === "LONG",
          rules.expectedPrice,
          rules.collateralAvailable,
          success,
          data,
        ])) as [boolean, boolean, bigint, bigint];
        const evaluation = interpretQuote({ success, data });
        const reason: LimitedBy | "fits" =
          evaluation.kind === "reverted" ? "liquidity" : (reasonOf(classifyQuote(rules, evaluation.quote)) ?? "fits");
        seen[reason] = (seen[reason] ?? 0) + 1;
        assert.equal(quoted, evaluation.kind === "quoted", "the same quotes read as reverted");
        assert.equal(tooLarge, reason !== "fits", `too large on chain, ${reason} in the service`);
        if (evaluation.kind !== "quoted") return;
        assert.deepEqual([requiredCollateral, priceAfter], [evaluation.quote.requiredCollateral, evaluation.quote.priceAfter], "the same figures");
        // Where both rules are broken, the budget's check comes first on both sides.
        const overBudget = requiredCollateral > rules.collateralAvailable;
        if (tooLarge) assert.equal(reason, overBudget ? "collateral" : "expectedPrice");
        const pastExpected = rules.direction === "LONG" ? priceAfter > rules.expectedPrice : priceAfter < rules.expectedPrice;
        if (overBudget && pastExpected) seen.both = (seen.both ?? 0) + 1;
      }),
      { numRuns: 4000, seed: 43 },
    );
    // Every reason, and quotes that fit, must be among the questions, not only reverts.
    for (const reason of ["liquidity", "collateral", "expectedPrice", "fits"]) assert.ok((seen[reason] ?? 0) >= 300, JSON.stringify(seen));
    assert.ok((seen.both ?? 0) >= 100, `quotes over budget and past expectedPrice at once: ${JSON.stringify(seen)}`);
  });
});
