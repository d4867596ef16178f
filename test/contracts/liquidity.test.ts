// The reference market group's liquidity surface (semantics §9 and §14; docs/semantics.md §8 states the requirement)
// on the embedded EVM, on groups with 18- and 6-decimal collateral, against the exact arithmetic of liquidityModel.ts:
// createLiquidityPosition's liquidity, the tokens the pool takes, the collateral it needs (the requirement at both
// bounds, with its roundings) and takes, the position it records, each of its errors, and the views
// quoteLiquidityPositionTokens and getTokensFromLiquidity.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import fc from "fast-check";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { configOf, MarketGroupHarness, revertData, reverted, type LiquidityParams } from "./marketGroupHarness.ts";
import { groupQuoteOf, liquidityOf, mintCost, poolSqrtAtTick, requirementOf, tokensOf } from "./liquidityModel.ts";
import { E18, wholeRange, YES_NO } from "./poolModel.ts";

const groups: Record<number, MarketGroupHarness> = {};
before(async () => {
  groups[18] = await MarketGroupHarness.start();
  groups[6] = await MarketGroupHarness.start(groups[18].chain, 6);
});

const scaleOf = (decimals: number) => 10n ** BigInt(18 - decimals);
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** A yes/no market (price 0.5 in [0.01, 0.99], 1% fee: tick spacing 200) on `h`, L = 10^20 unless given; its bounds. */
async function market(h: MarketGroupHarness, liquidity = 10n ** 20n) {
  const id = await h.createMarket(configOf(wholeRange(YES_NO, liquidity)));
  const [data] = await h.getMarket(id);
  return { id, data, minTick: data.baseAssetMinPriceTick, maxTick: data.baseAssetMaxPriceTick };
}

/** Params of `marketId` in [lowerTick, upperTick], no collateral, no minimums. */
const paramsOf = (marketId: bigint, lowerTick: number, upperTick: number, amountBaseToken: bigint, amountQuoteToken: bigint): LiquidityParams => ({
  marketId, amountBaseToken, amountQuoteToken, collateralAmount: 0n, lowerTick, upperTick, minAmountBaseToken: 0n, minAmountQuoteToken: 0n,
});

/** What the mint of `params` must do at the market's state now, computed here: its liquidity, the pool's tokens, the requirement. */
async function expected(h: MarketGroupHarness, params: LiquidityParams) {
  const [data] = await h.getMarket(params.marketId);
  const { sqrtPriceX96, tick } = await h.pool(params.marketId);
  const [a, b] = [poolSqrtAtTick(params.lowerTick), poolSqrtAtTick(params.upperTick)];
  const liquidity = liquidityOf(sqrtPriceX96, a, b, params.amountBaseToken, params.amountQuoteToken);
  const [added0, added1] = mintCost(sqrtPriceX96, tick, params.lowerTick, params.upperTick, liquidity);
  return { liquidity, added0, added1, required: requirementOf(liquidity, added0, added1, a, b, data.minPriceD18, data.maxPriceD18) };
}

/** A multiple of the spacing in [low, high]. */
const alignedTick = (low: number, high: number, spacing: number) => fc.integer({ min: low / spacing, max: high / spacing }).map((i) => i * spacing);

/** A value in [min, max], log-uniform by bit length. */
const logBigInt = (min: bigint, max: bigint) =>
  fc.integer({ min: min.toString(2).length, max: max.toString(2).length }).chain((bits) => {
    const lo = 1n << BigInt(bits - 1);
    const hi = (1n << BigInt(bits)) - 1n;
    return fc.bigInt({ min: lo > min ? lo : min, max: hi < max ? hi : max });
  });

