// Semantics §12's promise on the embedded chain: the trade of an answer, sent as given from the taker (after its
// approval where one is needed) in the next block, succeeds; the position it opens has size maxSize and the
// collateral taken is at most collateralLimit; with no slippage, one unit less of limit reverts
// CollateralLimitReached. The simulation says what the trade does before it is sent: its gas (the receipt's), the
// token's error for a taker without collateral, PositionSizeBelowMin under the demo's minimum, TransactionExpired
// once the head is older than the deadline allows.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeErrorResult, decodeFunctionData, encodeFunctionData, erc20Abi, maxUint256, parseEventLogs, type Address, type Hex } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_MIN_TRADE_SIZE, DEMO_TRADE_GAS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { tradingAbi } from "../../src/chain/trade/trading.ts";
import { THOUSAND } from "../../src/http/docExamples.ts";
import { servedForFile } from "../support/liveService.ts";
import { minedReceipt } from "../support/receipts.ts";

const served = servedForFile({ probe: true });

const quotePath = (group: Address, marketId: number, query: Record<string, string>) => `/quoter/${DEVCHAIN_ID}/${group}/${marketId}?${new URLSearchParams(query)}`;

/** The answer with the trader as taker, at the chain's head (after the tests' own trades: read-your-writes). */
async function quoteWithTaker(group: Address, marketId: number, query: Record<string, string>): Promise<any> {
  const head = await served.chain.devchain.chain.publicClient.getBlock();
  const asked = { taker: served.chain.devchain.chain.traderClient.account.address, minBlock: String(head.number), ...query };
  const answer = await served.service.get(quotePath(group, marketId, asked));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.ok(answer.body.trade, "an answer with taker carries trade");
  return answer.body;
}

/**
 * A transaction of the answer, sent as given from the taker (the trader) and mined; its receipt. With the demo's gas
 * limit rather than an estimate (DEMO_TRADE_GAS says why), and, for a trade, in a block of a second of its own:
 * anvil's automining gives blocks mined within one second the same timestamp, which no real chain does, and a v3
 * swap writes its price oracle only in a block whose timestamp differs from its last swap's (the gas it uses then
 * differs by that write). The simulation runs the trade in a block later than the answer's, as a real chain mines it.
 */
async function send(transaction: { from: string; to: string; data: string; value: string }, ownSecond = false) {
  const { traderClient, publicClient } = served.chain.devchain.chain;
  assert.equal(transaction.from, traderClient.account.address);
  assert.equal(transaction.value, "0");
  if (ownSecond) await new Promise((resolve) => setTimeout(resolve, 1_010 - (Date.now() % 1_000)));
  const hash = await traderClient.sendTransaction({ to: transaction.to as Address, data: transaction.data as Hex, value: BigInt(transaction.value), gas: DEMO_TRADE_GAS });
  return minedReceipt(publicClient, hash);
}

const balanceOf = (token: Address) => served.chain.devchain.chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [served.chain.devchain.chain.traderClient.account.address] });

/** The revert an eth_call of `data` from the trader gets at the chain's head, decoded. */
async function revertOf(to: Address, data: Hex): Promise<{ errorName: string; args: readonly unknown[] }> {
  try {
    await served.chain.devchain.chain.publicClient.call({ account: served.chain.devchain.chain.traderClient.account.address, to, data });
  } catch (error) {
    const raw = (error as { walk: (fn: (e: unknown) => boolean) => { data?: Hex } | null }).walk((e) => typeof (e as { data?: unknown }).data === "string")?.data;
    assert.ok(raw, `a revert with data: ${String(error)}`);
    return decodeErrorResult({ abi: marketGroupAbi, data: raw }) as { errorName: string; args: readonly unknown[] };
  }
  assert.fail("the call did not revert");
}

