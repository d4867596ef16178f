// What a quote's record says once the quote ended (the caller's log line and metrics read it): the block, the
// direction and the candidates of the search that answered, the RPC requests it sent (the endpoint's chain id and
// the head apart), whether it joined an identical search or was answered from the kept answers. The quoter
// writes it from the values its steps return; warnings go to the logger the quote was given.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createChainRegistry } from "../../src/chain/rpc/client.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { newQuoteRecord, type QuoterService } from "../../src/service/api.ts";
import { createQuoter } from "../../src/service/quoter.ts";
import { closedPort } from "../support/closedPort.ts";
import { demoRequest } from "./support.ts";

let devchain: Devchain;
before(async () => {
  devchain = await startDevchain();
});
after(() => devchain.close());

async function quoterOn(urls: string[], options: { answerCache?: boolean } = {}): Promise<QuoterService> {
  const chains = createChainRegistry(new Map([[DEVCHAIN_ID, urls]]), { timeoutMs: 5_000 });
  const quoter = createQuoter({ chains, strategy: "sequential", ...(options.answerCache ? { answerCache: { maxEntries: 10, maxBytes: 1_000_000 } } : {}) });
  await quoter.start();
  return quoter;
}

test("a search's record: its block, direction, candidates and RPC requests; a joiner's: the same facts, coalesced, none of its own", async () => {
  const quoter = await quoterOn([devchain.endpoint.url]);
  try {
    const request = demoRequest(devchain.marketGroup);
    await quoter.quote(request); // the endpoint's chain id is asked before its first quote
    const [first, joiner] = [newQuoteRecord(), newQuoteRecord()];
    const [a, b] = await Promise.all([quoter.quote(request, { record: first }), quoter.quote(request, { record: joiner })]);
    assert.deepEqual(a, b);
    const facts = { cache: "miss", direction: "LONG", candidates: 10, blockNumber: BigInt(a.blockNumber), blockHash: a.blockHash };
    // Sequentially: the market, its price, the collateral group and its decimals, then each candidate.
    assert.deepEqual(first, { rpcRequests: 14, ...facts });
    assert.deepEqual(joiner, { rpcRequests: 0, coalesced: true, ...facts });
  } finally {
    await quoter.close();
  }
});

test("an error answer's record keeps what its search did; a kept answer's says hit and made no request", async () => {
  const quoter = await quoterOn([devchain.endpoint.url], { answerCache: true });
  try {
    const settled = newQuoteRecord();
    await assert.rejects(quoter.quote(demoRequest(devchain.marketGroup, { marketId: 3n }), { record: settled }), { message: "Market is settled" });
    assert.equal(settled.direction, undefined);
    assert.equal(settled.candidates, undefined);
    assert.equal(settled.cache, "miss");
    assert.equal(typeof settled.blockNumber, "bigint");

    const request = demoRequest(devchain.marketGroup);
    const [miss, hit] = [newQuoteRecord(), newQuoteRecord()];
    await quoter.quote(request, { record: miss });
    await quoter.quote(request, { record: hit });
    assert.equal(miss.cache, "miss");
    assert.deepEqual(hit, { rpcRequests: 0, cache: "hit", direction: "LONG", blockNumber: miss.blockNumber, blockHash: miss.blockHash });
  } finally {
    await quoter.close();
  }
});

test("the warnings of a quote go to the logger it was given, not the service's", async () => {
  const quoter = await quoterOn([`http://127.0.0.1:${await closedPort()}`, devchain.endpoint.url]);
  try {
    const warnings: string[] = [];
    const log = { warn: (_fields: Record<string, unknown>, message: string) => void warnings.push(message) };
    const body = await quoter.quote(demoRequest(devchain.marketGroup), { log });
    assert.equal(body.direction, "LONG");
    assert.ok(warnings.includes("RPC endpoint failed"), JSON.stringify(warnings));
  } finally {
    await quoter.close();
  }
});
