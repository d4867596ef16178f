// MarketGroup against the embedded EVM: reverts, ownership, creation bounds, getters and trades.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { getAddress, maxInt256 } from "viem";
import { configOf, MarketGroupHarness, reverted, type MarketConfig } from "./marketGroupHarness.ts";
import { E18, initialPool, MAX_UINT160, maxFillableSize, outOfRangeSqrtPrice, quoteModel, YES_NO } from "./poolModel.ts";

const MIN_INT256 = -(1n << 255n);

let h: MarketGroupHarness;
before(async () => {
  h = await MarketGroupHarness.start();
});

describe("MarketGroup: unknown market ids", () => {
  test("getMarket of an id never created answers both structs all zero (as the real group), without reverting", async () => {
    await h.createMarket(configOf(YES_NO));
    const zero = "0x0000000000000000000000000000000000000000";
    for (const id of [0n, 10n ** 6n, (1n << 256n) - 1n]) {
      const [data, params] = await h.getMarket(id);
      assert.deepEqual(data, {
        marketId: 0n,
        startTime: 0n,
        endTime: 0n,
        pool: zero,
        quoteToken: zero,
        baseToken: zero,
        minPriceD18: 0n,
        maxPriceD18: 0n,
        baseAssetMinPriceTick: 0,
        baseAssetMaxPriceTick: 0,
        settled: false,
        settlementPriceD18: 0n,
        assertionId: `0x${"0".repeat(64)}`,
        claimStatementYesOrNumeric: "0x",
        claimStatementNo: "0x",
      });
      assert.deepEqual(params, {
        feeRate: 0,
        assertionLiveness: 0n,
        bondAmount: 0n,
        bondCurrency: zero,
        uniswapPositionManager: zero,
        uniswapSwapRouter: zero,
        uniswapQuoter: zero,
        optimisticOracleV3: zero,
      });
    }
  });

  test("getReferencePrice, getSqrtPriceX96 and the quote of an id never created revert InvalidMarket()", async () => {
    for (const id of [0n, 10n ** 6n, (1n << 256n) - 1n]) {
      assert.deepEqual(await reverted(h.referencePrice(id)), { errorName: "InvalidMarket", args: [] });
      assert.equal((await reverted(h.sqrtPriceX96(id))).errorName, "InvalidMarket");
      assert.equal((await reverted(h.quote(id, 1n))).errorName, "InvalidMarket");
    }
  });

  test("executeTrade and settleMarket of an id never created revert InvalidMarket()", async () => {
    assert.equal((await reverted(h.trade(10n ** 6n, 1n))).errorName, "InvalidMarket");
    assert.equal((await reverted(h.settle(10n ** 6n, E18))).errorName, "InvalidMarket");
  });
});

