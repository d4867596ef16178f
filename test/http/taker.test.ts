// Semantics §12 over real HTTP on the embedded chain: a quote asked with `taker` is the answer without it, byte for
// byte, plus `trade`; its reads and simulation cost one request (eth_simulateV1 at the answer's block) after the
// search; both strategies, batch items and depth levels answer it alike; a stream's events carry it, its deadline
// following the block; every wrong trade parameter is a 400 naming it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { decodeFunctionData, getAddress, type Hex } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_TRADER, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { THOUSAND } from "../../src/http/docExamples.ts";
import { tradingAbi } from "../../src/chain/trade/trading.ts";
import { openEventStream } from "../support/eventStream.ts";
import { servedForFile, trade } from "../support/liveService.ts";
import { quoteRequests } from "../support/rpcProxy.ts";

const served = servedForFile({ probe: true });
/** The demo's trader, who holds collateral of both groups. */
const taker: Hex = DEMO_TRADER;

const group = () => served.chain.devchain.marketGroup;

async function getText(base: string, path: string): Promise<{ status: number; text: string }> {
  const response = await request(`${base}${path}`);
  return { status: response.statusCode, text: await response.body.text() };
}

const quotePath = (marketAddress: string, marketId: string | number, query: Record<string, string>) =>
  `/quoter/${DEVCHAIN_ID}/${marketAddress}/${marketId}?${new URLSearchParams(query)}`;

/** The body asked with taker is the one without it, byte for byte, with `"trade":{…}` before its closing brace. */
function splitTrade(withTaker: string, without: string): any {
  assert.ok(withTaker.startsWith(`${without.slice(0, -1)},"trade":{`), `${withTaker}\nis not\n${without}\nwith a trade`);
  return JSON.parse(withTaker).trade;
}

