// The coalescer of identical requests in flight: one search while it runs, a new one once it is answered.
// (What a joining quote's record says is the quoter's: test/service/quoteRecord.test.ts.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { zeroAddress } from "viem";
import { createCoalescer, quoteKey } from "../../src/service/coalescer.ts";
import { demoRequest } from "./support.ts";

/** A caller that never gives up. */
const live = new AbortController().signal;

/** A search that answers when told to, counting how many were started and keeping each one's signal. */
function controlledSearches() {
  const settle: ((answer: string | Error) => void)[] = [];
  const signals: AbortSignal[] = [];
  const start = (signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<string>((resolve, reject) => settle.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))));
  };
  return { start, settle, signals, get started() {
    return settle.length;
  } };
}

test("identical requests in flight share one search and its answer; once answered, the next starts another", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const joined = [coalescer.run("a", searches.start, live), coalescer.run("a", searches.start, live), coalescer.run("a", searches.start, live)];
  assert.equal(searches.started, 1);
  searches.settle[0]!("answer");
  assert.deepEqual(await Promise.all(joined), ["answer", "answer", "answer"]);
  const next = coalescer.run("a", searches.start, live);
  assert.equal(searches.started, 2);
  searches.settle[1]!("later");
  assert.equal(await next, "later");
});

test("a failure is shared too, and frees the key", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const joined = [coalescer.run("a", searches.start, live), coalescer.run("a", searches.start, live)];
  searches.settle[0]!(new Error("503"));
  for (const answer of joined) await assert.rejects(answer, { message: "503" });
  void coalescer.run("a", searches.start, live);
  assert.equal(searches.started, 2);
});

test("different requests never join", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const answers = [coalescer.run("a", searches.start, live), coalescer.run("b", searches.start, live)];
  assert.equal(searches.started, 2);
  searches.settle[0]!("a");
  searches.settle[1]!("b");
  assert.deepEqual(await Promise.all(answers), ["a", "b"]);
});

test("a caller that gives up stops waiting at once; the search goes on for the others, and stops once none waits", async () => {
  const coalescer = createCoalescer<string>();
  const searches = controlledSearches();
  const [first, second] = [new AbortController(), new AbortController()];
  const a = coalescer.run("a", searches.start, first.signal);
  const b = coalescer.run("a", searches.start, second.signal);
  first.abort(new Error("deadline"));
  await assert.rejects(a, { message: "deadline" });
  assert.equal(searches.signals[0]!.aborted, false, "the second caller still waits");
  second.abort(new Error("deadline too"));
  await assert.rejects(b, { message: "deadline too" });
  assert.equal(searches.signals[0]!.aborted, true, "nobody waits: the search is abandoned (it makes no further call)");
  searches.settle[0]!("too late");
  await new Promise((resolve) => setImmediate(resolve));
  const next = coalescer.run("a", searches.start, live);
  assert.equal(searches.started, 2, "the next identical request is a new search");
  searches.settle[1]!("fresh");
  assert.equal(await next, "fresh");
});

test("requests are identical when every parameter that shapes the answer is, bigints included; minBlock is not one", () => {
  const request = demoRequest(zeroAddress);
  assert.equal(quoteKey(request), quoteKey({ ...request }));
  assert.equal(quoteKey({ ...request, minBlock: 7n }), quoteKey(request), "minBlock says which blocks may answer: the block is the key's other half");
  for (const change of [{ marketId: 1n }, { collateralAvailable: 10n ** 21n + 1n }, { priceLimit: 10n ** 21n }, { trace: true }, { search: "exact" as const }]) {
    assert.notEqual(quoteKey({ ...request, ...change }), quoteKey(request), JSON.stringify(Object.keys(change)));
  }
});
