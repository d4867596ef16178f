// Semantics §14's promise on the embedded chain: the trade of a liquidity answer (taker: the trader), sent as given in
// the next block (after its approval), mints a position of the answer's range holding its mintedLiquidity and takes at
// most its collateralAmount; the same mint with maxCollateral less one token unit reverts InsufficientCollateral.
// Both demo groups (18- and 6-decimal collateral), a range around the price and one above it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeErrorResult, decodeFunctionData, erc20Abi, type Address, type Hex } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_TRADE_GAS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { revertData } from "../contracts/marketGroupHarness.ts";
import { servedForFile } from "../support/liveService.ts";
import { minedReceipt } from "../support/receipts.ts";

const served = servedForFile({ probe: true });
const E18 = 10n ** 18n;

/** The liquidity the group holds for market 1 in [lower, upper] (its ranges), read now. */
async function rangeLiquidity(group: Address, lower: number, upper: number): Promise<bigint> {
  const ranges = await served.chain.devchain.chain.publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "getLiquidityRanges", args: [1n] });
  return ranges.filter((range) => range.tickLower === lower && range.tickUpper === upper).reduce((sum, range) => sum + BigInt(range.liquidity), 0n);
}

describe("the trade of a liquidity answer, sent by the taker", () => {
  test("slippageBps=0: the minimums are the amounts, more than the pool takes for mintedLiquidity: the simulation says the mint's slippage check fails", async () => {
    const { traderClient } = served.chain.devchain.chain;
    const query = { lowerPrice: "0.45", upperPrice: "0.55", collateralAvailable: String(E18), slippageBps: "0", taker: traderClient.account.address };
    const answer = await served.service.get(`/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/1/liquidity?${new URLSearchParams(query)}`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.trade.simulation, { ok: false, revert: "Error", revertArgs: { message: "Price slippage check" } });
  });

  const cases = [
    { what: "around the price, 18 decimals, 1 bps of slippage", group: DEMO_MARKET_GROUP_ADDRESS, decimals: 18, query: { lowerPrice: "0.45", upperPrice: "0.55", collateralAvailable: String(100n * E18), slippageBps: "1" } },
    { what: "above the price, 6 decimals, default slippage", group: DEMO_USDC_MARKET_GROUP_ADDRESS, decimals: 6, query: { lowerPrice: "0.62", upperPrice: "0.8", collateralAvailable: String(25n * E18 + 123n) } },
  ] as const;
  for (const { what, group, decimals, query } of cases) {
    test(`${what}: mints mintedLiquidity in the range, takes at most collateralAmount; maxCollateral - 1 unit reverts`, async () => {
      const { publicClient, traderClient } = served.chain.devchain.chain;
      const head = await publicClient.getBlockNumber();
      const answer = await served.service.get(`/quoter/${DEVCHAIN_ID}/${group}/1/liquidity?${new URLSearchParams({ ...query, taker: traderClient.account.address, minBlock: String(head) })}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { trade, maxCollateral, mintedLiquidity, lowerTick, upperTick, amountBaseToken, amountQuoteToken, blockNumber } = answer.body;
      assert.equal(trade.simulation.ok, true, JSON.stringify(trade.simulation));
      const { args } = decodeFunctionData({ abi: marketGroupAbi, data: trade.transaction.data as Hex });
      const params = (args as readonly [Record<string, bigint | number>])[0];
      assert.deepEqual([params.lowerTick, params.upperTick, params.amountBaseToken, params.amountQuoteToken], [lowerTick, upperTick, BigInt(amountBaseToken), BigInt(amountQuoteToken)]);
      assert.equal(String(params.collateralAmount), trade.collateralLimit);
      const budgetUnits = BigInt(query.collateralAvailable) / 10n ** BigInt(18 - decimals);
      assert.ok(BigInt(maxCollateral) <= BigInt(trade.collateralLimit) && BigInt(trade.collateralLimit) <= (budgetUnits > BigInt(maxCollateral) ? budgetUnits : BigInt(maxCollateral)));
      const send = async (transaction: { to: string; data: string }) =>
        minedReceipt(publicClient, await traderClient.sendTransaction({ to: transaction.to as Address, data: transaction.data as Hex, gas: 2n * DEMO_TRADE_GAS }));
      assert.notEqual(trade.approval, null, "the trader has not approved the group yet");
      assert.equal((await send(trade.approval.transaction)).status, "success");
      // One token unit under maxCollateral: the group's check refuses it.
      const short = { ...params, collateralAmount: BigInt(maxCollateral) - 1n };
      const data = await revertData(publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "createLiquidityPosition", args: [short as never], account: traderClient.account }));
      assert.equal(decodeErrorResult({ abi: marketGroupAbi, data }).errorName, "InsufficientCollateral");
      const token = trade.balance.token as Address;
      const balance = () => publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [traderClient.account.address] });
      const [before, liquidityBefore] = [await balance(), await rangeLiquidity(group, lowerTick, upperTick)];
      const receipt = await send(trade.transaction);
      assert.equal(receipt.status, "success");
      assert.equal(receipt.blockNumber, BigInt(blockNumber) + 2n, "the next block after the approval's");
      assert.equal((await rangeLiquidity(group, lowerTick, upperTick)) - liquidityBefore, BigInt(mintedLiquidity), "the position holds mintedLiquidity");
      const taken = before - (await balance());
      assert.ok(taken > 0n && taken <= BigInt(trade.collateralLimit), `took ${taken}, at most ${trade.collateralLimit}`);
    });
  }
});
