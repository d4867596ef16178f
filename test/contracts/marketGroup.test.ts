// MarketGroup against the embedded EVM, on real Uniswap v3 pools: reverts, ownership, creation bounds, the pool and
// its liquidity, getters and trades.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { getAddress, hexToBytes, maxInt256, parseEventLogs, zeroAddress } from "viem";
import { uniswapV3Factory, uniswapV3Pool } from "../../src/devchain/uniswap.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { configOf, factoryOn, MarketGroupHarness, reverted, type MarketConfig } from "./marketGroupHarness.ts";
import { ceilOf, ceilSqrtRatio, compareRatios, E18, moveLoss, MULTI_RANGE, priceOfSqrt, Q96, sqrtOfPrice, TICK_SPACING, YES_NO } from "./poolModel.ts";

const MIN_INT256 = -(1n << 255n);

let h: MarketGroupHarness;
before(async () => {
  h = await MarketGroupHarness.start();
});

/** Uniswap's sqrt price of `tick`, exact: ceil(sqrt(1.0001^tick) * 2^96). */
function exactSqrtAtTick(tick: number): bigint {
  const t = BigInt(Math.abs(tick));
  const [up, down] = [10001n ** t, 10000n ** t];
  return tick >= 0 ? ceilSqrtRatio(up * Q96 * Q96, down) : ceilSqrtRatio(down * Q96 * Q96, up);
}

/** The largest |size| in `direction` that fills, by bisection on the chain's quotes. */
async function largestFill(id: bigint, direction: 1n | -1n): Promise<bigint> {
  let [low, high] = [10n ** 6n, 10n ** 40n];
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    const fills = await h.quote(id, direction * mid).then(() => true, async (error) => (await reverted(Promise.reject(error))).errorName !== "PoolPriceOutOfRange");
    if (fills) low = mid;
    else high = mid;
  }
  return low;
}

describe("MarketGroup: unknown market ids", () => {
  test("getMarket of an id never created answers both structs all zero (as the real group), without reverting", async () => {
    await h.createMarket(configOf(YES_NO));
    for (const id of [0n, 10n ** 6n, (1n << 256n) - 1n]) {
      const [data, params] = await h.getMarket(id);
      assert.deepEqual(data, {
        marketId: 0n, startTime: 0n, endTime: 0n, pool: zeroAddress, quoteToken: zeroAddress, baseToken: zeroAddress,
        minPriceD18: 0n, maxPriceD18: 0n, baseAssetMinPriceTick: 0, baseAssetMaxPriceTick: 0, settled: false,
        settlementPriceD18: 0n, assertionId: `0x${"0".repeat(64)}`, claimStatementYesOrNumeric: "0x", claimStatementNo: "0x",
      });
      assert.deepEqual(params, {
        feeRate: 0, assertionLiveness: 0n, bondAmount: 0n, bondCurrency: zeroAddress, uniswapPositionManager: zeroAddress,
        uniswapSwapRouter: zeroAddress, uniswapQuoter: zeroAddress, optimisticOracleV3: zeroAddress,
      });
    }
  });

  test("getReferencePrice, getSqrtPriceX96, the quote and the trade of an id never created revert InvalidMarket()", async () => {
    for (const id of [0n, 10n ** 6n, (1n << 256n) - 1n]) {
      assert.deepEqual(await reverted(h.referencePrice(id)), { errorName: "InvalidMarket", args: [] });
      assert.equal((await reverted(h.sqrtPriceX96(id))).errorName, "InvalidMarket");
      assert.equal((await reverted(h.quote(id, 1n))).errorName, "InvalidMarket");
    }
    assert.equal((await reverted(h.trade(10n ** 6n, 1n))).errorName, "InvalidMarket");
    assert.equal((await reverted(h.settle(10n ** 6n, E18))).errorName, "InvalidMarket");
  });
});

