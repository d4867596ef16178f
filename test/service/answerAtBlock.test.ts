// One quote's answer from the reads of one block, on the demo chain: the decisions of semantics §3.5 to §5,
// and the facts of its search it returns with it (the block, the direction, the candidates quoted).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sequentialReader } from "../../src/chain/searchers/sequential.ts";
import { DEFAULT_SEARCH_GAS_CAP, encodeSearch, runSearcher } from "../../src/chain/searchers/searcher.ts";
import { replayingReader } from "../../src/chain/searchers/singleCall.ts";
import { DEMO_HEAD_BLOCK } from "../../src/devchain/demo.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import type { QuoteRequest } from "../../src/quote/request.ts";
import type { QuoteResponseBody } from "../../src/quote/quoteAnswer.ts";
import { answerFrom } from "../../src/service/answerAtBlock.ts";
import type { RpcTally } from "../../src/chain/rpc/call.ts";
import { bodyOf, demoRequest, endpointsAt, latestPin } from "./support.ts";

let devchain: Devchain;
before(async () => {
  devchain = await startDevchain();
});
after(() => devchain.close());

async function searched(overrides: Partial<QuoteRequest>, tally?: RpcTally) {
  const request = demoRequest(devchain.marketGroup, overrides);
  const block = await latestPin(devchain.endpoint.url);
  const reader = await sequentialReader(endpointsAt([devchain.endpoint.url])[0]!, request, { block, tally });
  return answerFrom(reader, request);
}

const answer = async (overrides: Partial<QuoteRequest>) => bodyOf(await searched(overrides));

test("a LONG on market 2: the README's example answer, and the facts of its search", async () => {
  const tally = { rpcRequests: 0 };
  const { answer: body, facts } = await searched({}, tally);
  assert.ok(body.ok);
  const { direction, maxSize, blockNumber, iterations } = body.value as QuoteResponseBody;
  assert.deepEqual({ direction, maxSize, blockNumber, iterations }, { direction: "LONG", maxSize: "45898437500000000", blockNumber: String(DEMO_HEAD_BLOCK), iterations: 10 });
  assert.deepEqual(facts, { blockNumber: DEMO_HEAD_BLOCK, direction: "LONG", candidates: 10 });
  // Sequentially: the market, its price, the collateral group and its decimals, then each candidate.
  assert.equal(tally.rpcRequests, 14);
});

test("an answer that ends before its search has the block only: no direction, no candidates", async () => {
  const { answer: settled, facts } = await searched({ marketId: 3n });
  assert.equal(settled.ok ? undefined : settled.error.message, "Market is settled");
  assert.deepEqual(facts, { blockNumber: DEMO_HEAD_BLOCK });
});

test("the checks before the search, in order: an unknown market, a settled one", async () => {
  await assert.rejects(answer({ marketId: 99n }), { message: "Market not found" });
  await assert.rejects(answer({ marketId: 3n }), { message: "Market is settled" });
});

test("the exact search is asked for with search=exact, and proves its answer", async () => {
  const body = await answer({ search: "exact" });
  assert.equal(body.exact, true);
  assert.ok(BigInt(body.maxSize) >= 45898437500000000n);
});

test("a searcher's call that stopped before the price edge: the call that resumes the search reads it (never the service alone)", async () => {
  const request = demoRequest(devchain.marketGroup, { search: "exact" });
  const block = await latestPin(devchain.endpoint.url);
  const [endpoint] = endpointsAt([devchain.endpoint.url]);
  const limits = { gasCap: DEFAULT_SEARCH_GAS_CAP, exactMaxCandidates: 32 };
  const full = await runSearcher(endpoint!, encodeSearch(request, undefined, 32), limits.gasCap, { block });
  assert.ok(full.edgeRead && full.candidates.length > 0, "a whole call reads the edge and quotes");
  // As a call that ran out of gas right before the edge leaves its facts: the reads, nothing after them.
  const stopped = { ...full, edgeRead: false, edge: { success: false, data: "0x" as const }, candidates: [] };
  const tally = { rpcRequests: 0 };
  const body = bodyOf(await answerFrom(replayingReader(endpoint!, request, limits, { block, tally }, stopped), request));
  assert.deepEqual(body, bodyOf(await answerFrom(replayingReader(endpoint!, request, limits, { block }, full), request)));
  // One more call, the searcher's resumed one, which read the edge and quoted every candidate.
  assert.equal(tally.rpcRequests, 1);
});
