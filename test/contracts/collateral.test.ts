// The collateral side of MarketGroup against the embedded EVM (semantics §10): getMarketGroup and the token's
// decimals, the trade's collateral limit in token units, normalised and enforced like the real
// createTraderPosition, and the collateral it takes.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import fc from "fast-check";
import { getAddress, getContractAddress, maxUint256, parseEventLogs, zeroAddress } from "viem";
import { collateralTokenAbi, marketGroupAbi } from "../../src/generated/contracts.ts";
import { COLLATERAL_SUPPLY, configOf, MarketGroupHarness, reverted } from "./marketGroupHarness.ts";
import { E18, wholeRange, YES_NO, type MarketSpec } from "./poolModel.ts";

const DEEP_YES_NO: MarketSpec = wholeRange(YES_NO, 10n ** 22n);

/** 10^(18-d): one token unit in 18-decimal units. */
const scaleOf = (decimals: number) => 10n ** BigInt(18 - decimals);
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

let usdc: MarketGroupHarness;
let wsteth: MarketGroupHarness;
before(async () => {
  wsteth = await MarketGroupHarness.start(undefined, 18);
  usdc = await MarketGroupHarness.start(wsteth.chain, 6);
});

describe("MarketGroup: getMarketGroup and the collateral token", () => {
  test("getMarketGroup(): the owner, the token the group deployed (its first creation), no fee collector, zero params", async () => {
    for (const h of [wsteth, usdc]) {
      const [owner, collateralAsset, feeCollectorNFT, params] = await h.getMarketGroup();
      assert.equal(owner, getAddress(h.chain.walletClient.account.address));
      assert.equal(collateralAsset, getContractAddress({ from: h.address, nonce: 1n }));
      assert.equal(feeCollectorNFT, zeroAddress);
      assert.deepEqual(params, {
        feeRate: 0,
        assertionLiveness: 0n,
        bondAmount: 0n,
        bondCurrency: zeroAddress,
        uniswapPositionManager: zeroAddress,
        uniswapSwapRouter: zeroAddress,
        uniswapQuoter: zeroAddress,
        optimisticOracleV3: zeroAddress,
      });
      const code = await h.chain.publicClient.getCode({ address: collateralAsset });
      assert.ok(code !== undefined && code.length > 2, "the token has code");
    }
  });

  test("decimals() of the collateral token is the one given at deployment, 0 to 18", async () => {
    assert.equal(await wsteth.collateralDecimals(), 18);
    assert.equal(await usdc.collateralDecimals(), 6);
    for (const decimals of [0, 8, 17]) {
      const h = await MarketGroupHarness.start(wsteth.chain, decimals);
      assert.equal(await h.collateralDecimals(), decimals);
    }
  });

  test("the collateral token is a plain ERC-20: a name, a symbol, its whole supply minted to the owner at deployment", async () => {
    const h = await MarketGroupHarness.start(usdc.chain, 6);
    const read = (functionName: "name" | "symbol" | "totalSupply") =>
      h.chain.publicClient.readContract({ address: h.collateral, abi: collateralTokenAbi, functionName });
    assert.equal(await read("name"), "Market group collateral");
    assert.equal(await read("symbol"), "COLLATERAL");
    assert.equal(await read("totalSupply"), COLLATERAL_SUPPLY);
    // The harness paid half of it to the trader.
    assert.equal(await h.collateralBalance(h.chain.walletClient.account.address), COLLATERAL_SUPPLY / 2n);
    assert.equal(await h.collateralBalance(h.chain.traderClient.account.address), COLLATERAL_SUPPLY / 2n);
  });

  test('a group refuses collateral with more than 18 decimals: InvalidData("collateral decimals above 18")', async () => {
    for (const decimals of [19, 24, 255]) {
      assert.deepEqual(await reverted(MarketGroupHarness.simulateDeploy(wsteth.chain, decimals)), {
        errorName: "InvalidData",
        args: ["collateral decimals above 18"],
      }, `${decimals} decimals`);
    }
    // 18 itself deploys (the same simulation succeeds).
    await MarketGroupHarness.simulateDeploy(wsteth.chain, 18);
  });
});