describe("MarketGroup: a market is a Uniswap v3 pool", () => {
  test("createMarket: ids start at 1 and increase by one, each announced by MarketCreated(marketId)", async () => {
    const fresh = await MarketGroupHarness.start(h.chain);
    for (const expected of [1n, 2n, 3n]) assert.equal(await fresh.createMarket(configOf(YES_NO)), expected);
  });

  test("getMarket: pool is the factory's pool of (base, quote, fee tier), base is token0, ticks bound the liquidity and the price range is theirs (prices rounded down); the params carry the fee", async () => {
    const config: MarketConfig = { ...configOf(MULTI_RANGE, { startTime: 1000n, endTime: 1n << 41n }), claimStatementYesOrNumeric: "0x0102", claimStatementNo: "0xabcdef" };
    const id = await h.createMarket(config);
    const [data, params] = await h.getMarket(id);
    const factory = await factoryOn(h.chain);
    const read = (address: `0x${string}`, abi: any, functionName: string, args: unknown[] = []) => h.chain.publicClient.readContract({ address, abi, functionName, args } as never) as Promise<any>;
    assert.equal(await read(factory, uniswapV3Factory().abi, "getPool", [data.baseToken, data.quoteToken, 10_000]), data.pool);
    assert.ok(BigInt(data.baseToken) < BigInt(data.quoteToken), "base is token0");
    assert.equal(await read(data.pool, uniswapV3Pool().abi, "token0"), data.baseToken);
    assert.equal(await read(data.pool, uniswapV3Pool().abi, "fee"), 10_000);
    const ranges = await h.ranges(id);
    assert.equal(data.baseAssetMinPriceTick, Math.min(...ranges.map((r) => r.tickLower)));
    assert.equal(data.baseAssetMaxPriceTick, Math.max(...ranges.map((r) => r.tickUpper)));
    assert.deepEqual({ ...data, pool: undefined, baseToken: undefined, quoteToken: undefined, baseAssetMinPriceTick: undefined, baseAssetMaxPriceTick: undefined }, {
      marketId: id, startTime: 1000n, endTime: 1n << 41n, pool: undefined, quoteToken: undefined, baseToken: undefined,
      minPriceD18: priceOfSqrt(ranges[0]!.sqrtLowerX96), maxPriceD18: priceOfSqrt(ranges[0]!.sqrtUpperX96), baseAssetMinPriceTick: undefined, baseAssetMaxPriceTick: undefined,
      settled: false, settlementPriceD18: 0n, assertionId: `0x${"0".repeat(64)}`, claimStatementYesOrNumeric: "0x0102", claimStatementNo: "0xabcdef",
    });
    assert.deepEqual(params, {
      feeRate: 10_000, assertionLiveness: 0n, bondAmount: 0n, bondCurrency: zeroAddress, uniswapPositionManager: zeroAddress,
      uniswapSwapRouter: zeroAddress, uniswapQuoter: zeroAddress, optimisticOracleV3: zeroAddress,
    });
  });

  test("the pool runs v3-core's published UniswapV3Pool code (its bytes, but the immutables the factory fills in)", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const code = hexToBytes((await h.chain.publicClient.getCode({ address: (await h.pool(id)).address }))!);
    const published = hexToBytes(uniswapV3Pool().deployedBytecode);
    assert.equal(code.length, published.length);
    const differing = published.filter((byte, i) => byte !== code[i] && byte !== 0).length;
    assert.equal(differing, 0, "only bytes the artifact leaves zero (immutables) differ");
  });

  test("each range is rounded inward to ticks of the fee tier's spacing: the tightest multiples inside its prices; the stored sqrt prices are Uniswap's", async () => {
    for (const feeRate of [500, 3000, 10_000]) {
      const spec = { ...MULTI_RANGE, feeRate };
      const id = await h.createMarket(configOf(spec));
      const ranges = await h.ranges(id);
      const spacing = TICK_SPACING[feeRate]!;
      for (const [i, range] of ranges.entries()) {
        const wanted = spec.ranges[i]!;
        assert.equal(Math.abs(range.tickLower % spacing), 0);
        assert.equal(Math.abs(range.tickUpper % spacing), 0);
        assert.equal(range.sqrtLowerX96, exactSqrtAtTick(range.tickLower), `tick ${range.tickLower}`);
        assert.equal(range.sqrtUpperX96, exactSqrtAtTick(range.tickUpper), `tick ${range.tickUpper}`);
        assert.ok(range.sqrtLowerX96 >= sqrtOfPrice(wanted.minPriceD18, true) && exactSqrtAtTick(range.tickLower - spacing) < sqrtOfPrice(wanted.minPriceD18, true));
        assert.ok(range.sqrtUpperX96 <= sqrtOfPrice(wanted.maxPriceD18) && exactSqrtAtTick(range.tickUpper + spacing) > sqrtOfPrice(wanted.maxPriceD18));
        assert.equal(range.liquidity, wanted.liquidity);
      }
    }
  });

  test("a new market's pool starts at floor(sqrt(price)) and its reference price is the pool's, rounded down: 0.5 reads 0.499999999999999999", async () => {
    for (const priceD18 of [YES_NO.priceD18, 123_456_789_012_345_678n, (E18 * 3n) / 100n, (E18 * 97n) / 100n]) {
      const id = await h.createMarket(configOf({ ...YES_NO, priceD18 }));
      assert.equal(await h.sqrtPriceX96(id), sqrtOfPrice(priceD18));
      assert.equal((await h.pool(id)).sqrtPriceX96, sqrtOfPrice(priceD18));
      assert.equal(await h.referencePrice(id), priceOfSqrt(sqrtOfPrice(priceD18)));
    }
    assert.equal(await h.referencePrice(await h.createMarket(configOf(YES_NO))), E18 / 2n - 1n);
  });

  test("createMarket rejects every bound violation with InvalidData(reason)", async () => {
    const base = configOf(YES_NO);
    const range = base.ranges[0]!;
    const cases: [string, Partial<MarketConfig>][] = [
      ["start time is zero", { startTime: 0n }],
      ["start time not before end time", { startTime: 5000n, endTime: 5000n }],
      ["min price below 1e12", { minPriceD18: 10n ** 12n - 1n }],
      ["max price above 1e24", { maxPriceD18: 10n ** 24n + 1n }],
      ["price not strictly between min and max price", { priceD18: YES_NO.minPriceD18 }],
      ["price not strictly between min and max price", { priceD18: YES_NO.maxPriceD18 }],
      ["fee rate not a v3 fee tier", { feeRate: 100 }],
      ["fee rate not a v3 fee tier", { feeRate: 10_001 }],
      ["not 1 to 8 liquidity ranges", { ranges: [] }],
      ["not 1 to 8 liquidity ranges", { ranges: Array(9).fill(range) }],
      ["liquidity is zero", { ranges: [{ ...range, liquidity: 0n }] }],
      ["liquidity above 2^80", { ranges: [{ ...range, liquidity: (1n << 80n) + 1n }] }],
      ["range outside the price range", { ranges: [{ ...range, minPriceD18: range.minPriceD18 - 1n }] }],
      ["range outside the price range", { ranges: [range, { ...range, maxPriceD18: range.maxPriceD18 + 1n }] }],
      ["range does not contain the price once rounded to ticks", { ranges: [{ ...range, minPriceD18: (E18 * 6n) / 10n }] }],
      // 0.5 to 0.505 holds no whole tick spacing (200 ticks, about 2%) above the price.
      ["range does not contain the price once rounded to ticks", { ranges: [{ ...range, maxPriceD18: (E18 * 505n) / 1000n }] }],
    ];
    for (const [reason, change] of cases) {
      const revert = await reverted(h.simulateCreateMarket({ ...base, ...change }));
      assert.deepEqual(revert, { errorName: "InvalidData", args: [reason] }, JSON.stringify(change, (_, v) => (typeof v === "bigint" ? `${v}` : v)));
    }
  });

  test("createMarket accepts the extreme bounds: prices 1e12 and 1e24, liquidity 2^80, every fee tier; quotes fill both ways", async () => {
    for (const feeRate of [500, 3000, 10_000]) {
      const extreme = { priceD18: E18, minPriceD18: 10n ** 12n, maxPriceD18: 10n ** 24n, feeRate, ranges: [{ minPriceD18: 10n ** 12n, maxPriceD18: 10n ** 24n, liquidity: 1n << 80n }] };
      const id = await h.createMarket(configOf(extreme));
      for (const size of [10n ** 24n, -(10n ** 24n)]) assert.ok((await h.quote(id, size)).requiredCollateral > 0n);
    }
  });
});