describe("MarketGroup: creation", () => {
  test("createMarket: ids start at 1 and increase by one, each announced by MarketCreated(marketId)", async () => {
    const fresh = await MarketGroupHarness.start(h.chain);
    assert.equal(await fresh.createMarket(configOf(YES_NO)), 1n);
    assert.equal(await fresh.createMarket(configOf(YES_NO)), 2n);
    assert.equal(await fresh.createMarket(configOf(YES_NO)), 3n);
  });

  test("getMarket: the config, pool = the contract, virtual tokens and ticks 0, assertionId 0, only feeRate in the params", async () => {
    const config: MarketConfig = { ...configOf(YES_NO, { startTime: 1000n, endTime: 1n << 41n }), claimStatementYesOrNumeric: "0x0102", claimStatementNo: "0xabcdef" };
    const id = await h.createMarket(config);
    const [data, params] = await h.getMarket(id);
    assert.deepEqual(data, {
      marketId: id,
      startTime: 1000n,
      endTime: 1n << 41n,
      pool: getAddress(h.address),
      quoteToken: "0x0000000000000000000000000000000000000000",
      baseToken: "0x0000000000000000000000000000000000000000",
      minPriceD18: YES_NO.minPriceD18,
      maxPriceD18: YES_NO.maxPriceD18,
      baseAssetMinPriceTick: 0,
      baseAssetMaxPriceTick: 0,
      settled: false,
      settlementPriceD18: 0n,
      assertionId: `0x${"0".repeat(64)}`,
      claimStatementYesOrNumeric: "0x0102",
      claimStatementNo: "0xabcdef",
    });
    assert.deepEqual(params, {
      feeRate: 10_000,
      assertionLiveness: 0n,
      bondAmount: 0n,
      bondCurrency: "0x0000000000000000000000000000000000000000",
      uniswapPositionManager: "0x0000000000000000000000000000000000000000",
      uniswapSwapRouter: "0x0000000000000000000000000000000000000000",
      uniswapQuoter: "0x0000000000000000000000000000000000000000",
      optimisticOracleV3: "0x0000000000000000000000000000000000000000",
    });
  });

  test("a new market's reference price is the config price and its sqrt price floor(sqrt(price * 2^192 / 1e18))", async () => {
    for (const priceD18 of [YES_NO.priceD18, 123_456_789_012_345_678n, YES_NO.minPriceD18 + 1n, YES_NO.maxPriceD18 - 1n]) {
      const id = await h.createMarket(configOf({ ...YES_NO, priceD18 }));
      assert.equal(await h.referencePrice(id), priceD18);
      assert.equal(await h.sqrtPriceX96(id), initialPool({ ...YES_NO, priceD18 }).sqrtPriceX96);
    }
  });

  test("createMarket rejects every bound violation with InvalidData(reason)", async () => {
    const base = configOf(YES_NO);
    const cases: [string, Partial<MarketConfig>][] = [
      ["start time is zero", { startTime: 0n }],
      ["start time not before end time", { startTime: 5000n, endTime: 5000n }],
      ["start time not before end time", { startTime: 5001n, endTime: 5000n }],
      ["min price below 1e12", { minPriceD18: 10n ** 12n - 1n }],
      ["max price above 1e24", { maxPriceD18: 10n ** 24n + 1n }],
      ["price not strictly between min and max price", { priceD18: YES_NO.minPriceD18 }],
      ["price not strictly between min and max price", { priceD18: YES_NO.maxPriceD18 }],
      ["price not strictly between min and max price", { priceD18: YES_NO.minPriceD18 - 1n }],
      ["price not strictly between min and max price", { priceD18: YES_NO.maxPriceD18 + 1n }],
      ["price not strictly between min and max price", { minPriceD18: E18, maxPriceD18: E18 / 2n }],
      ["liquidity is zero", { liquidity: 0n }],
      ["liquidity above 2^80", { liquidity: (1n << 80n) + 1n }],
      ["fee rate above 100000", { feeRate: 100_001 }],
    ];
    for (const [reason, change] of cases) {
      const revert = await reverted(h.simulateCreateMarket({ ...base, ...change }));
      assert.deepEqual(revert, { errorName: "InvalidData", args: [reason] }, JSON.stringify(change, (_, v) => (typeof v === "bigint" ? `${v}` : v)));
    }
  });

  test("createMarket accepts the extreme bounds: prices 1e12 and 1e24, liquidity 2^80, fee 100000", async () => {
    const extreme = { priceD18: E18, minPriceD18: 10n ** 12n, maxPriceD18: 10n ** 24n, liquidity: 1n << 80n, feeRate: 100_000n };
    const id = await h.createMarket(configOf(extreme));
    const pool = initialPool(extreme);
    for (const direction of [1n, -1n] as const) {
      const max = maxFillableSize(pool, direction);
      assert.deepEqual(await h.quote(id, direction * max), pick(quoteModel(pool, direction * max)));
    }
  });
});

describe("MarketGroup: ownership", () => {
  test("onlyOwner: createMarket and settleMarket from another account revert OwnableUnauthorizedAccount(account)", async () => {
    const trader = h.chain.traderClient.account;
    const id = await h.createMarket(configOf(YES_NO));
    assert.deepEqual(await reverted(h.simulateCreateMarket(configOf(YES_NO), trader)), {
      errorName: "OwnableUnauthorizedAccount",
      args: [trader.address],
    });
    assert.deepEqual(await reverted(h.simulateSettle(id, E18, trader)), {
      errorName: "OwnableUnauthorizedAccount",
      args: [trader.address],
    });
  });

  test("executeTrade is open to anyone (the trader account trades)", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const logs = await h.trade(id, 10n ** 18n);
    const trade = logs.find((l) => l.eventName === "Trade");
    assert.equal(trade?.args && "trader" in trade.args ? trade.args.trader : undefined, getAddress(h.chain.traderClient.account.address));
  });
});

