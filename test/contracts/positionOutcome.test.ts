// A held position's candidates are classified twice (semantics §13), as a new position's are: on chain, where the
// position searcher chooses its next trade (HeldPositionSearch: _outcome on the shifted delta and budget, _hold's offset,
// _rangeTop), and in the service (interpretModifyQuote, heldQuote, shiftedBudget, positionOffset, planPositionSearch).
// Both are given the same raw quotes, markets and positions, at every magnitude and on the boundaries, and must agree:
// otherwise the single call would quote other trades than the service replays.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { bytesToHex, encodeAbiParameters, encodeFunctionResult, maxInt256, maxUint256, zeroAddress, type Hex } from "viem";
import { interpretModifyQuote } from "../../src/chain/searchers/positionGroup.ts";
import { candidateOutcomeHarnessAbi, candidateOutcomeHarnessBytecode, marketGroupAbi } from "../../src/generated/contracts.ts";
import { heldQuote, planPositionSearch, positionOffset, shiftedBudget } from "../../src/quote/positionSearch.ts";
import { classifyQuote, type Direction } from "../../src/quote/search.ts";
import { pureHarness } from "../support/pureHarness.ts";

const onChain = pureHarness(candidateOutcomeHarnessAbi, candidateOutcomeHarnessBytecode);

const uint = fc.oneof(
  fc.integer({ min: 0, max: 256 }).chain((bits) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })),
  fc.constantFrom(0n, 1n, maxUint256),
);
const int = fc.oneof(
  fc.integer({ min: 0, max: 255 }).chain((bits) => fc.bigInt({ min: -(1n << BigInt(bits)), max: (1n << BigInt(bits)) - 1n })),
  fc.constantFrom(0n, -1n, maxInt256, -maxInt256 - 1n),
);
// A held position's offset is never below the group's rounding (2): 0 is a new position's.
const offsets = fc.oneof(fc.bigInt({ min: 2n, max: 10n ** 24n }), fc.constantFrom(2n, 3n, 2n ** 254n, 2n ** 254n + 2n));
const MODIFY_WORDS = [{ type: "int256" }, { type: "int256" }, { type: "uint256" }, { type: "uint256" }] as const;

describe("a held position's candidates: the position searcher on chain and the service alike", () => {
  test("3,000 random quotes of a modification: the same reverts, the same shifted delta, the same too-large candidates", async () => {
    const seen = { quoted: 0, tooLarge: 0, fits: 0 };
    const question = fc.record({
      direction: fc.constantFrom<Direction>("LONG", "SHORT"),
      expectedPrice: fc.oneof(uint, fc.bigInt({ min: 10n ** 16n, max: 10n ** 19n })),
      budget: fc.oneof(uint, fc.bigInt({ min: 0n, max: 10n ** 24n })),
      offset: offsets,
      success: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }).chain((r) =>
      fc.record({
        r: fc.constant(r),
        data: fc.oneof(
          {
            weight: 6,
            arbitrary: fc
              .tuple(fc.oneof(int, fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.constant(r.budget > maxInt256 ? 0n : r.budget)), int, uint, fc.oneof(uint, fc.constant(r.expectedPrice)), fc.uint8Array({ maxLength: 40 }))
              .map(([delta, pnl, fill, after, tail]) => `${encodeAbiParameters(MODIFY_WORDS, [delta, pnl, fill, after])}${bytesToHex(tail).slice(2)}` as Hex),
          },
          { weight: 1, arbitrary: fc.uint8Array({ maxLength: 127 }).map((bytes) => bytesToHex(bytes)) },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(question, async ({ r, data }) => {
        const [quoted, tooLarge, shifted] = (await onChain("positionOutcome", [r.direction === "LONG", r.expectedPrice, r.budget, r.offset, r.success, data])) as [boolean, boolean, bigint, bigint];
        const read = interpretModifyQuote({ success: r.success, data });
        assert.equal(quoted, read.kind === "quoted", "the same quotes read as reverted");
        if (read.kind !== "quoted") return;
        seen.quoted++;
        const quote = heldQuote(read.modify, r.offset);
        assert.equal(shifted, quote.requiredCollateral, "the same shifted delta");
        const rules = { direction: r.direction, expectedPrice: r.expectedPrice, priceLimit: 0n, collateralAvailable: shiftedBudget(r.budget, r.offset) };
        const outcome = classifyQuote(rules, quote);
        const large = outcome === "over-budget" || outcome === "beyond-expected";
        assert.equal(tooLarge, large, `too large on chain: ${tooLarge}, the service: ${outcome}`);
        // Shifting changes no comparison: the delta itself against the budget says the same.
        assert.equal(quote.requiredCollateral > rules.collateralAvailable, read.modify.collateralDelta > r.budget, "the shift keeps the budget's comparison");
        seen[large ? "tooLarge" : "fits"]++;
      }),
      { numRuns: 3000, seed: 44 },
    );
    assert.ok(seen.tooLarge >= 300 && seen.fits >= 300, JSON.stringify(seen));
  });

  test("1,000 random positions and markets: the same offset from getMarket's answer, the same top of the range", async () => {
    const market = (minPriceD18: bigint, maxPriceD18: bigint) =>
      encodeFunctionResult({
        abi: marketGroupAbi,
        functionName: "getMarket",
        result: [
          {
            marketId: 1n, startTime: 1n, endTime: 2n, pool: zeroAddress, quoteToken: zeroAddress, baseToken: zeroAddress, minPriceD18, maxPriceD18,
            baseAssetMinPriceTick: 0, baseAssetMaxPriceTick: 0, settled: false, settlementPriceD18: 0n, assertionId: `0x${"0".repeat(64)}`, claimStatementYesOrNumeric: "0x", claimStatementNo: "0x",
          },
          { feeRate: 0, assertionLiveness: 0n, bondAmount: 0n, bondCurrency: zeroAddress, uniswapPositionManager: zeroAddress, uniswapSwapRouter: zeroAddress, uniswapQuoter: zeroAddress, optimisticOracleV3: zeroAddress },
        ],
      } as never);
    const question = fc.record({
      direction: fc.constantFrom<Direction>("LONG", "SHORT"),
      current: fc.oneof(int.filter((value) => value > -maxInt256 - 1n), fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n })),
      min: fc.oneof(uint, fc.bigInt({ min: 0n, max: 10n ** 18n })),
      max: fc.oneof(uint, fc.bigInt({ min: 0n, max: 10n ** 21n })),
      budget: fc.oneof(uint, fc.bigInt({ min: 0n, max: 10n ** 24n })),
      price: fc.oneof(uint.filter((value) => value > 0n), fc.bigInt({ min: 1n, max: 10n ** 21n })),
    });
    await fc.assert(
      fc.asyncProperty(question, async ({ direction, current, min, max, budget, price }) => {
        const isLong = direction === "LONG";
        const offset = (await onChain("positionOffset", [market(min, max), current, isLong])) as bigint;
        assert.equal(offset, positionOffset(current, direction, min, max));
        const top = (await onChain("rangeTop", [budget, price, current, isLong])) as bigint;
        const expected = isLong ? price + 1n : price > 1n ? price - 1n : undefined;
        if (expected === undefined) return;
        const plan = planPositionSearch({ expectedPrice: expected, collateralAvailable: budget, maxIterations: 10 } as never, price, { current, offset });
        assert.ok(plan.ok);
        assert.equal(top, plan.value.cap, "the same top of the range");
      }),
      { numRuns: 1000, seed: 45 },
    );
  });
});