describe("MarketGroup: ownership", () => {
  test("onlyOwner: createMarket and settleMarket from another account revert OwnableUnauthorizedAccount(account)", async () => {
    const trader = h.chain.traderClient.account;
    const id = await h.createMarket(configOf(YES_NO));
    assert.deepEqual(await reverted(h.simulateCreateMarket(configOf(YES_NO), trader)), { errorName: "OwnableUnauthorizedAccount", args: [trader.address] });
    assert.deepEqual(await reverted(h.simulateSettle(id, E18, trader)), { errorName: "OwnableUnauthorizedAccount", args: [trader.address] });
  });

  test("createTraderPosition is open to anyone: the trader account trades, and the position is its", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const trade = (await h.trade(id, 10n ** 18n)).find((l) => l.eventName === "Trade");
    assert.equal(trade?.args && "trader" in trade.args ? trade.args.trader : undefined, getAddress(h.chain.traderClient.account.address));
    assert.equal(await h.ownerOf(trade?.args && "positionId" in trade.args ? trade.args.positionId : 0n), getAddress(h.chain.traderClient.account.address));
  });

  test("the pool's callbacks pay only the pool the group is trading on: a direct call reverts UnexpectedCallback()", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const { address: pool } = await h.pool(id);
    const asTrader = (functionName: string, args: unknown[]) =>
      h.chain.publicClient.simulateContract({ address: h.address, abi: marketGroupAbi, functionName, args, account: h.chain.traderClient.account } as never);
    assert.equal((await reverted(asTrader("uniswapV3SwapCallback", [1n, 1n, encodeCallbackData(id, false)]))).errorName, "UnexpectedCallback");
    assert.equal((await reverted(asTrader("uniswapV3MintCallback", [1n, 1n, encodeCallbackData(id)]))).errorName, "UnexpectedCallback");
    // Even from the pool's address, outside a trade of the group (impersonated).
    await h.chain.provider.request({ method: "anvil_impersonateAccount", params: [pool] } as never);
    await h.chain.provider.request({ method: "anvil_setBalance", params: [pool, "0xde0b6b3a7640000"] } as never);
    const fromPool = (functionName: string, args: unknown[]) =>
      h.chain.publicClient.simulateContract({ address: h.address, abi: marketGroupAbi, functionName, args, account: pool } as never);
    assert.equal((await reverted(fromPool("uniswapV3SwapCallback", [1n, 1n, encodeCallbackData(id, false)]))).errorName, "UnexpectedCallback");
    assert.equal((await reverted(fromPool("uniswapV3MintCallback", [1n, 1n, encodeCallbackData(id)]))).errorName, "UnexpectedCallback");
  });
});

