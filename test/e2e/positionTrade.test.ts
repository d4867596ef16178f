// Semantics §13's promise on the embedded chain: the trade of a held position's answer (taker: its owner), sent as
// given in the next block (after its approval where a deposit needs one), succeeds; the position is then at
// targetSize, and the collateral moved is at most collateralDeltaLimit (a deposit) or at least its absolute value back
// (a withdrawal). A deposit, a withdrawal on the 6-decimal group, and a short turned around into a long.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { erc20Abi, type Account, type Address, type Chain, type Hex, type Transport, type WalletClient } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_TRADE_GAS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { servedForFile } from "../support/liveService.ts";
import { minedReceipt } from "../support/receipts.ts";

const served = servedForFile({ probe: true });
const E18 = 10n ** 18n;

type Wallet = WalletClient<Transport, Chain, Account>;

async function send(wallet: Wallet, transaction: { from: string; to: string; data: string; value: string }) {
  assert.equal(transaction.from, wallet.account.address, "from the owner");
  const hash = await wallet.sendTransaction({ to: transaction.to as Address, data: transaction.data as Hex, gas: DEMO_TRADE_GAS });
  return minedReceipt(served.chain.devchain.chain.publicClient, hash);
}

describe("the trade of a held position's answer, sent by its owner", () => {
  const cases = [
    { what: "a deposit: adding to the trader's long (18 decimals), exact", group: DEMO_MARKET_GROUP_ADDRESS, positionId: 1n, owner: "trader", query: { expectedPrice: "0.55", collateralAvailable: (100n * E18).toString(), search: "exact" } },
    { what: "a withdrawal: reducing the trader's long (6 decimals) with no new collateral", group: DEMO_USDC_MARKET_GROUP_ADDRESS, positionId: 1n, owner: "trader", query: { expectedPrice: "0.45", collateralAvailable: "0" } },
    { what: "the deployer's short turned into a long, exact", group: DEMO_MARKET_GROUP_ADDRESS, positionId: 2n, owner: "deployer", query: { expectedPrice: "0.55", collateralAvailable: (50n * E18).toString(), search: "exact" } },
  ] as const;
  for (const { what, group, positionId, owner, query } of cases) {
    test(`${what}: succeeds, leaves the position at targetSize, moves no more than collateralDeltaLimit`, async () => {
      const { publicClient, traderClient, walletClient } = served.chain.devchain.chain;
      const wallet = owner === "trader" ? traderClient : walletClient;
      const head = await publicClient.getBlockNumber();
      const asked = { ...query, taker: wallet.account.address, slippageBps: "0", minBlock: head.toString() };
      const answer = await served.service.get(`/quoter/${DEVCHAIN_ID}/${group}/positions/${positionId}?${new URLSearchParams(asked)}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { trade, targetSize, collateralDeltaLimit, blockNumber } = answer.body;
      assert.deepEqual(trade.simulation.ok, true, JSON.stringify(trade.simulation));
      assert.equal(trade.collateralLimit, collateralDeltaLimit, "slippageBps=0: the limit is collateralDeltaLimit");
      assert.notEqual(trade.collateralLimit, "0", "never 0 (no limit)");
      const token = trade.balance.token as Address;
      const balance = () => publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [wallet.account.address] });
      const limit = BigInt(collateralDeltaLimit);
      assert.equal(trade.approval === null, limit <= 0n, "an approval only for a deposit");
      if (trade.approval) assert.equal((await send(wallet, trade.approval.transaction)).status, "success");
      const before = await balance();
      const receipt = await send(wallet, trade.transaction);
      assert.equal(receipt.status, "success");
      assert.equal(receipt.blockNumber, BigInt(blockNumber) + (trade.approval ? 2n : 1n), "the next block (after the approval's)");
      const size = await publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "getPositionSize", args: [positionId] });
      assert.equal(size, BigInt(targetSize), "the position is at targetSize");
      if (positionId === 2n) assert.ok(size > 0n, "the short is now a long");
      const moved = before - (await balance());
      if (limit > 0n) assert.ok(moved > 0n && moved <= limit, `deposited ${moved}, limit ${limit}`);
      else assert.ok(-moved >= -limit, `got back ${-moved}, at least ${-limit}`);
    });
  }
});