describe("MarketGroup: quote reverts", () => {
  test('size 0 reverts InvalidData("size is zero")', async () => {
    const id = await h.createMarket(configOf(YES_NO));
    assert.deepEqual(await reverted(h.quote(id, 0n)), { errorName: "InvalidData", args: ["size is zero"] });
    assert.deepEqual(await reverted(h.trade(id, 0n)), { errorName: "InvalidData", args: ["size is zero"] });
  });

  test("settled: quote and trade revert MarketSettled(), getReferencePrice is the settlement price, getMarket says settled", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    await h.settle(id, E18);
    assert.equal((await reverted(h.quote(id, 1n))).errorName, "MarketSettled");
    assert.equal((await reverted(h.quote(id, -1n))).errorName, "MarketSettled");
    assert.equal((await reverted(h.trade(id, 1n))).errorName, "MarketSettled");
    assert.equal(await h.referencePrice(id), E18);
    const [data] = await h.getMarket(id);
    assert.equal(data.settled, true);
    assert.equal(data.settlementPriceD18, E18);
    assert.notEqual(data.startTime, 0n);
  });

  test("settleMarket twice reverts MarketSettled(); a settlement price of 0 is allowed", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    await h.settle(id, 0n);
    assert.equal(await h.referencePrice(id), 0n);
    assert.equal((await reverted(h.settle(id, E18))).errorName, "MarketSettled");
  });

  test("out of range: LONG past the max price and SHORT past the min price revert PoolPriceOutOfRange(poolPrice, sqrtMin, sqrtMax), up to ±(2^255-1) and int256 min", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const pool = initialPool(YES_NO);
    const maxLong = maxFillableSize(pool, 1n);
    const maxShort = maxFillableSize(pool, -1n);
    const range = [pool.sqrtMinX96, pool.sqrtMaxX96];
    for (const size of [maxLong + 1n, maxLong * 2n, 10n ** 40n, maxInt256, -(maxShort + 1n), -(maxShort * 3n), -maxInt256, MIN_INT256]) {
      assert.deepEqual(await reverted(h.quote(id, size)), { errorName: "PoolPriceOutOfRange", args: [outOfRangeSqrtPrice(pool, size), ...range] }, `size ${size}`);
    }
    // The reported sqrt price is the one the trade would reach, just outside the range at the edges.
    const justLong = await reverted(h.quote(id, maxLong + 1n));
    assert.ok((justLong.args[0] as bigint) > pool.sqrtMaxX96 && (justLong.args[0] as bigint) < pool.sqrtMaxX96 + 10n ** 12n, `${justLong.args[0]}`);
    const justShort = await reverted(h.quote(id, -(maxShort + 1n)));
    assert.ok((justShort.args[0] as bigint) < pool.sqrtMinX96 && (justShort.args[0] as bigint) > pool.sqrtMinX96 - 10n ** 12n, `${justShort.args[0]}`);
    // A LONG that would take every base token the pool holds reaches no price: saturated at 2^160 - 1.
    const liquidityQ96 = YES_NO.liquidity << 96n;
    const drainsThePool = liquidityQ96 / pool.sqrtPriceX96 + 1n;
    assert.deepEqual((await reverted(h.quote(id, drainsThePool))).args, [MAX_UINT160, ...range]);
    assert.deepEqual((await reverted(h.quote(id, maxInt256))).args, [MAX_UINT160, ...range]);
    // A SHORT whose denominator L*Q + s*X passes 256 bits reports 0; the largest that fits reports its exact price.
    const largestComputableShort = ((1n << 256n) - 1n - liquidityQ96) / pool.sqrtPriceX96;
    assert.deepEqual((await reverted(h.quote(id, -(largestComputableShort + 1n)))).args, [0n, ...range]);
    const computed = await reverted(h.quote(id, -largestComputableShort));
    assert.deepEqual(computed.args, [outOfRangeSqrtPrice(pool, -largestComputableShort), ...range]);
    assert.ok((computed.args[0] as bigint) > 0n);
    // The largest fillable sizes still quote, and take the price to the edges of the range.
    const long = await h.quote(id, maxLong);
    const short = await h.quote(id, -maxShort);
    assert.ok(long.priceAfter <= YES_NO.maxPriceD18 && long.priceAfter > YES_NO.maxPriceD18 - 10n ** 6n, `${long.priceAfter}`);
    assert.ok(short.priceAfter >= YES_NO.minPriceD18 - 1n && short.priceAfter < YES_NO.minPriceD18 + 10n ** 6n, `${short.priceAfter}`);
  });

  test("not started: quote reverts MarketNotStarted() before startTime; expired and never settled: quotes revert ExpiredMarketNotSettled(endTime), trades ExpiredMarket()", async () => {
    const now = await h.latestTimestamp();
    const future = await h.createMarket(configOf(YES_NO, { startTime: now + 10n ** 6n, endTime: now + 2n * 10n ** 6n }));
    const past = await h.createMarket(configOf(YES_NO, { startTime: 1n, endTime: now - 1n }));
    assert.equal((await reverted(h.quote(future, 1n))).errorName, "MarketNotStarted");
    assert.equal((await reverted(h.quote(future, -1n))).errorName, "MarketNotStarted");
    for (const size of [1n, -1n, 10n ** 18n, maxInt256, 0n]) {
      assert.deepEqual(await reverted(h.quote(past, size)), { errorName: "ExpiredMarketNotSettled", args: [now - 1n] }, `size ${size}`);
    }
    assert.deepEqual(await reverted(h.trade(past, -1n)), { errorName: "ExpiredMarket", args: [] });
    assert.deepEqual(await reverted(h.simulateTrade(past, 1n, 0n)), { errorName: "ExpiredMarket", args: [] });
    // Once settled, the settlement decides: MarketSettled() for quotes and trades alike.
    await h.settle(past, E18);
    assert.deepEqual(await reverted(h.quote(past, 1n)), { errorName: "MarketSettled", args: [] });
    assert.deepEqual(await reverted(h.trade(past, 1n)), { errorName: "MarketSettled", args: [] });
  });

  test("time window: a market opens at startTime and closes after endTime, both inclusive (evm_increaseTime, exact block timestamps)", async () => {
    const now = await h.latestTimestamp();
    const start = now + 100n;
    const end = now + 1000n;
    const id = await h.createMarket(configOf(YES_NO, { startTime: start, endTime: end }));
    await h.setNextBlockTimestamp(start - 1n);
    assert.equal((await reverted(h.trade(id, 1n))).errorName, "MarketNotStarted");
    await h.setNextBlockTimestamp(start);
    await h.trade(id, 1n);
    await h.chain.provider.request({ method: "evm_increaseTime", params: [400] });
    await h.chain.provider.request({ method: "evm_mine", params: [] });
    await h.quote(id, 10n ** 15n);
    await h.setNextBlockTimestamp(end);
    await h.trade(id, -1n);
    await h.setNextBlockTimestamp(end + 1n);
    assert.equal((await reverted(h.trade(id, 1n))).errorName, "ExpiredMarket");
    assert.deepEqual(await reverted(h.quote(id, 1n)), { errorName: "ExpiredMarketNotSettled", args: [end] });
  });
});