function encodeCallbackData(id: bigint, simulation?: boolean): `0x${string}` {
  const word = (value: bigint) => value.toString(16).padStart(64, "0");
  return `0x${word(id)}${simulation === undefined ? "" : word(simulation ? 1n : 0n)}`;
}

describe("MarketGroup: quote reverts", () => {
  test('size 0: the quote reverts InvalidData("size is zero"), the trade DeltaTradeIsZero() (the real group\'s)', async () => {
    const id = await h.createMarket(configOf(YES_NO));
    assert.deepEqual(await reverted(h.quote(id, 0n)), { errorName: "InvalidData", args: ["size is zero"] });
    assert.deepEqual(await reverted(h.trade(id, 0n)), { errorName: "DeltaTradeIsZero", args: [] });
  });

  test("settled: quote and trade revert MarketSettled(), getReferencePrice is the settlement price, getMarket says settled", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    await h.settle(id, E18);
    for (const size of [1n, -1n]) assert.equal((await reverted(h.quote(id, size))).errorName, "MarketSettled");
    assert.equal((await reverted(h.trade(id, 1n))).errorName, "MarketSettled");
    assert.equal(await h.referencePrice(id), E18);
    const [data] = await h.getMarket(id);
    assert.equal(data.settled, true);
    assert.equal(data.settlementPriceD18, E18);
    assert.equal((await reverted(h.settle(id, E18))).errorName, "MarketSettled");
  });

  test("out of range: the swap stops one unit past the range (the liquidity's outer ticks) and reverts PoolPriceOutOfRange(poolPrice, sqrtMin, sqrtMax); the largest fills end at its edges", async () => {
    const id = await h.createMarket(configOf(MULTI_RANGE));
    const whole = (await h.ranges(id))[0]!;
    const [sqrtMin, sqrtMax] = [whole.sqrtLowerX96, whole.sqrtUpperX96];
    for (const size of [10n ** 40n, maxInt256]) {
      assert.deepEqual(await reverted(h.quote(id, size)), { errorName: "PoolPriceOutOfRange", args: [sqrtMax + 1n, sqrtMin, sqrtMax] }, `size ${size}`);
    }
    for (const size of [-(10n ** 40n), -maxInt256, MIN_INT256]) {
      assert.deepEqual(await reverted(h.quote(id, size)), { errorName: "PoolPriceOutOfRange", args: [sqrtMin - 1n, sqrtMin, sqrtMax] }, `size ${size}`);
    }
    const maxLong = await largestFill(id, 1n);
    const maxShort = await largestFill(id, -1n);
    // The largest fills take the price to the edges of the range, within the rounding of one wei of size.
    const top = (await h.quote(id, maxLong)).priceAfter;
    const bottom = (await h.quote(id, -maxShort)).priceAfter;
    assert.ok(top <= priceOfSqrt(sqrtMax) && top >= priceOfSqrt(sqrtMax) - 10n ** 6n, `${top}`);
    assert.ok(bottom >= priceOfSqrt(sqrtMin) && bottom <= priceOfSqrt(sqrtMin) + 10n ** 6n, `${bottom}`);
    assert.deepEqual((await reverted(h.quote(id, maxLong + 1n))).args, [sqrtMax + 1n, sqrtMin, sqrtMax]);
    assert.deepEqual((await reverted(h.quote(id, -(maxShort + 1n)))).args, [sqrtMin - 1n, sqrtMin, sqrtMax]);
    assert.equal((await reverted(h.trade(id, maxLong + 1n))).errorName, "PoolPriceOutOfRange");
  });

  test("dust (semantics §4b): a LONG of 1 wei pays 2 and reverts TradePriceOutOfBounds(2e18, min, max); a SHORT of 1 wei gets no quote token, InvalidInternalTradeSize(0)", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const [{ minPriceD18, maxPriceD18 }] = await h.getMarket(id);
    assert.deepEqual(await reverted(h.quote(id, 1n)), { errorName: "TradePriceOutOfBounds", args: [2n * E18, minPriceD18, maxPriceD18] });
    assert.deepEqual(await reverted(h.quote(id, -1n)), { errorName: "InvalidInternalTradeSize", args: [0n] });
    // From 10^6 wei (the exact search's DUST) up, both fill.
    for (const size of [10n ** 6n, -(10n ** 6n)]) assert.ok((await h.quote(id, size)).requiredCollateral > 0n);
  });

  test("not started: quote reverts MarketNotStarted() before startTime; expired and never settled: quotes revert ExpiredMarketNotSettled(endTime), trades ExpiredMarket()", async () => {
    const now = await h.latestTimestamp();
    const future = await h.createMarket(configOf(YES_NO, { startTime: now + 10n ** 6n, endTime: now + 2n * 10n ** 6n }));
    const past = await h.createMarket(configOf(YES_NO, { startTime: 1n, endTime: now - 1n }));
    for (const size of [1n, -1n]) assert.equal((await reverted(h.quote(future, size))).errorName, "MarketNotStarted");
    for (const size of [1n, -1n, 10n ** 18n, maxInt256, 0n]) {
      assert.deepEqual(await reverted(h.quote(past, size)), { errorName: "ExpiredMarketNotSettled", args: [now - 1n] }, `size ${size}`);
    }
    assert.deepEqual(await reverted(h.trade(past, -(10n ** 18n))), { errorName: "ExpiredMarket", args: [] });
    await h.settle(past, E18);
    assert.deepEqual(await reverted(h.quote(past, 1n)), { errorName: "MarketSettled", args: [] });
  });

  test("time window: a market opens at startTime and closes after endTime, both inclusive (exact block timestamps)", async () => {
    const now = await h.latestTimestamp();
    const [start, end] = [now + 100n, now + 1000n];
    const id = await h.createMarket(configOf(YES_NO, { startTime: start, endTime: end }));
    await h.setNextBlockTimestamp(start - 1n);
    assert.equal((await reverted(h.trade(id, 10n ** 18n))).errorName, "MarketNotStarted");
    await h.setNextBlockTimestamp(start);
    await h.trade(id, 10n ** 18n);
    await h.setNextBlockTimestamp(end);
    await h.trade(id, -(10n ** 18n));
    await h.setNextBlockTimestamp(end + 1n);
    assert.equal((await reverted(h.trade(id, 10n ** 18n))).errorName, "ExpiredMarket");
    assert.deepEqual(await reverted(h.quote(id, 1n)), { errorName: "ExpiredMarketNotSettled", args: [end] });
  });
});