describe("the trade of an answer, sent as given", () => {
  const cases = [
    { group: DEMO_MARKET_GROUP_ADDRESS, marketId: 2, expectedPrice: "1030", what: "18 decimals, LONG, bound by the price" },
    { group: DEMO_MARKET_GROUP_ADDRESS, marketId: 1, expectedPrice: "0.45", what: "18 decimals, SHORT" },
    { group: DEMO_USDC_MARKET_GROUP_ADDRESS, marketId: 1, expectedPrice: "0.55", what: "6 decimals, LONG" },
    { group: DEMO_USDC_MARKET_GROUP_ADDRESS, marketId: 1, expectedPrice: "0.45", what: "6 decimals, SHORT" },
  ] as const;
  for (const { group, marketId, expectedPrice, what } of cases) {
    for (const search of ["bisection", "exact"] as const) {
      test(`${what}, ${search}: succeeds in the next block with size maxSize, taking at most collateralLimit; one unit less reverts`, async () => {
        const body = await quoteWithTaker(group, marketId, { expectedPrice, collateralAvailable: THOUSAND, search, slippageBps: "0" });
        const { trade } = body;
        assert.equal(trade.collateralLimit, body.maxCollateral, "slippageBps=0 sends maxCollateral exactly");
        assert.deepEqual(trade.simulation.ok, true, JSON.stringify(trade.simulation));
        const blockOf = async () => (await served.chain.devchain.chain.publicClient.getBlock()).number;
        assert.equal(await blockOf(), BigInt(body.blockNumber), "the chain is still at the answer's block");
        const token = trade.balance.token as Address;
        assert.ok(trade.approval, "nothing is approved on the demo: the approval comes first");
        assert.equal((await send(trade.approval.transaction)).status, "success");
        // One unit less of limit, at the state the transaction meets: CollateralLimitReached.
        const { args } = decodeFunctionData({ abi: tradingAbi, data: trade.transaction.data });
        const [position] = args as [{ marketId: bigint; size: bigint; maxCollateral: bigint; deadline: bigint }];
        const tight = encodeFunctionData({ abi: tradingAbi, functionName: "createTraderPosition", args: [{ ...position, maxCollateral: position.maxCollateral - 1n }] });
        assert.equal((await revertOf(group, tight)).errorName, "CollateralLimitReached");
        const before = await balanceOf(token);
        const receipt = await send(trade.transaction, true);
        assert.equal(receipt.status, "success");
        assert.equal(receipt.blockNumber, BigInt(body.blockNumber) + 2n, "the block after the approval's");
        assert.equal(receipt.gasUsed, BigInt(trade.simulation.gas), "the simulation's gas is the receipt's");
        const taken = before - (await balanceOf(token));
        assert.ok(taken > 0n && taken <= BigInt(trade.collateralLimit), `took ${taken}, limit ${trade.collateralLimit}`);
        const [minted] = parseEventLogs({ abi: marketGroupAbi, eventName: "Transfer", logs: receipt.logs }) as unknown as [{ args: { tokenId: bigint } }];
        const size = await served.chain.devchain.chain.publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "getPositionSize", args: [minted.args.tokenId] });
        assert.equal(size, BigInt(body.maxSize));
      });
    }
  }

  test("with the allowance given: no approval, the transaction alone, its gas the receipt's; a slippage's limit is never below maxCollateral", async () => {
    const first = await quoteWithTaker(DEMO_MARKET_GROUP_ADDRESS, 2, { expectedPrice: "1040", collateralAvailable: THOUSAND });
    const token = first.trade.approval.token as Address;
    const hash = await served.chain.devchain.chain.traderClient.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [DEMO_MARKET_GROUP_ADDRESS, maxUint256] });
    const approved = await minedReceipt(served.chain.devchain.chain.publicClient, hash);
    const body = await quoteWithTaker(DEMO_MARKET_GROUP_ADDRESS, 2, { expectedPrice: "1040", collateralAvailable: THOUSAND, slippageBps: "100", minBlock: String(approved.blockNumber) });
    const { trade } = body;
    assert.equal(trade.approval, null);
    assert.ok(BigInt(trade.collateralLimit) > BigInt(body.maxCollateral));
    assert.equal(trade.simulation.ok, true, JSON.stringify(trade.simulation));
    const receipt = await send(trade.transaction, true);
    assert.equal(receipt.status, "success");
    assert.equal(receipt.blockNumber, BigInt(body.blockNumber) + 1n, "the next block");
    assert.equal(receipt.gasUsed, BigInt(trade.simulation.gas));
  });
});

describe("an allowance below the limit that covers what the trade pulls", () => {
  test("the approval is still asked (below the limit); the simulation is the transaction's as the allowance stands, and it succeeds", async () => {
    const { traderClient, publicClient } = served.chain.devchain.chain;
    const exact = await quoteWithTaker(DEMO_USDC_MARKET_GROUP_ADDRESS, 1, { expectedPrice: "0.6", collateralAvailable: THOUSAND, slippageBps: "0" });
    const token = exact.trade.balance.token as Address;
    const approved = await minedReceipt(publicClient, await traderClient.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [DEMO_USDC_MARKET_GROUP_ADDRESS, BigInt(exact.maxCollateral)] }));
    const body = await quoteWithTaker(DEMO_USDC_MARKET_GROUP_ADDRESS, 1, { expectedPrice: "0.6", collateralAvailable: THOUSAND, slippageBps: "100", minBlock: String(approved.blockNumber) });
    assert.equal(body.maxCollateral, exact.maxCollateral, "the same answer, a block later");
    assert.equal(body.trade.approval.allowance, exact.maxCollateral);
    assert.ok(BigInt(body.trade.collateralLimit) > BigInt(body.maxCollateral));
    assert.equal(body.trade.simulation.ok, true, JSON.stringify(body.trade.simulation));
    assert.equal((await send(body.trade.approval.transaction)).status, "success");
    assert.equal((await send(body.trade.transaction, true)).status, "success");
  });
});

