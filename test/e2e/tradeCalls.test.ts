// Semantics §12's `calls`, what a wallet signs: executed in order from the taker on the embedded chain, each call
// after the previous one's receipt (as a wallet without EIP-5792 sends them), they open the position the answer
// names: a new position of maxSize owned by the taker, taking at most collateralLimit; a held position left at
// targetSize. Both groups (18 and 6 decimals). The calls carry only `to` and `data`; the wallet adds the rest (here
// the demo's gas limit, DEMO_TRADE_GAS says why).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { erc20Abi, parseEventLogs, type Address, type Hex } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_TRADE_GAS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { THOUSAND } from "../../src/http/docExamples.ts";
import { servedForFile } from "../support/liveService.ts";
import { minedReceipt } from "../support/receipts.ts";

const served = servedForFile({ probe: true });
const E18 = 10n ** 18n;

type Call = { to: Address; data: Hex };
type Sent = { to: Address; data: Hex; value: string };

/** The answer at the chain's head (after the tests' own trades) with the trader as taker. */
async function answerAtHead(path: string, query: Record<string, string>): Promise<any> {
  const { publicClient, traderClient } = served.chain.devchain.chain;
  const asked = { ...query, taker: traderClient.account.address, minBlock: String(await publicClient.getBlockNumber()) };
  const answer = await served.service.get(`${path}?${new URLSearchParams(asked)}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/** §12: the approval's transaction (when there is one), then the transaction, each as { to, data } and nothing else. */
function assertCallsAreTheTransactions(trade: { calls: Call[]; approval: { transaction: Sent } | null; transaction: Sent }) {
  const expected = [...(trade.approval ? [trade.approval.transaction] : []), trade.transaction].map(({ to, data }) => ({ to, data }));
  assert.deepEqual(trade.calls, expected);
}

/** Every call sent from the taker in order, each after the previous one's receipt; their receipts. */
async function sendInOrder(calls: Call[]) {
  const { publicClient, traderClient } = served.chain.devchain.chain;
  const receipts = [];
  for (const call of calls) {
    const receipt = await minedReceipt(publicClient, await traderClient.sendTransaction({ ...call, gas: DEMO_TRADE_GAS }));
    assert.equal(receipt.status, "success", `${call.to} ${call.data.slice(0, 10)}`);
    receipts.push(receipt);
  }
  return receipts;
}

const balanceOf = (token: Address) => served.chain.devchain.chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [served.chain.devchain.chain.traderClient.account.address] });
const sizeOf = (group: Address, positionId: bigint) => served.chain.devchain.chain.publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "getPositionSize", args: [positionId] });

describe("trade.calls, sent in order by the taker", () => {
  const newPositions = [
    { group: DEMO_MARKET_GROUP_ADDRESS, marketId: 2, expectedPrice: "1030", what: "18 decimals, LONG" },
    { group: DEMO_USDC_MARKET_GROUP_ADDRESS, marketId: 1, expectedPrice: "0.45", what: "6 decimals, SHORT" },
  ] as const;
  for (const { group, marketId, expectedPrice, what } of newPositions) {
    test(`a new position, ${what}: opens maxSize, owned by the taker, taking at most collateralLimit`, async () => {
      const body = await answerAtHead(`/quoter/${DEVCHAIN_ID}/${group}/${marketId}`, { expectedPrice, collateralAvailable: THOUSAND, search: "exact" });
      const { trade } = body;
      assert.equal(trade.simulation.ok, true, JSON.stringify(trade.simulation));
      assertCallsAreTheTransactions(trade);
      const token = trade.balance.token as Address;
      const before = await balanceOf(token);
      const receipts = await sendInOrder(trade.calls);
      const minted = parseEventLogs({ abi: marketGroupAbi, eventName: "Transfer", logs: receipts.at(-1)!.logs }) as unknown as [{ args: { from: Address; to: Address; tokenId: bigint } }];
      assert.equal(minted.length, 1, "one position minted");
      const [{ args }] = minted;
      assert.equal(args.to, served.chain.devchain.chain.traderClient.account.address, "minted to the taker");
      assert.equal(await sizeOf(group, args.tokenId), BigInt(body.maxSize));
      const taken = before - (await balanceOf(token));
      assert.ok(taken > 0n && taken <= BigInt(trade.collateralLimit), `took ${taken}, limit ${trade.collateralLimit}`);
    });
  }

  const heldPositions = [
    { group: DEMO_USDC_MARKET_GROUP_ADDRESS, query: { expectedPrice: "0.55", collateralAvailable: (100n * E18).toString(), search: "exact" }, what: "6 decimals, added to with a deposit" },
    { group: DEMO_MARKET_GROUP_ADDRESS, query: { expectedPrice: "0.45", collateralAvailable: "0", search: "exact" }, what: "18 decimals, a long reduced past zero" },
  ] as const;
  for (const { group, query, what } of heldPositions) {
    test(`the trader's held position 1, ${what}: left at targetSize`, async () => {
      const body = await answerAtHead(`/quoter/${DEVCHAIN_ID}/${group}/positions/1`, query);
      const { trade } = body;
      assert.equal(trade.simulation.ok, true, JSON.stringify(trade.simulation));
      assertCallsAreTheTransactions(trade);
      assert.equal(trade.calls.length, BigInt(body.collateralDeltaLimit) > 0n && trade.approval ? 2 : 1);
      const before = await sizeOf(group, 1n);
      assert.equal(before, BigInt(body.currentSize));
      await sendInOrder(trade.calls);
      const after = await sizeOf(group, 1n);
      assert.equal(after, BigInt(body.targetSize));
      if (query.collateralAvailable === "0") assert.ok(after < 0n, `the long is now a short: ${after}`);
    });
  }
});
