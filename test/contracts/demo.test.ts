// The demo deployment on a fresh embedded chain: both groups at their fixed addresses, every market of
// DEMO_MARKETS as described, the head still at block 6, the expired market and the 6-decimal group as the
// quoter will meet them.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { getContractAddress, hexToString } from "viem";
import { startEmbeddedChain, type EmbeddedChain } from "../../src/devchain/chain.ts";
import {
  DEMO_MARKET_GROUP_ADDRESS,
  DEMO_MARKET_GROUPS,
  DEMO_MARKETS,
  DEMO_USDC_MARKET_GROUP_ADDRESS,
  deployDemo,
} from "../../src/devchain/demo.ts";
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
  test("the first group is the deployer's first contract and the USDC group its eighth transaction; the head stays at block 6", async () => {
    const deployer = chain.walletClient.account.address;
    assert.equal(DEMO_MARKET_GROUP_ADDRESS, getContractAddress({ from: deployer, nonce: 0n }));
    assert.equal(DEMO_USDC_MARKET_GROUP_ADDRESS, getContractAddress({ from: deployer, nonce: 7n }));
    assert.equal(await chain.publicClient.getTransactionCount({ address: deployer }), 9);
    assert.equal(await chain.publicClient.getBlockNumber(), 6n);
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

  test("every market of DEMO_MARKETS is on chain as described (group, id, range, claim, settlement, price)", async () => {
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
      assert.equal(data.minPriceD18, market.minPriceD18, context);
      assert.equal(data.maxPriceD18, market.maxPriceD18, context);
      assert.equal(params.feeRate, market.feeRate, context);
      assert.equal(hexToString(data.claimStatementYesOrNumeric), market.claim, context);
      assert.equal(data.settled, market.settlementPriceD18 !== undefined, context);
      assert.equal(await read<bigint>(market.group, "getReferencePrice", [market.id]), market.settlementPriceD18 ?? market.priceD18, context);
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
