// One quote's answer from the reads of one block, on the demo chain: the decisions of semantics §3.5 to §5,
// and what the quote's record keeps of them (the block, the direction, the candidates quoted).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sequentialReader } from "../../src/chain/sequential.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { newQuoteStats, runWithQuoteStats } from "../../src/observability/quoteStats.ts";
import type { QuoteRequest } from "../../src/quote/request.ts";
import { answerFrom } from "../../src/service/answerAtBlock.ts";
import { demoRequest, endpointsAt, latestPin } from "./support.ts";

let devchain: Devchain;
before(async () => {
  devchain = await startDevchain();
});
after(() => devchain.close());

async function answer(overrides: Partial<QuoteRequest>) {
  const request = demoRequest(devchain.marketGroup, overrides);
  const block = await latestPin(devchain.endpoint.url);
  const reader = await sequentialReader(endpointsAt([devchain.endpoint.url])[0]!, request.marketAddress, request.marketId, undefined, block);
  return answerFrom(reader, request);
}

test("a LONG on market 2: the README's example answer, and the quote's record of its search", async () => {
  const stats = newQuoteStats();
  const body = await runWithQuoteStats(stats, () => answer({}));
  assert.deepEqual(
    { direction: body.direction, maxSize: body.maxSize, blockNumber: body.blockNumber, iterations: body.iterations },
    { direction: "LONG", maxSize: "45898437500000000", blockNumber: "6", iterations: 10 },
  );
  assert.deepEqual({ ...stats }, { rpcRequests: 0, blockNumber: 6n, direction: "LONG", candidates: 10 });
});

test("a second endpoint's reads replace what the first recorded", async () => {
  const stats = Object.assign(newQuoteStats(), { direction: "SHORT" as const, candidates: 3, blockNumber: 5n });
  await assert.rejects(runWithQuoteStats(stats, () => answer({ marketId: 3n })), { message: "Market is settled" });
  assert.deepEqual({ ...stats }, { rpcRequests: 0, blockNumber: 6n });
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
