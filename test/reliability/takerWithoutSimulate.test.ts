// Semantics §12 on a node without eth_simulateV1: ganache 7 (test/support/ganache.ts) answers the method with
// "does not exist". The service learns it from that first answer, says it once, and from then on runs a trade there
// as §12 says: the taker's reads, then the transaction alone by eth_call from the taker (no gas: eth_call does not
// say it), and not at all where an approval must come first (`ok: null`, with the reason).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import pino from "pino";
import { erc20Abi, getAddress, maxUint256 } from "viem";
import { THOUSAND } from "../../src/http/docExamples.ts";
import { NOT_RUN_BEFORE_APPROVAL } from "../../src/chain/trade/takerTrade.ts";
import { GANACHE_CHAIN_ID, startGanacheWithDemo, type GanacheChain } from "../support/ganache.ts";
import { liveService, type LiveService } from "../support/liveService.ts";
import { minedReceipt } from "../support/receipts.ts";
import { quoteRequests, startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";

let ganache: GanacheChain;
let proxy: RpcProxy;
let service: LiveService;
const lines: { msg: string }[] = [];
before(async () => {
  ganache = await startGanacheWithDemo();
  proxy = await startRpcProxy(ganache.url);
  const logger = pino({ level: "warn" }, new Writable({ write: (chunk, _encoding, done) => (lines.push(...String(chunk).trim().split("\n").map((line) => JSON.parse(line))), done()) }));
  service = await liveService({ rpc: new Map([[GANACHE_CHAIN_ID, [proxy.url]]]), logger: logger as never });
});
after(async () => {
  await service?.close();
  await proxy?.close();
  await ganache?.close();
});

const path = (query: Record<string, string>) => `/quoter/${GANACHE_CHAIN_ID}/${ganache.marketGroup}/2?${new URLSearchParams({ expectedPrice: "1030", collateralAvailable: THOUSAND, ...query })}`;

test("ganache 7: no eth_simulateV1, found out once; a taker without allowance gets its approval and ok: null, the transaction not run", async () => {
  const taker = ganache.chain.traderClient.account.address;
  const without = await service.get(path({}));
  assert.equal(without.status, 200);
  for (let i = 0; i < 2; i++) {
    proxy.clear();
    const answer = await service.get(path({ taker }));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const { trade, ...rest } = answer.body;
    assert.deepEqual(rest, without.body, "the answer without taker, plus its trade");
    assert.deepEqual(trade.simulation, { ok: null, reason: NOT_RUN_BEFORE_APPROVAL });
    assert.equal(trade.approval.allowance, "0");
    assert.equal(trade.approval.spender, ganache.marketGroup);
    const methods = quoteRequests(proxy.methods);
    assert.equal(methods.includes("eth_simulateV1"), i === 0, "asked once: the refusal is remembered");
    const trades = proxy.requests.filter((request) => request.method === "eth_call" && (request.params?.[0] as { from?: string }).from !== undefined);
    assert.deepEqual(trades, [], "the transaction is not run before its approval");
  }
  assert.equal(lines.filter((line) => /does not run eth_simulateV1/.test(line.msg)).length, 1, JSON.stringify(lines));
});

test("ganache 7: with the allowance given, the transaction alone by eth_call from the taker at the answer's block, without gas", async () => {
  const { traderClient, publicClient } = ganache.chain;
  const taker = traderClient.account.address;
  const first = await service.get(path({ taker }));
  const token = first.body.trade.approval.token;
  const hash = await traderClient.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [ganache.marketGroup, maxUint256], gas: 100_000n });
  const receipt = await minedReceipt(publicClient, hash);
  proxy.clear();
  const answer = await service.get(path({ taker, minBlock: String(receipt.blockNumber) }));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const { trade } = answer.body;
  assert.equal(trade.approval, null, "the allowance covers the limit");
  assert.equal(trade.balance.token, getAddress(token));
  assert.deepEqual(trade.simulation, { ok: true }, "run, and it succeeds; eth_call does not say the gas");
  const run = proxy.requests.filter((request) => request.method === "eth_call" && (request.params?.[0] as { from?: string }).from === taker);
  assert.equal(run.length, 1, "the transaction, by eth_call from the taker");
  assert.equal((run[0]!.params![0] as { data: string }).data, trade.transaction.data);
  assert.equal(run[0]!.params![1], `0x${BigInt(answer.body.blockNumber).toString(16)}`, "at the answer's block (by number on ganache, checked by hash)");
});
