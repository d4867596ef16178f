// Live quotes, on the embedded chain over real HTTP with a real client (undici's EventSource): the quote route
// with `Accept: text/event-stream` sends the answer at once, then again on each head whose answer differs in
// anything but its block (or whose block replaced the last event's), one search per distinct quote and head
// however many streams watch it; errors are events, a settled or ended market ends its streams, and the limits
// of open streams answer 429 before any stream starts.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { parseUnits } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { STREAM_EXAMPLE } from "../../src/http/openapi.ts";
import { METRIC_NAMES } from "../../src/observability/metrics.ts";
import { ONE } from "../../src/http/docExamples.ts";
import { openEventStream, type EventStream } from "../support/eventStream.ts";
import { chainBehindProxy, trade, type ChainBehindProxy, type LiveService, type ServeOptions } from "../support/liveService.ts";

/** The README's example request. */
const QUERY = { expectedPrice: "1030", collateralAvailable: `${ONE}000` };

let setup: ChainBehindProxy;
let devchain: Devchain;
before(async () => ({ devchain } = setup = await chainBehindProxy()));
after(() => setup.close());

const path = (marketId: number, query: Record<string, string> = QUERY) => `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;
const rpc = (method: string, params: unknown[] = []) => devchain.chain.provider.request({ method, params } as never) as Promise<unknown>;

/** The bytes a plain GET answers, and its status. */
async function plainGet(service: LiveService, target: string): Promise<{ status: number; text: string }> {
  const response = await request(`${service.base}${target}`);
  return { status: response.statusCode, text: await response.body.text() };
}

/** `run` with a service on the node (unless `options` say otherwise), heads pushed; the streams it opens close after it. */
async function withService(options: ServeOptions, run: (service: LiveService, streams: (target: string) => EventStream) => Promise<void>): Promise<void> {
  await setup.withService({ rpc: devchain.endpoint.url, webSocket: true, ...options }, async (service) => {
    const opened: EventStream[] = [];
    try {
      await run(service, (target) => {
        const stream = openEventStream(`${service.base}${target}`);
        opened.push(stream);
        return stream;
      });
    } finally {
      for (const stream of opened) stream.close();
    }
  });
}

const counter = async (service: LiveService, name: string) => {
  const text = await (await request(`${service.base}/metrics`)).body.text();
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? "NaN");
};

describe("a stream of one quote", () => {
  test("the first event at once: `quote`, id its block, data the very bytes a plain GET answers at that block", async () => {
    await withService({}, async (service) => {
      const response = await streamRequest(service, path(2), { "x-request-id": "live-1" });
      assert.equal(response.status, 200);
      assert.equal(response.headers["content-type"], "text/event-stream");
      assert.equal(response.headers["cache-control"], "no-cache");
      assert.equal(response.headers["x-request-id"], "live-1");

      const stream = openEventStream(`${service.base}${path(2)}`);
      const first = await stream.next(5_000, "the first quote");
      stream.close();
      const plain = await plainGet(service, path(2));
      assert.equal(first.type, "quote");
      assert.equal(first.id, first.json.blockNumber);
      assert.equal(first.data, plain.text, "the same bytes as the GET at that block");
      // The OpenAPI document's example of the stream is this request's first event on the demo chain.
      assert.ok(STREAM_EXAMPLE.startsWith(`id: ${first.id}\nevent: quote\ndata: ${first.data}\n\n`), STREAM_EXAMPLE);
    });
  });

  test("a bad parameter, or expectedPrice 0, is the plain GET's 4xx JSON: no stream starts", async () => {
    await withService({}, async (service) => {
      for (const [target, status, error] of [
        [path(2, { ...QUERY, expectedPrice: "abc" }), 400, "Invalid query parameters"],
        [path(2, { ...QUERY, expectedPrice: "0" }), 400, "Expected price must be greater than 0"],
        [`/quoter/${DEVCHAIN_ID}/0x12/2?${new URLSearchParams(QUERY)}`, 400, "Invalid path parameters"],
        [`/quoter/999/${devchain.marketGroup}/2?${new URLSearchParams(QUERY)}`, 404, "Market not found"],
      ] as const) {
        const response = await streamRequest(service, target);
        assert.equal(response.status, status, target);
        assert.match(String(response.headers["content-type"]), /^application\/json/);
        assert.equal((JSON.parse(response.text) as { error: string }).error, error);
      }
    });
  });

  test("nothing to say for the keep-alive interval: a `: keep-alive` comment line", async () => {
    await withService({ streams: { keepAliveMs: 200 } }, async (service) => {
      const controller = new AbortController();
      const response = await request(`${service.base}${path(1, { expectedPrice: "0.6", collateralAvailable: ONE })}`, {
        headers: { accept: "text/event-stream" },
        signal: controller.signal,
      });
      let text = "";
      const reading = (async () => {
        for await (const chunk of response.body) text += chunk.toString();
      })().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 900));
      controller.abort();
      await reading;
      const comments = text.split("\n").filter((line) => line === ": keep-alive");
      assert.match(text, /^id: \d+\nevent: quote\ndata: \{/);
      assert.ok(comments.length >= 2 && comments.length <= 5, `${comments.length} keep-alive lines in 900 ms at 200 ms: ${JSON.stringify(text.slice(-200))}`);
    });
  });
});

describe("streams follow the chain", () => {
  test("a trade: every stream of its market gets a quote at its block or later, equal to a GET there; one search per distinct quote; other markets and empty blocks send nothing", async () => {
    // The answers kept by block are on, as by default: a plain GET of a watched quote is answered from them.
    const { proxy } = setup;
    await withService({ rpc: proxy.url, probe: true, answerCache: { maxEntries: 100, maxBytes: 1 << 20 } }, async (service, open) => {
      const twins = [open(path(2)), open(path(2))];
      const other = open(path(2, { expectedPrice: "1010", collateralAvailable: ONE }));
      const yesNo = open(path(1, { expectedPrice: "0.6", collateralAvailable: ONE }));
      const firsts = await Promise.all([...twins, other, yesNo].map((stream) => stream.next(5_000, "the first quote")));
      assert.equal(twins[0]!.events[0]!.data, twins[1]!.events[0]!.data);
      const calls = () => proxy.methods.filter((method) => method === "eth_call").length;
      const [callsBefore, searchesBefore] = [calls(), await counter(service, METRIC_NAMES.streamSearches)];

      const traded = await trade(devchain);
      const moved = await Promise.all([...twins, other].map((stream) => stream.next(5_000, "the trade's quote")));
      for (const event of moved) {
        assert.equal(event.type, "quote");
        assert.ok(BigInt(event.id) >= traded.blockNumber);
        assert.notEqual(event.json.currentPrice, firsts[0]!.json.currentPrice);
      }
      assert.equal(moved[0]!.data, moved[1]!.data);
      assert.equal(moved[0]!.data, (await plainGet(service, `${path(2)}&minBlock=${moved[0]!.id}`)).text);
      await yesNo.quiet(300);
      // Three distinct quotes watched by four streams: three searches at the trade's head, one eth_call each, and
      // none for the GET, which the stream's search answered.
      assert.equal(calls() - callsBefore, 3);
      assert.equal((await counter(service, METRIC_NAMES.streamSearches)) - searchesBefore, 3);

      await rpc("evm_mine");
      await Promise.all([...twins, other, yesNo].map((stream) => stream.quiet(400)));
      assert.equal(await counter(service, METRIC_NAMES.streamsOpen), 4);
    });
  });

  test("a trade that makes the answer an error sends `error`; a trade back sends `quote` again", async () => {
    // Where the trade below leaves the price, found and undone first: the stream's expectedPrice is that price.
    const size = parseUnits("0.01", 18);
    const snapshot = await rpc("evm_snapshot");
    await trade(devchain, size);
    const priceAfterTrade = await priceNow();
    await rpc("evm_revert", [snapshot]);
    await withService({}, async (_service, open) => {
      const stream = open(path(2, { expectedPrice: priceAfterTrade, collateralAvailable: ONE }));
      assert.equal((await stream.next()).type, "quote");
      await trade(devchain, size);
      const error = await stream.next(5_000, "the error at the trade's block");
      assert.equal(error.type, "error");
      assert.deepEqual(
        { status: error.json.status, error: error.json.error },
        { status: 400, error: "Expected price must be different from current price" },
      );
      assert.ok(Number(error.id) > 0);
      await trade(devchain, -size);
      const back = await stream.next(5_000, "the quote after the trade back");
      assert.equal(back.type, "quote");
      assert.equal(back.json.expectedPrice, priceAfterTrade);
    });
  });

  test("a reorg that replaces the last event's block: the answer at the new head is sent, even unchanged but for its block", async () => {
    await withService({}, async (_service, open) => {
      const stream = open(path(2));
      await stream.next();
      const snapshot = await rpc("evm_snapshot");
      await trade(devchain);
      const first = await stream.next(5_000, "the trade's quote");
      await rpc("evm_revert", [snapshot]);
      // The same trade again: the same state at the same height, in a block of another hash.
      const again = await trade(devchain);
      const replaced = await stream.next(5_000, "the quote at the replacing block");
      assert.equal(replaced.type, "quote");
      assert.equal(replaced.json.blockHash, again.blockHash);
      assert.notEqual(replaced.json.blockHash, first.json.blockHash);
      const { blockNumber: _a, blockHash: _b, ...sameA } = first.json;
      const { blockNumber: _c, blockHash: _d, ...sameB } = replaced.json;
      assert.deepEqual(sameB, sameA, "unchanged but for its block");
    });
  });
});

describe("markets that end their streams", () => {
  for (const [marketId, reason, error] of [
    [3, "settled", "Market is settled"],
    [5, "expired", "Could not find a valid position size that satisfies the price constraints"],
  ] as const) {
    test(`market ${marketId}: its error, then \`end\` with "${reason}", and the stream closes`, async () => {
      await withService({}, async (service, open) => {
        const stream = open(path(marketId, { expectedPrice: "0.6", collateralAvailable: ONE }));
        const first = await stream.next();
        assert.equal(first.type, "error");
        assert.equal(first.json.status, 400);
        assert.equal(first.json.error, error);
        const plain = await plainGet(service, path(marketId, { expectedPrice: "0.6", collateralAvailable: ONE }));
        assert.deepEqual({ status: first.json.status, ...JSON.parse(plain.text) }, first.json, "the GET's error, with its status");
        const end = await stream.next();
        assert.deepEqual([end.type, end.json], ["end", { reason }]);
        assert.ok(stream.closed);
      });
    });
  }
});

