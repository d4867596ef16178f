// The deadline of a quote: the task's own answer before it; after it a QuoteDeadlineError, the task's signal
// aborted, and an abandoned search on a real (slowed) chain makes no further call.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { sequentialReader } from "../../src/chain/searchers/sequential.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { answerFrom } from "../../src/service/answerAtBlock.ts";
import { QuoteDeadlineError, withDeadline } from "../../src/service/deadline.ts";
import { startRpcProxy } from "../support/rpcProxy.ts";
import { demoRequest, endpointsAt, latestPin } from "./support.ts";

/** A task that answers only when its signal aborts, and then with a rejection. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new Error("abandoned")), { once: true }));

const activeTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

test("an answer before the deadline is the task's, its signal never aborts, and no timer is left behind", async () => {
  let seen: AbortSignal | undefined;
  const timers = activeTimers();
  const answer = await withDeadline(60_000, async (signal) => {
    seen = signal;
    return "answer";
  });
  assert.equal(answer, "answer");
  assert.equal(seen!.aborted, false);
  assert.equal(activeTimers(), timers);
});

test("a failure before the deadline is the task's own", async () => {
  const failure = new RangeError("the task's");
  await assert.rejects(withDeadline(60_000, async () => Promise.reject(failure)), (error) => error === failure);
});

test("at the deadline: QuoteDeadlineError, whatever the task does after; its signal is aborted", async () => {
  let seen: AbortSignal | undefined;
  await assert.rejects(
    withDeadline(20, (signal) => {
      seen = signal;
      return untilAborted(signal);
    }),
    QuoteDeadlineError,
  );
  assert.equal(seen!.aborted, true);
});

let devchain: Devchain;
before(async () => {
  devchain = await startDevchain();
});
after(() => devchain.close());

test("a search abandoned at the deadline makes no further call to the chain", async () => {
  const slow = await startRpcProxy(devchain.endpoint.url, { delayMs: 100 });
  try {
    const [endpoint] = endpointsAt([slow.url]);
    const request = demoRequest(devchain.marketGroup);
    const block = await latestPin(devchain.endpoint.url);
    // A sequential quote makes 14 requests, far more than fit before this deadline.
    const quote = withDeadline(350, async (signal) => answerFrom(await sequentialReader(endpoint!, request, { block, signal }), request));
    await assert.rejects(quote, QuoteDeadlineError);
    // A request already on its way at the deadline may reach the proxy a moment later (seen on a busy machine):
    // let it arrive, then count.
    await sleep(150);
    const sent = slow.methods.length;
    assert.ok(sent > 0 && sent < 14, `${sent} requests before the deadline`);
    await sleep(500); // long enough for several more requests, were the search still going
    assert.equal(slow.methods.length, sent);
  } finally {
    await slow.close();
  }
});
