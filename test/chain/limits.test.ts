// What keeps a slow or hostile endpoint from hurting the service (semantics §6, §11): a queued request of a quote
// that gave up is never sent; an answer larger than RPC_MAX_RESPONSE_BYTES is cut off unread; an endpoint that
// says "too many requests" rests for its Retry-After, and no request reaches it meanwhile. On the real wire.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { ethCall } from "../../src/chain/rpc/call.ts";
import { createChainClient } from "../../src/chain/rpc/client.ts";
import { ChainUnavailableError, EndpointRestingError } from "../../src/chain/rpc/chainErrors.ts";
import { createLimiter, RequestAbandonedError } from "../../src/chain/rpc/limiter.ts";
import { DEFAULT_REST_MS, MAX_REST_MS, restFromRetryAfter } from "../../src/chain/rpc/transport.ts";

const CALL = { to: "0x000000000000000000000000000000000000dEaD", data: "0x", block: "latest" } as const;

describe("the limiter", () => {
  test("a queued task whose signal aborts leaves the queue unrun; the others run in order", async () => {
    const limiter = createLimiter(1, 1, 10);
    const ran: string[] = [];
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)).then(() => void ran.push("first")));
    const giveUp = new AbortController();
    const abandoned = limiter.run(async () => void ran.push("abandoned"), giveUp.signal);
    const third = limiter.run(async () => void ran.push("third"));
    assert.equal(limiter.queued, 2);
    giveUp.abort();
    await assert.rejects(abandoned, RequestAbandonedError);
    assert.equal(limiter.queued, 1);
    release();
    await Promise.all([first, third]);
    assert.deepEqual(ran, ["first", "third"]);
    assert.deepEqual([limiter.inFlight, limiter.queued], [0, 0]);
  });

  test("a task whose signal has already aborted is never run", async () => {
    const limiter = createLimiter(1, 1, 10);
    const aborted = AbortSignal.abort();
    await assert.rejects(limiter.run(async () => assert.fail("ran"), aborted), RequestAbandonedError);
  });
});

/** A node on loopback that answers each request as `respond` says, counting them. */
let server: Server;
let url: string;
let received = 0;
let respond: (response: import("node:http").ServerResponse, id: unknown) => void = () => {};
before(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received++;
      respond(response, (JSON.parse(body) as { id: unknown }).id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const endpointAt = (options: { maxResponseBytes?: number } = {}) => createChainClient(1, [url], { timeoutMs: 5_000, ...options }).endpoints[0]!;

async function failureOf(promise: Promise<unknown>): Promise<ChainUnavailableError> {
  const error = await promise.then(() => assert.fail("answered"), (error: unknown) => error);
  assert.ok(error instanceof ChainUnavailableError, String(error));
  return error;
}

describe("RPC_MAX_RESPONSE_BYTES", () => {
  const big = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: `0x${"ab".repeat(600_000)}` }); // 1.2 MB

  test("an answer larger than the bound is cut off and is a failure of the endpoint, named; a smaller one is read", async () => {
    for (const chunked of [false, true]) {
      respond = (response, id) => {
        const text = big(id);
        response.writeHead(200, chunked ? { "content-type": "application/json" } : { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        if (chunked) for (let i = 0; i < text.length; i += 65_536) response.write(text.slice(i, i + 65_536));
        response.end(chunked ? undefined : text);
      };
      const cut = await failureOf(ethCall(endpointAt({ maxResponseBytes: 1024 * 1024 }), CALL));
      assert.equal(cut.reason, "the answer is larger than 1048576 bytes (RPC_MAX_RESPONSE_BYTES)", chunked ? "streamed" : "with a length");
      const read = await ethCall(endpointAt({ maxResponseBytes: 2 * 1024 * 1024 }), CALL);
      assert.equal(read.data.length, 2 + 1_200_000);
    }
  });
});

describe("rate limits", () => {
  test("Retry-After, in seconds or as an HTTP date; a default when it names nothing; never beyond the bound", () => {
    const now = Date.parse("2026-11-24T12:00:00Z");
    assert.equal(restFromRetryAfter("3", now), 3_000);
    assert.equal(restFromRetryAfter("Tue, 24 Nov 2026 12:00:07 GMT", now), 7_000);
    assert.equal(restFromRetryAfter(undefined, now), DEFAULT_REST_MS);
    assert.equal(restFromRetryAfter("soon", now), DEFAULT_REST_MS);
    assert.equal(restFromRetryAfter("86400", now), MAX_REST_MS);
  });

  test("HTTP 429 with Retry-After: the endpoint rests that long; no request reaches it meanwhile; then it is asked again", async () => {
    respond = (response) => {
      response.writeHead(429, { "retry-after": "1", "content-type": "text/plain" });
      response.end("Too Many Requests");
    };
    const endpoint = endpointAt();
    received = 0;
    const limited = await failureOf(ethCall(endpoint, CALL));
    assert.equal(limited.reason, "HTTP 429");
    for (let i = 0; i < 5; i++) {
      const resting = await failureOf(ethCall(endpoint, CALL));
      assert.ok(resting instanceof EndpointRestingError, resting.name);
      assert.ok(resting.restMs > 0 && resting.restMs <= 1_000, `${resting.restMs} ms`);
    }
    assert.equal(received, 1, "only the first request reached the endpoint");
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    respond = (response, id) => response.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x01" }));
    assert.deepEqual(await ethCall(endpoint, CALL), { success: true, data: "0x01" });
    assert.equal(received, 2);
  });

  test("a JSON-RPC rate-limit error in a 200 answer rests the endpoint too", async () => {
    respond = (response, id) => response.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32005, message: "request rate limited" } }));
    const endpoint = endpointAt();
    received = 0;
    assert.match((await failureOf(ethCall(endpoint, CALL))).reason, /rate limited/);
    assert.ok((await failureOf(ethCall(endpoint, CALL))) instanceof EndpointRestingError);
    assert.equal(received, 1);
  });
});

test("a request whose quote gave up while it was in flight is abandoned, and named so", async () => {
  respond = () => {}; // never answers
  const giveUp = new AbortController();
  setTimeout(() => giveUp.abort(), 100);
  const abandoned = await failureOf(ethCall(endpointAt(), { ...CALL, signal: giveUp.signal }));
  assert.equal(abandoned.reason, "abandoned: the quote's deadline passed");
});