describe("createLiquidityPosition against the arithmetic written here", () => {
  test("random ranges (below, around, above the price), amounts and prices, both groups: the liquidity is getLiquidityForAmounts at the pool's price between its tick prices, the pool takes its tokens rounded up, InsufficientCollateral(required, 0) names the requirement at both bounds; the requirement's collateral (rounded up to token units) mints, one unit less does not; the position and the collateral taken by transferFrom", async () => {
    // Deep enough that every trade of the property fills (a move of at most 10^21 base tokens).
    const markets: Record<number, Awaited<ReturnType<typeof market>>> = { 18: await market(groups[18]!, 10n ** 24n), 6: await market(groups[6]!, 10n ** 24n) };
    const { minTick, maxTick } = markets[18]!;
    let minted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(18, 6),
        fc.tuple(alignedTick(minTick, maxTick, 200), alignedTick(minTick, maxTick, 200)).filter(([x, y]) => x !== y),
        logBigInt(10n ** 6n, 10n ** 24n),
        logBigInt(10n ** 6n, 10n ** 24n),
        fc.oneof(fc.constant(0n), logBigInt(10n ** 15n, 10n ** 21n), logBigInt(10n ** 15n, 10n ** 21n).map((s) => -s)),
        async (decimals, [x, y], amount0, amount1, move) => {
          const h = groups[decimals]!;
          const { id } = markets[decimals]!;
          const scale = scaleOf(decimals);
          if (move !== 0n) await h.trade(id, move);
          const params = paramsOf(id, Math.min(x, y), Math.max(x, y), amount0, amount1);
          const want = await expected(h, params);
          assert.ok(want.liquidity > 0n);
          assert.deepEqual(await reverted(h.simulateProvide(params)), { errorName: "InsufficientCollateral", args: [want.required, 0n] });
          const collateralAmount = ceilDiv(want.required, scale);
          assert.deepEqual(await reverted(h.simulateProvide({ ...params, collateralAmount: collateralAmount - 1n })), {
            errorName: "InsufficientCollateral",
            args: [want.required, (collateralAmount - 1n) * scale],
          });
          const positionId = (await h.chain.publicClient.readContract({ address: h.address, abi: marketGroupAbi, functionName: "totalSupply" })) + 1n;
          const { result } = await h.simulateProvide({ ...params, collateralAmount });
          assert.deepEqual(result, [positionId, want.required, collateralAmount * scale, positionId, want.liquidity, want.added0, want.added1]);
          const trader = h.chain.traderClient.account.address;
          const [traderBefore, groupBefore] = [await h.collateralBalance(trader), await h.collateralBalance(h.address)];
          const rangesBefore = await h.ranges(id);
          await h.provide({ ...params, collateralAmount });
          minted++;
          assert.equal(await h.collateralBalance(trader), traderBefore - collateralAmount);
          assert.equal(await h.collateralBalance(h.address), groupBefore + collateralAmount);
          assert.equal(await h.ownerOf(positionId), trader);
          const p = await h.position(positionId);
          assert.deepEqual(
            [p.id, p.kind, p.marketId, p.depositedCollateralAmount, p.borrowedVBase, p.borrowedVQuote, p.vBaseAmount, p.vQuoteAmount, p.uniswapPositionId, p.isSettled],
            [positionId, 1, id, collateralAmount * scale, want.added0, want.added1, 0n, 0n, positionId, false],
          );
          assert.equal(await h.positionSize(positionId), -want.added0);
          // The liquidity joins the market's range of these ticks, or a new one, for the traders' losses.
          const ranges = await h.ranges(id);
          const before = rangesBefore.find((r) => r.tickLower === params.lowerTick && r.tickUpper === params.upperTick);
          const after = ranges.find((r) => r.tickLower === params.lowerTick && r.tickUpper === params.upperTick);
          assert.equal(after?.liquidity, (before?.liquidity ?? 0n) + want.liquidity);
          assert.equal(ranges.length, rangesBefore.length + (before === undefined ? 1 : 0));
        },
      ),
      { numRuns: 24, seed: 53 },
    );
    assert.equal(minted, 24);
  });

  test("the requirement is the larger of the two bounds' shortfalls: a range above the price binds at the maximum, one below at the minimum, as computed here", async () => {
    const h = groups[18]!;
    const { id, data, minTick, maxTick } = await market(h);
    const { tick } = await h.pool(id);
    const above = paramsOf(id, Math.ceil((tick + 1) / 200) * 200, maxTick, 1000n * E18, 0n);
    const below = paramsOf(id, minTick, Math.floor(tick / 200) * 200, 0n, 1000n * E18);
    for (const params of [above, below]) {
      const want = await expected(h, params);
      const [a, b] = [poolSqrtAtTick(params.lowerTick), poolSqrtAtTick(params.upperTick)];
      // Only the bound where the position's tokens are worth less than its loans needs collateral.
      const atMax = want.added1 + 1n + ((want.added0 + 1n) * data.maxPriceD18) / E18 - tokensOf(b, a, b, want.liquidity)[1];
      assert.deepEqual(await reverted(h.simulateProvide(params)), { errorName: "InsufficientCollateral", args: [want.required, 0n] });
      if (params === above) assert.equal(want.required, atMax + 2n);
    }
  });
});

