// The demo deployment on a fresh embedded chain: both groups and Uniswap v3's factory at their fixed addresses,
// every market of DEMO_MARKETS on its v3 pool as described, the head still at block 6, the expired market and the
// 6-decimal group as the quoter will meet them.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { getContractAddress, hexToBytes, hexToString } from "viem";
import { startEmbeddedChain, type EmbeddedChain } from "../../src/devchain/chain.ts";
import {
  DEMO_MARKET_GROUP_ADDRESS,
  DEMO_MARKET_GROUPS,
  DEMO_MARKETS,
  DEMO_UNISWAP_FACTORY_ADDRESS,
  DEMO_UNISWAP_QUOTER_ADDRESS,
  DEMO_USDC_MARKET_GROUP_ADDRESS,
  deployDemo,
} from "../../src/devchain/demo.ts";
import { uniswapQuoterV2, uniswapV3Factory, uniswapV3Pool } from "../../src/devchain/uniswap.ts";
import { collateralTokenAbi, marketGroupAbi } from "../../src/generated/contracts.ts";
import { revertOf } from "./marketGroupHarness.ts";

let chain: EmbeddedChain;
before(async () => {
  chain = await startEmbeddedChain();
  assert.equal(await deployDemo(chain), DEMO_MARKET_GROUP_ADDRESS);
});

const read = <T>(address: `0x${string}`, functionName: string, args: readonly unknown[] = []) =>
  chain.publicClient.readContract({ address, abi: marketGroupAbi, functionName, args } as never) as Promise<T>;

async function quoteRevert(group: `0x${string}`, id: bigint, size: bigint) {
  try {
    await chain.publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [id, size] });
  } catch (error) {
    return revertOf(error);
  }
  throw new Error("the quote succeeded");
}