describe("MarketGroup: the trade's collateral limit, in token units", () => {
  test("CollateralLimitReached(requiredCollateral, limit * 10^(18-d)) exactly when the 18-decimal requirement exceeds the normalised limit; 0 is no limit", async () => {
    for (const h of [wsteth, usdc]) {
      const decimals = await h.collateralDecimals();
      const scale = scaleOf(decimals);
      const id = await h.createMarket(configOf(DEEP_YES_NO));
      for (const size of [10n ** 18n, -(3n * 10n ** 17n), 123_456_789n]) {
        const { requiredCollateral } = await h.quote(id, size);
        assert.ok(requiredCollateral > 0n);
        const maxCollateral = ceilDiv(requiredCollateral, scale);
        if (decimals === 18) assert.equal(maxCollateral, requiredCollateral, "18 decimals: the limit is requiredCollateral itself");
        // A limit of 0 is no limit: one unit less than a requirement of one unit passes.
        for (const limit of [maxCollateral - 1n, 1n, maxCollateral / 2n].filter((l) => l > 0n && l < maxCollateral)) {
          assert.deepEqual(await reverted(h.simulateTrade(id, size, limit)), {
            errorName: "CollateralLimitReached",
            args: [requiredCollateral, limit * scale],
          }, `${decimals} decimals, size ${size}, limit ${limit}`);
        }
        for (const limit of [maxCollateral, maxCollateral + 1n, maxUint256, 0n]) {
          await h.simulateTrade(id, size, limit);
        }
      }
    }
  });

  test("a limit whose normalisation passes 2^256 - 1 saturates instead of overflowing: no limit at all", async () => {
    const id = await usdc.createMarket(configOf(DEEP_YES_NO));
    const { result } = await usdc.simulateTrade(id, 10n ** 18n, maxUint256 / 10n ** 12n + 1n);
    assert.ok(result > 0n, "a position is minted");
  });

  test("the collateral check comes after the quote's: an out-of-range size reverts PoolPriceOutOfRange even with a limit of 1 unit", async () => {
    const id = await usdc.createMarket(configOf(DEEP_YES_NO));
    assert.equal((await reverted(usdc.simulateTrade(id, (1n << 255n) - 1n, 1n))).errorName, "PoolPriceOutOfRange");
    assert.deepEqual(await reverted(usdc.simulateTrade(id, 0n, 1n)), { errorName: "DeltaTradeIsZero", args: [] });
  });
});

/**
 * A large feasible |size| (signed by direction), 0 when none is found: a size is feasible when its quote
 * succeeds, needs at most `budget` and leaves the price no further than `expectedPrice` (semantics §4). Sizes grow
 * 16-fold from 10^6 wei (below it the pool's rounding makes dust trades revert, semantics §4b) up to budget / price
 * until one is not feasible, then a bisection narrows the last step, so the
 * size is close to the largest the budget or the price allows.
 */
async function budgetLimitedSize(h: MarketGroupHarness, id: bigint, budget: bigint, expectedPrice: bigint, direction: 1n | -1n): Promise<bigint> {
  const feasible = async (s: bigint): Promise<boolean> => {
    try {
      const q = await h.quote(id, direction * s);
      return q.requiredCollateral <= budget && (direction > 0n ? q.priceAfter <= expectedPrice : q.priceAfter >= expectedPrice);
    } catch (error) {
      await reverted(Promise.reject(error));
      return false;
    }
  };
  const cap = (budget * E18) / (await h.referencePrice(id));
  let low = 0n;
  let high = 10n ** 6n;
  while (high <= cap && (await feasible(high))) {
    low = high;
    high *= 16n;
  }
  if (high > cap + 1n) high = cap + 1n;
  for (let i = 0; i < 24 && high - low > 1n; i++) {
    const mid = (low + high) / 2n;
    if (await feasible(mid)) low = mid;
    else high = mid;
  }
  return direction * low;
}

