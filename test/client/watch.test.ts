// The packed client's `watch` against real services over real HTTP: the service as `npm start` runs it (node
// dist/main.js, a process of its own) on a demo chain the test keeps, stopped and started again on the same port
// mid-stream, with a trade mined while it is down: the client says it is reconnecting, reconnects, and its next
// event is the answer at the chain's current head, the trade's block. Also a process killed outright (no `end`),
// a batch's stream, the streams a market's end closes, and a 429 waited out by its Retry-After.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { closedPort } from "../support/closedPort.ts";
import { liveService, trade } from "../support/liveService.ts";
import { startProcess, type Running } from "../support/processes.ts";
import { installPackedClient, type ClientModule, type PackedClient } from "../support/packedClient.ts";

const THOUSAND = "1000000000000000000000";
const ONE = "1000000000000000000";
const CHAIN = String(DEVCHAIN_ID);

let packed: PackedClient;
let client: ClientModule;
let devchain: Devchain;
let port: number;
let base: string;
let running: Running | undefined;

before(async () => {
  packed = await installPackedClient();
  client = packed.module;
  devchain = await startDevchain();
  port = await closedPort();
  base = `http://127.0.0.1:${port}`;
});
after(async () => {
  await running?.stop();
  await devchain?.close();
  packed?.remove();
});

/** The compiled service on `port`, quoting the test's chain (pushed heads over its WebSocket), until it listens. */
async function startService(): Promise<Running> {
  running = await startProcess(
    "node",
    ["dist/main.js"],
    { PORT: String(port), HOST: "127.0.0.1", RPC_URL_31337: devchain.endpoint.url, RPC_WS_URL_31337: devchain.endpoint.webSocketUrl, LOG_LEVEL: "warn", LOG_FORMAT: "json" },
    /Quoter listening on http:\/\/\S+\/quoter/,
    60_000,
  );
  return running;
}

const market = (marketId: string, expectedPrice: string, collateralAvailable = THOUSAND) => ({ chainId: CHAIN, marketAddress: devchain.marketGroup, marketId, expectedPrice, collateralAvailable });

/** The raw answer of a plain GET (or a batch's POST) on the service. */
async function raw(path: string, body?: unknown): Promise<any> {
  const response = await request(`${base}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(response.statusCode, 200);
  return response.body.json();
}

/** The next event of `events`, waited for at most `ms`. */
async function next(events: AsyncIterator<unknown>, ms = 15_000): Promise<any> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no event within ${ms} ms`)), ms)));
  try {
    const got = await Promise.race([events.next(), late]);
    assert.equal(got.done, false, "the stream went on");
    return got.value;
  } finally {
    clearTimeout(timer);
  }
}

/** The events up to the first that is not `reconnecting`: those, and it. */
async function throughReconnects(events: AsyncIterator<any>): Promise<{ reconnects: any[]; event: any }> {
  const reconnects = [];
  for (;;) {
    const event = await next(events, 30_000);
    if (event.type !== "reconnecting") return { reconnects, event };
    reconnects.push(event);
  }
}