describe("MarketGroup: trades on the pool", () => {
  test("LONG raises the price, SHORT lowers it; the fill price lies between the prices before and after", async () => {
    const id = await h.createMarket(configOf(YES_NO));
    const price = await h.referencePrice(id);
    const long = await h.quote(id, 10n ** 19n);
    const short = await h.quote(id, -(10n ** 19n));
    assert.ok(long.priceAfter > long.fillPrice && long.fillPrice > price);
    assert.ok(short.priceAfter < short.fillPrice && short.fillPrice < price);
  });

  test("createTraderPosition emits the quote's numbers, swaps on the pool (its price moves to the quote's) and moves the reference price", async () => {
    const id = await h.createMarket(configOf(MULTI_RANGE));
    for (const size of [3n * 10n ** 18n, -(7n * 10n ** 18n), 10n ** 6n, -(10n ** 7n), 5n * 10n ** 17n]) {
      const quoted = await h.quote(id, size);
      const before = await h.pool(id);
      const [trade] = parseEventLogs({ abi: marketGroupAbi, logs: await h.trade(id, size), eventName: "Trade" });
      const after = await h.pool(id);
      assert.equal(trade!.args.sqrtPriceX96After, after.sqrtPriceX96);
      assert.equal(trade!.args.sizeDelta, size);
      assert.deepEqual(
        [trade!.args.collateralDelta, trade!.args.fillPrice, trade!.args.price18DigitsAfter],
        [quoted.requiredCollateral, quoted.fillPrice, quoted.priceAfter],
      );
      assert.equal(quoted.priceAfter, priceOfSqrt(after.sqrtPriceX96), "price18DigitsAfter is the pool's price after, rounded down");
      const s = size < 0n ? -size : size;
      assert.equal(quoted.fillPrice, (trade!.args.quoteAmount * E18) / s, "fillPrice is floor(quote tokens * 1e18 / size)");
      assert.equal(await h.referencePrice(id), quoted.priceAfter);
      assert.ok(size > 0n ? after.sqrtPriceX96 > before.sqrtPriceX96 : after.sqrtPriceX96 < before.sqrtPriceX96);
    }
  });

  test("a large LONG on the multi-range market crosses initialized ticks (the inner ranges' upper bounds); its collateral is the loss of the move over every range", async () => {
    const id = await h.createMarket(configOf(MULTI_RANGE));
    const ranges = await h.ranges(id);
    // Nine tenths of the largest fill: past 0.6, where the two inner ranges end.
    const size = ((await largestFill(id, 1n)) * 9n) / 10n;
    const quoted = await h.quote(id, size);
    const before = await h.pool(id);
    const [trade] = parseEventLogs({ abi: marketGroupAbi, logs: await h.trade(id, size), eventName: "Trade" });
    const after = await h.pool(id);
    assert.ok(after.tick > ranges[1]!.tickUpper && after.tick > ranges[2]!.tickUpper, `tick ${after.tick} past ${ranges[1]!.tickUpper}`);
    const exact = moveLoss(ranges, before.sqrtPriceX96, after.sqrtPriceX96, priceOfSqrt(ranges[0]!.sqrtLowerX96), YES_NO.feeRate);
    const computed = trade!.args.collateralDelta - 2n;
    assert.equal(quoted.requiredCollateral, trade!.args.collateralDelta);
    assert.ok(computed >= ceilOf(exact) && compareRatios({ num: computed - BigInt(ranges.length), den: 1n }, exact) <= 0, `${computed} against ${exact.num / exact.den}`);
  });
});