for (const decimals of [6, 18]) {
  describe(`MarketGroup: a ${decimals}-decimal group executes what a budget-limited quote promised`, () => {
    test(`random budgets and expected prices: the limit ceil(requiredCollateral / 10^${18 - decimals}) fills and takes exactly that many token units, at most the budget; one unit less reverts CollateralLimitReached`, async () => {
      const h = decimals === 6 ? usdc : wsteth;
      const scale = scaleOf(decimals);
      let budgetBound = 0;
      await fc.assert(
        fc.asyncProperty(
          // Log-uniform budgets, 1e12 to 9e24 wei, so that small and large ones both occur.
          fc.tuple(fc.integer({ min: 12, max: 24 }), fc.bigInt({ min: 1n, max: 9n })).map(([exponent, digit]) => digit * 10n ** BigInt(exponent)),
          fc.constantFrom<1n | -1n>(1n, -1n),
          fc.integer({ min: 1, max: 400 }),
          fc.constantFrom(10n ** 20n, 10n ** 22n, 10n ** 24n),
          async (budget, direction, moveBps, liquidity) => {
            const id = await h.createMarket(configOf(wholeRange(YES_NO, liquidity)));
            const price = await h.referencePrice(id);
            const expectedPrice = (price * (10_000n + direction * BigInt(moveBps))) / 10_000n;
            const size = await budgetLimitedSize(h, id, budget, expectedPrice, direction);
            assert.notEqual(size, 0n, "a budget of at least 1e12 wei finds a size");
            const { requiredCollateral, priceAfter } = await h.quote(id, size);
            assert.ok(requiredCollateral <= budget, "the size came from the budget");
            const maxCollateral = ceilDiv(requiredCollateral, scale);
            assert.ok(maxCollateral >= 1n);
            // The limit in token units never asks for a whole token unit more than needed, so never more than the budget's units.
            assert.ok(maxCollateral * scale - requiredCollateral < scale);
            assert.ok(maxCollateral <= ceilDiv(budget, scale));
            if (decimals === 18) assert.equal(maxCollateral, requiredCollateral);
            // More than half the budget spent: the budget, not the expected price, bound the size.
            if (requiredCollateral * 2n > budget) budgetBound++;

            // One unit less reverts, but where it is 0, which is no limit.
            if (maxCollateral > 1n) {
              assert.deepEqual(await reverted(h.simulateTrade(id, size, maxCollateral - 1n)), {
                errorName: "CollateralLimitReached",
                args: [requiredCollateral, (maxCollateral - 1n) * scale],
              });
            } else await h.simulateTrade(id, size, 0n);
            const trader = h.chain.traderClient.account.address;
            const [traderBefore, groupBefore] = [await h.collateralBalance(trader), await h.collateralBalance(h.address)];
            const logs = await h.trade(id, size, maxCollateral);
            const [trade] = parseEventLogs({ abi: marketGroupAbi, logs, eventName: "Trade" });
            assert.equal(trade?.args.collateralDelta, requiredCollateral, "the trade charged what the quote said");
            assert.ok(trade.args.collateralDelta <= budget, "at most the budget");
            assert.equal(trade.args.sizeDelta, size);
            assert.equal(traderBefore - (await h.collateralBalance(trader)), maxCollateral, "the trader paid the requirement rounded up to token units");
            assert.equal((await h.collateralBalance(h.address)) - groupBefore, maxCollateral, "and the group holds it");
            assert.equal(await h.referencePrice(id), priceAfter, "the trade moved the price where the quote said");
          },
        ),
        { numRuns: 100 },
      );
      assert.ok(budgetBound > 0, "some runs were limited by the budget, not by the price");
    });
  });
}