describe("watch through a restart of the service", () => {
  test("stopped mid-stream (its `end` shutdown), a trade mined meanwhile, started again on the same port: the next event is at the trade's block", { timeout: 120_000 }, async () => {
    await startService();
    const quoter = client.createQuoterClient({ baseUrl: base });
    const controller = new AbortController();
    const asked = market("2", "1030");
    const events = quoter.watch(asked, { signal: controller.signal, retry: { maxDelayMs: 1_000 } });
    const first = await next(events);
    assert.equal(first.type, "quote");
    assert.deepEqual(first.answer, await raw(`/quoter/${CHAIN}/${asked.marketAddress}/2?expectedPrice=1030&collateralAvailable=${THOUSAND}`));
    assert.equal(first.blockNumber, first.answer.blockNumber, "the event's id is its block");

    await running!.stop();
    const stopped = await next(events);
    assert.equal(stopped.type, "reconnecting");
    assert.equal(stopped.reason, "shutdown", "the service said it was going away");
    assert.equal(stopped.attempt, 1);
    assert.equal(stopped.delayMs, 1_000, "the server's retry: hint (1 s)");

    const traded = await trade(devchain);
    await startService();
    const { reconnects, event } = await throughReconnects(events);
    for (const [index, each] of reconnects.entries()) {
      assert.equal(each.reason, "network", "refused while the service was down");
      assert.equal(each.attempt, index + 2);
      assert.ok(each.error instanceof client.QuoterNetworkError);
      assert.ok(each.delayMs <= 1_000, "within maxDelayMs");
    }
    assert.equal(event.type, "quote");
    assert.equal(event.blockNumber, String(traded.blockNumber), "the answer at the head, the trade's block");
    assert.equal(event.answer.blockHash, traded.blockHash);
    assert.notEqual(event.answer.maxSize, first.answer.maxSize, "the trade moved the answer");
    assert.deepEqual(event.answer, await raw(`/quoter/${CHAIN}/${asked.marketAddress}/2?expectedPrice=1030&collateralAvailable=${THOUSAND}`));

    // And the stream goes on: the next trade's block.
    const again = await trade(devchain);
    const moved = await next(events);
    assert.deepEqual([moved.type, moved.blockNumber], ["quote", String(again.blockNumber)]);
    controller.abort();
    await assert.rejects(events.next(), { name: "AbortError" });
  });

  test("killed outright (no `end`): the drop is reconnected, the first event after it is the answer at the current head", { timeout: 120_000 }, async () => {
    if (running === undefined || running.child.exitCode !== null) await startService();
    const quoter = client.createQuoterClient({ baseUrl: base });
    const events = quoter.watch(market("1", "0.55"), { retry: { initialDelayMs: 200, maxDelayMs: 800 } });
    const first = await next(events);
    assert.equal(first.type, "quote");

    process.kill(-running!.child.pid!, "SIGKILL");
    await running!.stop();
    const dropped = await next(events);
    assert.deepEqual([dropped.type, dropped.reason, dropped.attempt, dropped.delayMs], ["reconnecting", "dropped", 1, 200]);
    await startService();
    const { reconnects, event } = await throughReconnects(events);
    assert.deepEqual(reconnects.map((each) => each.delayMs), [400, 800, 800, 800, 800, 800, 800, 800, 800, 800, 800, 800].slice(0, reconnects.length), "doubling to maxDelayMs");
    const head = await devchain.chain.publicClient.getBlock();
    assert.equal(event.type, "quote");
    assert.equal(event.blockNumber, String(head.number));
    assert.equal(event.answer.blockHash, head.hash);
    await events.return(undefined);
  });
});

describe("watch: batches, ends, and a refusal waited out", () => {
  test("a batch's stream: the whole answer at once (as the POST answers it), then at the block of a trade", { timeout: 60_000 }, async () => {
    if (running === undefined || running.child.exitCode !== null) await startService();
    const quoter = client.createQuoterClient({ baseUrl: base });
    const quotes = [
      { marketAddress: devchain.marketGroup, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND },
      { marketAddress: devchain.marketGroup, marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND },
    ];
    const events = quoter.watch({ chainId: CHAIN, quotes });
    const first = await next(events);
    assert.equal(first.type, "quote");
    assert.deepEqual(first.answer, await raw(`/quoter/${CHAIN}/batch`, { quotes }));
    const traded = await trade(devchain);
    const moved = await next(events);
    assert.equal(moved.type, "quote");
    assert.equal(moved.answer.blockNumber, String(traded.blockNumber));
    assert.equal(moved.answer.results.length, 2);
    await events.return(undefined);
  });

  for (const [marketId, reason] of [["3", "settled"], ["5", "expired"]] as const) {
    test(`market ${marketId}: its error event, then \`end\` (${reason}), and the iterator is done`, { timeout: 60_000 }, async () => {
      if (running === undefined || running.child.exitCode !== null) await startService();
      const quoter = client.createQuoterClient({ baseUrl: base });
      const seen = [];
      for await (const event of quoter.watch(market(marketId, "0.6", ONE))) seen.push(event);
      assert.deepEqual(seen.map((event) => event.type), ["error", "end"]);
      const [error, end] = seen as [any, any];
      assert.equal(error.answer.status, 400);
      assert.equal(typeof error.answer.error, "string");
      assert.ok(error.answer.details.length > 0);
      assert.deepEqual(end, { type: "end", reason });
    });
  }

  test("429 past STREAMS_PER_CLIENT: `reconnecting` (unavailable) after its Retry-After, then the stream once a place is free", { timeout: 60_000 }, async () => {
    const service = await liveService({ rpc: devchain.endpoint.url, streams: { perClient: 1 } });
    try {
      const quoter = client.createQuoterClient({ baseUrl: service.base });
      const holder = quoter.watch(market("2", "1030"));
      assert.equal((await next(holder)).type, "quote");
      const waiting = quoter.watch(market("1", "0.55"));
      const refused = await next(waiting);
      assert.equal(refused.type, "reconnecting");
      assert.equal(refused.reason, "unavailable");
      assert.ok(refused.error instanceof client.QuoterError);
      assert.equal(refused.error.status, 429);
      assert.equal(refused.delayMs, refused.error.retryAfter * 1000, "no sooner than Retry-After");
      await holder.return(undefined); // frees the place
      const event = await next(waiting, 20_000);
      assert.equal(event.type, "quote");
      await waiting.return(undefined);
    } finally {
      await service.close();
    }
  });
});