describe("createLiquidityPosition's errors", () => {
  test("TransactionExpired(deadline, blockTime) past the deadline; a deadline equal to the block's time passes", async () => {
    const h = groups[18]!;
    const { id, minTick, maxTick } = await market(h);
    const params = { ...paramsOf(id, minTick, maxTick, E18, E18), collateralAmount: 10n * E18 };
    const deadline = (await h.latestTimestamp()) + 100n;
    await h.setNextBlockTimestamp(deadline + 1n);
    assert.deepEqual(await reverted(h.provide({ ...params, deadline })), { errorName: "TransactionExpired", args: [deadline, deadline + 1n] });
    const exact = (await h.latestTimestamp()) + 100n;
    await h.setNextBlockTimestamp(exact);
    await h.provide({ ...params, deadline: exact });
  });

  test("ExpiredMarket() on a settled market, and on one at or past its end; InvalidMarket() for an id never created", async () => {
    const h = groups[18]!;
    const { id, minTick, maxTick } = await market(h);
    const params = { ...paramsOf(id, minTick, maxTick, E18, E18), collateralAmount: 10n * E18 };
    await h.settle(id, E18);
    assert.deepEqual(await reverted(h.simulateProvide(params)), { errorName: "ExpiredMarket", args: [] });
    const now = await h.latestTimestamp();
    const ending = await h.createMarket(configOf(wholeRange(YES_NO, 10n ** 20n), { startTime: 1n, endTime: now + 10n }));
    await h.setNextBlockTimestamp(now + 10n);
    assert.deepEqual(await reverted(h.provide({ ...params, marketId: ending })), { errorName: "ExpiredMarket", args: [] });
    assert.deepEqual(await reverted(h.simulateProvide({ ...params, marketId: 10n ** 6n })), { errorName: "InvalidMarket", args: [] });
  });

  test("InvalidRange(tick, bound) for a tick past the market's bounds; a tick off the pool's spacing and an empty range revert with no data; Error(\"TLU\") for a reversed range", async () => {
    const h = groups[18]!;
    const { id, minTick, maxTick } = await market(h);
    const params = { ...paramsOf(id, minTick, maxTick, E18, E18), collateralAmount: 10n * E18 };
    assert.deepEqual(await reverted(h.simulateProvide({ ...params, lowerTick: minTick - 200 })), { errorName: "InvalidRange", args: [minTick - 200, minTick] });
    assert.deepEqual(await reverted(h.simulateProvide({ ...params, upperTick: maxTick + 200 })), { errorName: "InvalidRange", args: [maxTick + 200, maxTick] });
    assert.equal(await revertData(h.simulateProvide({ ...params, lowerTick: minTick + 100 })), "0x");
    assert.equal(await revertData(h.simulateProvide({ ...params, upperTick: minTick })), "0x");
    assert.deepEqual(await reverted(h.simulateProvide({ ...params, lowerTick: maxTick - 200, upperTick: minTick + 200 })), { errorName: "Error", args: ["TLU"] });
  });

  test("the minimum amounts: the pool's tokens as minimums pass, one wei more of either reverts Error(\"Price slippage check\")", async () => {
    const h = groups[18]!;
    const { id, minTick, maxTick } = await market(h);
    const params = { ...paramsOf(id, minTick, maxTick, E18, E18), collateralAmount: 10n * E18 };
    const want = await expected(h, params);
    const exact = { ...params, minAmountBaseToken: want.added0, minAmountQuoteToken: want.added1 };
    assert.equal((await h.simulateProvide(exact)).result[4], want.liquidity);
    for (const more of [{ minAmountBaseToken: want.added0 + 1n }, { minAmountQuoteToken: want.added1 + 1n }]) {
      assert.deepEqual(await reverted(h.simulateProvide({ ...exact, ...more })), { errorName: "Error", args: ["Price slippage check"] });
    }
  });
});