describe("limits on open streams", () => {
  test("opening a stream counts once in the rate limit, however many events it sends", async () => {
    await withService({ protection: { rateLimitMax: 3, rateLimitWindowMs: 60_000 } }, async (service, open) => {
      const stream = open(path(2));
      await stream.next();
      await trade(devchain);
      await stream.next(5_000, "the trade's quote");
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await plainGet(service, path(1, { expectedPrice: "0.6", collateralAvailable: ONE }))).status);
      assert.deepEqual(statuses, [200, 200, 429], "the stream took one of the three");
    });
  });

  test("past STREAMS_PER_CLIENT or STREAMS_MAX: 429 with Retry-After and the error body; a closed stream frees its place", async () => {
    for (const [limits, setting] of [
      [{ perClient: 2, max: 100 }, "STREAMS_PER_CLIENT"],
      [{ perClient: 100, max: 2 }, "STREAMS_MAX"],
    ] as const) {
      await withService({ streams: limits }, async (service, open) => {
        const held = [open(path(2)), open(path(1, { expectedPrice: "0.6", collateralAvailable: ONE }))];
        await Promise.all(held.map((stream) => stream.next()));
        const refused = await streamRequest(service, path(2));
        assert.equal(refused.status, 429, setting);
        assert.ok(Number(refused.headers["retry-after"]) > 0);
        const body = JSON.parse(refused.text) as { error: string; details: { param: string; message: string }[] };
        assert.equal(body.error, "Too many requests");
        assert.match(body.details[0]!.message, new RegExp(setting));
        // Plain quotes are not streams: still answered.
        assert.equal((await plainGet(service, path(2))).status, 200);
        held[0]!.close();
        let reopened = 429;
        for (let i = 0; i < 50 && reopened === 429; i++) {
          reopened = (await streamRequest(service, path(2))).status;
          if (reopened === 429) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.equal(reopened, 200, "the closed stream's place is free again");
      });
    }
  });
});

/**
 * A request asking for the stream: its status and headers, and for an answer that is not a stream (a 4xx) its
 * body; a stream is let go once its headers came.
 */
async function streamRequest(service: LiveService, target: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await request(`${service.base}${target}`, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  const isStream = String(response.headers["content-type"]).startsWith("text/event-stream");
  response.body.on("error", () => undefined);
  const text = isStream ? "" : await response.body.text();
  if (isStream) controller.abort();
  return { status: response.statusCode, headers: response.headers, text };
}

/** Demo market 2's reference price now, as the quote route reads it (a plain GET's currentPrice). */
function priceNow(): Promise<string> {
  return setup.withService({ rpc: devchain.endpoint.url }, async (service) => (await service.get(path(2))).body.currentPrice as string);
}