describe("MarketGroup: prices and trades", () => {
  test("LONG raises the price, SHORT lowers it; the fill price lies between the prices before and after", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const price = await h.referencePrice(id);
    const long = await h.quote(id, 10n ** 19n);
    const short = await h.quote(id, -(10n ** 19n));
    assert.ok(long.priceAfter > long.fillPrice && long.fillPrice > price, JSON.stringify(long, bigintText));
    assert.ok(short.priceAfter < short.fillPrice && short.fillPrice < price, JSON.stringify(short, bigintText));
    assert.ok(long.requiredCollateral > 0n && short.requiredCollateral > 0n);
  });

  test("executeTrade returns and emits the quote's numbers and moves getReferencePrice/getSqrtPriceX96 to what the quote promised", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    let pool = initialPool(YES_NO);
    for (const size of [3n * 10n ** 18n, -(7n * 10n ** 18n), 1n, -1n, 5n * 10n ** 17n]) {
      const quoted = await h.quote(id, size);
      const model = quoteModel(pool, size);
      assert.notEqual(model, "out-of-range");
      if (model === "out-of-range") return;
      const { result } = await h.simulateTrade(id, size);
      assert.deepEqual(result, [quoted.requiredCollateral, quoted.fillPrice, quoted.priceAfter]);
      const logs = await h.trade(id, size);
      const trade = logs.find((l) => l.eventName === "Trade");
      assert.deepEqual(trade?.args, {
        marketId: id,
        trader: getAddress(h.chain.traderClient.account.address),
        size,
        requiredCollateral: quoted.requiredCollateral,
        fillPrice: quoted.fillPrice,
        price18DigitsAfter: quoted.priceAfter,
        sqrtPriceX96After: model.sqrtPriceAfter,
      });
      assert.equal(await h.referencePrice(id), quoted.priceAfter);
      assert.equal(await h.sqrtPriceX96(id), model.sqrtPriceAfter);
      pool = { ...pool, sqrtPriceX96: model.sqrtPriceAfter };
    }
  });
});

function pick(q: ReturnType<typeof quoteModel>) {
  assert.notEqual(q, "out-of-range");
  if (q === "out-of-range") throw new Error("out of range");
  return { requiredCollateral: q.requiredCollateral, fillPrice: q.fillPrice, priceAfter: q.priceAfter };
}

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