describe("the liquidity views against the arithmetic written here", () => {
  const call = (h: MarketGroupHarness, functionName: "quoteLiquidityPositionTokens" | "getTokensFromLiquidity", args: readonly bigint[]) =>
    h.chain.publicClient.readContract({ address: h.address, abi: marketGroupAbi, functionName, args } as never) as Promise<readonly bigint[]>;

  test("getTokensFromLiquidity and quoteLiquidityPositionTokens on random liquidities, budgets, prices and ranges, in either order", async () => {
    const h = groups[18]!;
    const { id, data } = await market(h);
    const [low, high] = [poolSqrtAtTick(data.baseAssetMinPriceTick), poolSqrtAtTick(data.baseAssetMaxPriceTick)];
    const sqrt = fc.bigInt({ min: low, max: high });
    const outcome = <T>(model: () => T): T | "reverted" => {
      try {
        return model();
      } catch (error) {
        if (error instanceof RangeError) return "reverted";
        throw error;
      }
    };
    let quoted = 0;
    await fc.assert(
      fc.asyncProperty(logBigInt(1n, (1n << 128n) - 1n), logBigInt(1n, 10n ** 30n), sqrt, sqrt, sqrt, async (liquidity, budget, p, a, b) => {
        fc.pre(a !== b);
        assert.deepEqual(await call(h, "getTokensFromLiquidity", [liquidity, p, a, b]), tokensOf(p, a, b, liquidity));
        const answer = await call(h, "quoteLiquidityPositionTokens", [id, budget, p, a, b]).catch(() => "reverted");
        assert.deepEqual(answer, outcome(() => groupQuoteOf(budget, p, a, b, data.minPriceD18, data.maxPriceD18)));
        quoted += typeof answer === "string" ? 0 : 1;
      }),
      { numRuns: 150, seed: 14 },
    );
    assert.ok(quoted >= 100, `${quoted} quotes answered`);
  });

  test("the group's own quote, minted with the budget it was quoted for: a small budget on a narrow range falls short by a few wei (InsufficientCollateral), a large one leaves collateral unused", async () => {
    const h = groups[18]!;
    const { id } = await market(h);
    const { sqrtPriceX96, tick } = await h.pool(id);
    const narrow = [Math.floor(tick / 200) * 200 - 200, Math.ceil(tick / 200) * 200 + 200];
    const shortfalls: bigint[] = [];
    const unused: bigint[] = [];
    for (const budget of [10n ** 16n, 10n ** 16n + 7n, 3n * 10n ** 16n, 10n ** 17n, 10n ** 24n]) {
      const [a, b] = narrow.map(poolSqrtAtTick) as [bigint, bigint];
      const [amount0, amount1] = await call(h, "quoteLiquidityPositionTokens", [id, budget, sqrtPriceX96, a, b]);
      const params = { ...paramsOf(id, narrow[0]!, narrow[1]!, amount0!, amount1!), collateralAmount: budget };
      const { required } = await expected(h, params);
      if (required > budget) {
        assert.deepEqual(await reverted(h.simulateProvide(params)), { errorName: "InsufficientCollateral", args: [required, budget] });
        shortfalls.push(required - budget);
      } else {
        assert.equal((await h.simulateProvide(params)).result[1], required);
        unused.push(budget - required);
      }
    }
    assert.ok(shortfalls.length > 0 && shortfalls.every((s) => s <= 100n), `shortfalls ${shortfalls}`);
    assert.ok(unused.length > 0 && unused.some((u) => u > 10n ** 6n), `unused ${unused}`);
  });
});