describe("what the simulation says before anything is sent", () => {
  test("a taker without collateral: ok false, naming the token's error (after the approval, simulated first)", async () => {
    // Far above market 2's price, whatever the trades before moved it to: a LONG the budget bounds.
    const head = String((await served.chain.devchain.chain.publicClient.getBlock()).number);
    const answer = await served.service.get(quotePath(DEMO_MARKET_GROUP_ADDRESS, 2, { expectedPrice: "5000", collateralAvailable: THOUSAND, taker: "0x000000000000000000000000000000000000dEaD", minBlock: head }));
    assert.equal(answer.status, 200, "a trade that would fail never turns the quote into an error");
    const { trade } = answer.body;
    assert.equal(trade.balance.available, "0");
    assert.ok(trade.approval);
    assert.equal(trade.simulation.ok, false);
    assert.equal(trade.simulation.revert, "ERC20InsufficientBalance");
    // What the group pulls: the requirement in token units, rounded up (maxCollateral), within the limit.
    assert.deepEqual(trade.simulation.revertArgs, { sender: "0x000000000000000000000000000000000000dEaD", balance: "0", needed: answer.body.maxCollateral });
  });

  test("an answer under the demo's minimum trade size: PositionSizeBelowMin()", async () => {
    // A budget of 10^8 wei at a price near 1000 buys at most 10^5 wei of size: far below the minimum of 10^12.
    const body = await quoteWithTaker(DEMO_MARKET_GROUP_ADDRESS, 2, { expectedPrice: "1030", collateralAvailable: "100000000" });
    assert.ok(BigInt(body.maxSize) < DEMO_MIN_TRADE_SIZE);
    assert.deepEqual(body.trade.simulation, { ok: false, revert: "PositionSizeBelowMin" });
  });

  test("a 6-decimal group's tiny budget never carries a limit of 0", async () => {
    const body = await quoteWithTaker(DEMO_USDC_MARKET_GROUP_ADDRESS, 1, { expectedPrice: "0.55", collateralAvailable: "1000000000" });
    assert.ok(BigInt(body.trade.collateralLimit) >= 1n && BigInt(body.trade.collateralLimit) >= BigInt(body.maxCollateral));
  });

  test("the deadline follows the block; a head older than the deadline allows is said: TransactionExpired, as the sent trade gets", async () => {
    const { publicClient } = served.chain.devchain.chain;
    // A fresh head, seen now: a deadline of 1 s is the next block's plausible time.
    await served.chain.devchain.chain.provider.request({ method: "evm_mine", params: [] });
    const head = await publicClient.getBlock();
    const fresh = await quoteWithTaker(DEMO_MARKET_GROUP_ADDRESS, 1, { expectedPrice: "0.55", collateralAvailable: THOUSAND, deadlineSeconds: "1", minBlock: String(head.number) });
    assert.equal(fresh.trade.deadline, String(head.timestamp + 1n), "never in the past: the block's timestamp and more");
    assert.notEqual(fresh.trade.simulation.revert, "TransactionExpired");
    // Nothing mined for 3 s: the next block is past that deadline, and the answer says so.
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const old = await quoteWithTaker(DEMO_MARKET_GROUP_ADDRESS, 1, { expectedPrice: "0.55", collateralAvailable: THOUSAND, deadlineSeconds: "1" });
    assert.equal(old.blockHash, fresh.blockHash);
    assert.equal(old.trade.simulation.ok, false);
    assert.equal(old.trade.simulation.revert, "TransactionExpired");
    assert.equal(old.trade.simulation.revertArgs.deadline, old.trade.deadline);
    assert.ok(BigInt(old.trade.simulation.revertArgs.blockTime) >= head.timestamp + 3n);
    // Sent anyway (its approval first, when it needs one), the trade is mined past its deadline, and reverts.
    if (old.trade.approval) assert.equal((await send(old.trade.approval.transaction)).status, "success");
    const sent = await send(old.trade.transaction);
    assert.equal(sent.status, "reverted");
    assert.ok((await publicClient.getBlock({ blockNumber: sent.blockNumber })).timestamp > BigInt(old.trade.deadline));
  });
});
