// The coalescer of identical requests in flight: one search while it runs, a new one once it is answered,
// and the joining quotes' records (coalesced, the search's facts, no RPC request of their own).
import { test } from "node:test";
import assert from "node:assert/strict";
import { zeroAddress } from "viem";
import { newQuoteStats, runWithQuoteStats } from "../../src/observability/quoteStats.ts";
import { createCoalescer, quoteKey } from "../../src/service/coalescer.ts";
import { demoRequest } from "./support.ts";

/** A search that answers when told to, counting how many were started. */
function controlledSearches() {
  const settle: ((answer: string | Error) => void)[] = [];
  const start = () =>
    new Promise<string>((resolve, reject) => settle.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))));
  return { start, settle, get started() {
    return settle.length;
  } };
}

test("identical requests in flight share one search and its answer; once answered, the next starts another", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const joined = [coalescer.run("a", searches.start), coalescer.run("a", searches.start), coalescer.run("a", searches.start)];
  assert.equal(searches.started, 1);
  searches.settle[0]!("answer");
  assert.deepEqual(await Promise.all(joined), ["answer", "answer", "answer"]);
  const next = coalescer.run("a", searches.start);
  assert.equal(searches.started, 2);
  searches.settle[1]!("later");
  assert.equal(await next, "later");
});

test("a failure is shared too, and frees the key", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const joined = [coalescer.run("a", searches.start), coalescer.run("a", searches.start)];
  searches.settle[0]!(new Error("503"));
  for (const answer of joined) await assert.rejects(answer, { message: "503" });
  void coalescer.run("a", searches.start);
  assert.equal(searches.started, 2);
});

test("different requests never join", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const answers = [coalescer.run("a", searches.start), coalescer.run("b", searches.start)];
  assert.equal(searches.started, 2);
  searches.settle[0]!("a");
  searches.settle[1]!("b");
  assert.deepEqual(await Promise.all(answers), ["a", "b"]);
});

test("a joining quote's record says coalesced, makes no RPC request and takes the search's facts once it is answered", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const first = newQuoteStats();
  const joiner = newQuoteStats();
  const answer = runWithQuoteStats(first, () => coalescer.run("a", searches.start));
  const joined = runWithQuoteStats(joiner, () => coalescer.run("a", searches.start));
  assert.equal(joiner.coalesced, true);
  Object.assign(first, { rpcRequests: 1, direction: "LONG", candidates: 10, blockNumber: 6n });
  searches.settle[0]!("answer");
  assert.equal(await joined, await answer);
  assert.deepEqual(joiner, { rpcRequests: 0, coalesced: true, direction: "LONG", candidates: 10, blockNumber: 6n });
  assert.equal(first.coalesced, undefined);
});

test("requests are identical when every parameter is, bigints included", () => {
  const request = demoRequest(zeroAddress);
  assert.equal(quoteKey(request), quoteKey({ ...request }));
  for (const change of [{ marketId: 1n }, { collateralAvailable: 10n ** 21n + 1n }, { priceLimit: 10n ** 21n }, { trace: true }, { search: "exact" as const }]) {
    assert.notEqual(quoteKey({ ...request, ...change }), quoteKey(request), JSON.stringify(Object.keys(change)));
  }
});