describe("demo deployment", () => {
  test("the first group is the deployer's first contract, v3-core's factory its second, the USDC group its ninth transaction, QuoterV2 its last; the head stays at block 6", async () => {
    const deployer = chain.walletClient.account.address;
    assert.equal(DEMO_MARKET_GROUP_ADDRESS, getContractAddress({ from: deployer, nonce: 0n }));
    assert.equal(DEMO_UNISWAP_FACTORY_ADDRESS, getContractAddress({ from: deployer, nonce: 1n }));
    assert.equal(DEMO_USDC_MARKET_GROUP_ADDRESS, getContractAddress({ from: deployer, nonce: 8n }));
    assert.equal(DEMO_UNISWAP_QUOTER_ADDRESS, getContractAddress({ from: deployer, nonce: 10n }));
    assert.equal(await chain.publicClient.getTransactionCount({ address: deployer }), 11);
    assert.equal(await chain.publicClient.getBlockNumber(), 6n);
    // The factory runs v3-core's published code, and both groups create their pools with it.
    const code = hexToBytes((await chain.publicClient.getCode({ address: DEMO_UNISWAP_FACTORY_ADDRESS }))!);
    const published = hexToBytes(uniswapV3Factory().deployedBytecode);
    // The bytes the artifact leaves zero are the immutables the constructor fills in (the factory's own address).
    assert.ok(code.length === published.length && published.every((byte, i) => byte === code[i] || byte === 0), "v3-core's factory code");
    for (const group of DEMO_MARKET_GROUPS) assert.equal(await read(group.address, "uniswapFactory"), DEMO_UNISWAP_FACTORY_ADDRESS);
  });

  test("QuoterV2 runs v3-periphery's published code over the factory, and every market's params name it", async () => {
    const code = hexToBytes((await chain.publicClient.getCode({ address: DEMO_UNISWAP_QUOTER_ADDRESS }))!);
    const published = hexToBytes(uniswapQuoterV2().deployedBytecode);
    // The bytes the artifact leaves zero are its immutables (the factory, WETH9).
    assert.ok(code.length === published.length && published.every((byte, i) => byte === code[i] || byte === 0), "v3-periphery's QuoterV2 code");
    const { abi } = uniswapQuoterV2();
    assert.equal(await chain.publicClient.readContract({ address: DEMO_UNISWAP_QUOTER_ADDRESS, abi, functionName: "factory" }), DEMO_UNISWAP_FACTORY_ADDRESS);
    for (const market of DEMO_MARKETS) {
      const [, params] = await read<readonly [unknown, { uniswapQuoter: string }]>(market.group, "getMarket", [market.id]);
      assert.equal(params.uniswapQuoter, DEMO_UNISWAP_QUOTER_ADDRESS, `${market.group} ${market.id}`);
    }
  });

  test("each group's collateral token has the decimals DEMO_MARKET_GROUPS gives it: 18 and 6", async () => {
    assert.deepEqual(DEMO_MARKET_GROUPS.map((g) => g.collateralDecimals), [18, 6]);
    for (const group of DEMO_MARKET_GROUPS) {
      const [owner, collateralAsset] = await read<readonly [string, `0x${string}`]>(group.address, "getMarketGroup");
      assert.equal(owner, chain.walletClient.account.address);
      const decimals = await chain.publicClient.readContract({ address: collateralAsset, abi: collateralTokenAbi, functionName: "decimals" });
      assert.equal(decimals, group.collateralDecimals, group.address);
    }
  });

  test("every market of DEMO_MARKETS is on chain as described (group, id, range, its v3 pool, fee tier, liquidity ranges, claim, settlement, price)", async () => {
    assert.deepEqual(DEMO_MARKETS.map((m) => [m.group, m.id]), [
      [DEMO_MARKET_GROUP_ADDRESS, 1n],
      [DEMO_MARKET_GROUP_ADDRESS, 2n],
      [DEMO_MARKET_GROUP_ADDRESS, 3n],
      [DEMO_MARKET_GROUP_ADDRESS, 4n],
      [DEMO_MARKET_GROUP_ADDRESS, 5n],
      [DEMO_USDC_MARKET_GROUP_ADDRESS, 1n],
    ]);
    for (const market of DEMO_MARKETS) {
      const [data, params] = await read<readonly [any, any]>(market.group, "getMarket", [market.id]);
      const context = `${market.group} ${market.id}`;
      assert.equal(data.marketId, market.id, context);
      // The price range is the liquidity's: its outer ticks' prices (rounded down), inside the configured range.
      const placed = await read<readonly { sqrtLowerX96: bigint; sqrtUpperX96: bigint; liquidity: bigint }[]>(market.group, "getLiquidityRanges", [market.id]);
      const priceOf = (sqrt: bigint) => (sqrt * sqrt * 10n ** 18n) >> 192n;
      assert.equal(data.minPriceD18, priceOf(placed[0]!.sqrtLowerX96), context);
      assert.equal(data.maxPriceD18, priceOf(placed[0]!.sqrtUpperX96), context);
      assert.ok(data.minPriceD18 >= market.minPriceD18 && data.maxPriceD18 <= market.maxPriceD18, context);
      assert.equal(params.feeRate, market.feeRate, context);
      const pool = await chain.publicClient.readContract({ address: DEMO_UNISWAP_FACTORY_ADDRESS, abi: uniswapV3Factory().abi, functionName: "getPool", args: [data.baseToken, data.quoteToken, market.feeRate] });
      assert.equal(pool, data.pool, context);
      assert.deepEqual(placed.map((r) => r.liquidity), market.ranges.map((r) => r.liquidity), context);
      assert.equal(hexToString(data.claimStatementYesOrNumeric), market.claim, context);
      assert.equal(data.settled, market.settlementPriceD18 !== undefined, context);
      // The pool's price, rounded down: a market created at 0.5 reads back 0.499999999999999999.
      const [sqrtPriceX96] = (await chain.publicClient.readContract({ address: data.pool, abi: uniswapV3Pool().abi, functionName: "slot0" })) as readonly [bigint];
      const poolPrice = (sqrtPriceX96 * sqrtPriceX96 * 10n ** 18n) >> 192n;
      assert.ok(poolPrice < market.priceD18 && market.priceD18 - poolPrice <= 1n, `${context}: ${poolPrice}`);
      assert.equal(await read<bigint>(market.group, "getReferencePrice", [market.id]), market.settlementPriceD18 ?? poolPrice, context);
    }
    // No sixth market in the first group, no second one in the USDC group: zero structs.
    for (const [group, id] of [[DEMO_MARKET_GROUP_ADDRESS, 6n], [DEMO_USDC_MARKET_GROUP_ADDRESS, 2n]] as const) {
      const [data] = await read<readonly [any]>(group, "getMarket", [id]);
      assert.equal(data.startTime, 0n);
    }
  });

  test("the open markets end ten years after the deployment; market 5 ended an hour before it and was never settled", async () => {
    const { timestamp } = await chain.publicClient.getBlock();
    for (const market of DEMO_MARKETS) {
      const [data] = await read<readonly [any]>(market.group, "getMarket", [market.id]);
      if (market.ended) {
        assert.ok(data.endTime < timestamp && data.startTime < data.endTime, `${market.id}: ${data.startTime} ${data.endTime} at ${timestamp}`);
        assert.equal(data.settled, false);
      } else {
        assert.ok(data.endTime > timestamp + 9n * 365n * 86_400n, `${market.id}: ends ${data.endTime}`);
        assert.ok(data.startTime < timestamp);
      }
    }
  });

  test("market 5: every quote, LONG or SHORT, reverts ExpiredMarketNotSettled(its end time)", async () => {
    const expired = DEMO_MARKETS.find((m) => m.ended)!;
    const [data] = await read<readonly [any]>(expired.group, "getMarket", [expired.id]);
    for (const size of [1n, -1n, 10n ** 18n, -(10n ** 21n)]) {
      assert.deepEqual(await quoteRevert(expired.group, expired.id, size), { errorName: "ExpiredMarketNotSettled", args: [data.endTime] }, `size ${size}`);
    }
  });

  test("the USDC market quotes in 18-decimal units like market 1 (same pool): only the trade's limit is in USDC units", async () => {
    const size = 10n ** 21n;
    const usdc = await chain.publicClient.simulateContract({ address: DEMO_USDC_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [1n, size] });
    const first = await chain.publicClient.simulateContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [1n, size] });
    assert.deepEqual(usdc.result, first.result);
    const [requiredCollateral] = usdc.result;
    const maxCollateral = (requiredCollateral + 10n ** 12n - 1n) / 10n ** 12n;
    const trade = (limit: bigint) =>
      chain.publicClient.simulateContract({ address: DEMO_USDC_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "executeTrade", args: [1n, size, limit], account: chain.traderClient.account });
    assert.equal((await trade(maxCollateral)).result[0], requiredCollateral);
    await assert.rejects(trade(maxCollateral - 1n), (error) => {
      assert.deepEqual(revertOf(error), { errorName: "InsufficientCollateral", args: [requiredCollateral, (maxCollateral - 1n) * 10n ** 12n] });
      return true;
    });
    // requiredCollateral passed on as the limit would be 10^12 times too loose: it is accepted.
    assert.equal((await trade(requiredCollateral)).result[0], requiredCollateral);
  });
});