describe("an answer with taker", () => {
  test("is the answer without it, byte for byte, plus trade: the createTraderPosition of maxSize, the limit, the deadline, the approval, the balance, the calls", async () => {
    const head = await served.chain.devchain.chain.publicClient.getBlock();
    for (const [marketAddress, marketId, query] of [
      [group(), 2, { expectedPrice: "1030", collateralAvailable: THOUSAND }],
      [group(), 1, { expectedPrice: "0.45", collateralAvailable: THOUSAND, search: "exact", trace: "true" }],
      [DEMO_USDC_MARKET_GROUP_ADDRESS, 1, { expectedPrice: "0.55", collateralAvailable: THOUSAND }],
    ] as const) {
      const without = await getText(served.service.base, quotePath(marketAddress, marketId, query));
      const withTaker = await getText(served.service.base, quotePath(marketAddress, marketId, { ...query, taker: taker.toLowerCase(), deadlineSeconds: "120" }));
      assert.equal(without.status, 200, without.text);
      const body = JSON.parse(without.text);
      const tradeOf = splitTrade(withTaker.text, without.text);
      assert.deepEqual(Object.keys(tradeOf), ["collateralLimit", "deadline", "transaction", "approval", "balance", "calls", "simulation"]);
      assert.equal(tradeOf.deadline, String(head.timestamp + 120n), "the answer block's timestamp + deadlineSeconds");
      assert.deepEqual(Object.keys(tradeOf.transaction), ["from", "to", "data", "value"]);
      assert.equal(tradeOf.transaction.from, getAddress(taker));
      assert.equal(tradeOf.transaction.to, marketAddress);
      assert.equal(tradeOf.transaction.value, "0");
      const { functionName, args } = decodeFunctionData({ abi: tradingAbi, data: tradeOf.transaction.data });
      assert.equal(functionName, "createTraderPosition");
      assert.deepEqual(args, [{ marketId: BigInt(marketId), size: BigInt(body.maxSize), maxCollateral: BigInt(tradeOf.collateralLimit), deadline: BigInt(tradeOf.deadline) }]);
      assert.ok(BigInt(tradeOf.collateralLimit) >= BigInt(body.maxCollateral));
      // The demo's taker holds no allowance to the group at block 6: the approval comes first.
      assert.equal(tradeOf.approval.spender, marketAddress);
      assert.equal(tradeOf.approval.allowance, "0");
      assert.equal(tradeOf.approval.token, tradeOf.balance.token);
      assert.equal(tradeOf.approval.transaction.to, tradeOf.approval.token);
      assert.deepEqual(decodeFunctionData({ abi: tradingAbi, data: tradeOf.approval.transaction.data }).args, [marketAddress, BigInt(tradeOf.collateralLimit)]);
      assert.equal(tradeOf.balance.needed, tradeOf.collateralLimit);
      // What a wallet signs (EIP-5792's calls): the approval, then the trade, each { to, data } alone.
      assert.deepEqual(tradeOf.calls, [
        { to: tradeOf.approval.token, data: tradeOf.approval.transaction.data },
        { to: marketAddress, data: tradeOf.transaction.data },
      ]);
      assert.ok(["ok", "revert", "reason"].some((key) => key in tradeOf.simulation));
    }
  });

  test("single-call: the search and one eth_simulateV1 pinned to the answer's block, two JSON-RPC requests in all", async () => {
    served.chain.proxy.clear();
    const answer = await served.service.get(quotePath(group(), 2, { expectedPrice: "1030", collateralAvailable: THOUSAND, taker }));
    assert.equal(answer.status, 200);
    assert.deepEqual(quoteRequests(served.chain.proxy.methods), ["eth_call", "eth_simulateV1"]);
    const simulate = served.chain.proxy.requests.find((each) => each.method === "eth_simulateV1")!;
    assert.deepEqual(simulate.params?.[1], { blockHash: answer.body.blockHash });
    const { blockStateCalls } = simulate.params![0] as { blockStateCalls: { blockOverrides: { number: string; time: string }; calls: { from: string }[] }[] };
    assert.equal(blockStateCalls.length, 1);
    assert.equal(BigInt(blockStateCalls[0]!.blockOverrides.number), BigInt(answer.body.blockNumber) + 1n, "the next block");
    assert.ok(BigInt(blockStateCalls[0]!.blockOverrides.time) > BigInt(answer.body.trade.deadline) - 300n, "after the answer's block");
    assert.deepEqual(blockStateCalls[0]!.calls.map((call) => call.from), Array(5).fill(getAddress(taker)), "allowance, balance, trade, approve, trade: all from the taker");
  });

  test("a kept answer costs the trade its one request; identical trades in flight share it", async () => {
    await served.chain.withService({ probe: true, answerCache: { maxEntries: 100, maxBytes: 1_000_000 } }, async (cached) => {
      const path = quotePath(group(), 2, { expectedPrice: "1030", collateralAvailable: THOUSAND, taker });
      assert.equal((await cached.get(path)).status, 200);
      served.chain.proxy.clear();
      const answers = await Promise.all([cached.get(path), cached.get(path), cached.get(path)]);
      assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200]);
      assert.deepEqual(quoteRequests(served.chain.proxy.methods), ["eth_simulateV1"]);
    });
  });

  test("both strategies answer it byte for byte alike; batch items and depth levels carry the GET's trade", async () => {
    await served.chain.withService({ strategy: "sequential" }, async (sequential) => {
      const cases = [
        quotePath(group(), 2, { expectedPrice: "1030", collateralAvailable: THOUSAND, taker, slippageBps: "0" }),
        quotePath(group(), 1, { expectedPrice: "0.45", collateralAvailable: THOUSAND, taker, search: "exact" }),
        quotePath(DEMO_USDC_MARKET_GROUP_ADDRESS, 1, { expectedPrice: "0.55", collateralAvailable: "100000000000", taker }),
      ];
      for (const path of cases) {
        const [single, sequenced] = await Promise.all([getText(served.service.base, path), getText(sequential.base, path)]);
        assert.equal(sequenced.text, single.text, path);
      }
    });
    const items: Record<string, string>[] = [
      { marketAddress: group(), marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND, taker },
      { marketAddress: group(), marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND },
      { marketAddress: DEMO_USDC_MARKET_GROUP_ADDRESS, marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND, taker, slippageBps: "100" },
    ];
    const batch = await request(`${served.service.base}/quoter/${DEVCHAIN_ID}/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quotes: items }) });
    const batchText = await batch.body.text();
    const { blockNumber, results } = JSON.parse(batchText);
    for (const [i, { marketAddress, marketId, ...query }] of items.entries()) {
      const get = await getText(served.service.base, quotePath(marketAddress!, marketId!, { ...query, minBlock: blockNumber }));
      assert.ok(batchText.includes(`{"status":200,"body":${get.text}}`), `item ${i}: the GET's bytes`);
      assert.equal("trade" in results[i].body, "taker" in query);
    }
    const depth = await served.service.get(`/quoter/${DEVCHAIN_ID}/${group()}/2/depth?collateralAvailable=${THOUSAND}&prices=1010,1030&taker=${taker}&deadlineSeconds=60`);
    assert.equal(depth.status, 200, JSON.stringify(depth.body));
    for (const level of depth.body.levels) {
      const get = await getText(served.service.base, quotePath(group(), 2, { expectedPrice: level.expectedPrice, collateralAvailable: THOUSAND, search: "exact", taker, deadlineSeconds: "60", minBlock: depth.body.blockNumber }));
      assert.equal(JSON.stringify(level), get.text);
    }
  });

  test("a stream's events carry trade at each head, its deadline following the block", async () => {
    const stream = openEventStream(`${served.service.base}${quotePath(group(), 1, { expectedPrice: "0.55", collateralAvailable: THOUSAND, taker })}`);
    try {
      const first = await stream.next(10_000, "the first event");
      assert.equal(first.type, "quote");
      const at = (await served.chain.devchain.chain.publicClient.getBlock({ blockNumber: BigInt(first.json.blockNumber) })).timestamp;
      assert.equal(first.json.trade.deadline, String(at + 300n));
      // A trade on market 2 moves nothing of market 1 but the block: the event follows it for its deadline.
      const mined = await trade(served.chain.devchain);
      let next = await stream.next(10_000, "the event at the next block");
      while (BigInt(next.json.blockNumber) < mined.blockNumber) next = await stream.next(10_000, "the event at the trade's block");
      const minedAt = (await served.chain.devchain.chain.publicClient.getBlock({ blockNumber: BigInt(next.json.blockNumber) })).timestamp;
      assert.equal(next.json.trade.deadline, String(minedAt + 300n));
    } finally {
      stream.close();
    }
  });

  test("every wrong taker, slippageBps, deadlineSeconds is a 400 naming it: the GET, a batch item, a depth ladder", async () => {
    const wrong = { taker: "0x1234", slippageBps: "5001", deadlineSeconds: "0" };
    for (const [param, value] of Object.entries(wrong)) {
      const get = await served.service.get(quotePath(group(), 2, { expectedPrice: "1030", collateralAvailable: THOUSAND, [param]: value }));
      assert.equal(get.status, 400);
      assert.equal(get.body.error, "Invalid query parameters");
      assert.deepEqual(get.body.details.map((detail: { param: string }) => detail.param), [param]);
      const depth = await served.service.get(`/quoter/${DEVCHAIN_ID}/${group()}/2/depth?collateralAvailable=${THOUSAND}&prices=1030&${param}=${value}`);
      assert.equal(depth.status, 400);
      assert.deepEqual(depth.body.details.map((detail: { param: string }) => detail.param), [param]);
    }
    const batch = await request(`${served.service.base}/quoter/${DEVCHAIN_ID}/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        quotes: [
          { marketAddress: group(), marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND, ...wrong },
          { marketAddress: group(), marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND, taker },
        ],
      }),
    });
    const batchText = await batch.body.text();
    assert.equal(batch.statusCode, 200, batchText);
    const [result] = (JSON.parse(batchText) as { results: { status: number; body: { details: { param: string }[] } }[] }).results;
    assert.equal(result!.status, 400);
    assert.deepEqual(result!.body.details.map((detail) => detail.param), ["taker", "slippageBps", "deadlineSeconds"]);
  });
});
