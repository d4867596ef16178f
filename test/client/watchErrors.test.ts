// The packed client's `watch` throws only its own error classes, QuoterError and QuoterNetworkError (the abort of the
// caller's own signal aside, which rejects with its reason, as the README says): whatever else could escape a step
// (a request fetch cannot make, a body JSON cannot write, a 2xx that is no event stream, an `end` without a reason, a
// fetch that answers no Response) comes wrapped, with the cause kept; what asking again cannot mend is thrown at
// once, not retried. The service is stood in for by the client's `fetch` option. And the package's `engines` says
// what its README says about the runtimes it supports.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { installPackedClient, type ClientModule, type PackedClient } from "../support/packedClient.ts";

let packed: PackedClient;
let client: ClientModule;
before(async () => {
  packed = await installPackedClient();
  client = packed.module;
});
after(() => packed?.remove());

const BASE = "http://127.0.0.1:1";
const request = { chainId: "31337", marketAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3", marketId: "2", expectedPrice: "1030", collateralAvailable: "1000" };
const stream = (text: string) => new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });

/** A client whose fetch answers `answer()` to every call, and the URLs it was asked. */
function standIn(answer: () => Promise<Response> | Response, headers?: Record<string, string>) {
  const asked: string[] = [];
  const fetch = (async (input: string) => {
    asked.push(String(input));
    return answer();
  }) as typeof globalThis.fetch;
  return { quoter: client.createQuoterClient({ baseUrl: BASE, fetch, ...(headers ? { headers } : {}) }), asked };
}

/** Everything `events` yields until it throws: the events and what it threw (or undefined when it ended). */
async function drain(events: AsyncGenerator<unknown>): Promise<{ seen: any[]; thrown: unknown }> {
  const seen = [];
  try {
    for await (const event of events) seen.push(event);
    return { seen, thrown: undefined };
  } catch (thrown) {
    return { seen, thrown };
  }
}

const isOwn = (error: unknown) => error instanceof client.QuoterError || error instanceof client.QuoterNetworkError;

describe("watch throws only QuoterError and QuoterNetworkError", () => {
  test("a 2xx that is no event stream: a QuoterNetworkError at once, not retried", async () => {
    const { quoter, asked } = standIn(() => Response.json({ maxSize: "1" }));
    const { seen, thrown } = await drain(quoter.watch(request));
    assert.ok(thrown instanceof client.QuoterNetworkError, String(thrown));
    assert.match(thrown.message, /no live stream: the service answered application\/json/);
    assert.deepEqual([seen.length, asked.length], [0, 1]);
  });

  test("an `end` whose data has no reason (null): a dropped stream, reconnected; past maxAttempts a QuoterNetworkError", async () => {
    const { quoter, asked } = standIn(() => stream("event: end\ndata: null\n\n"));
    const { seen, thrown } = await drain(quoter.watch(request, { retry: { initialDelayMs: 1, maxAttempts: 2 } }));
    assert.ok(thrown instanceof client.QuoterNetworkError, String(thrown));
    assert.match(thrown.message, /an end event without a reason/);
    assert.deepEqual(seen.map((event) => [event.type, event.reason, isOwn(event.error)]), [["reconnecting", "network", true], ["reconnecting", "network", true]]);
    assert.equal(asked.length, 3);
  });

  test("a header value fetch refuses: a QuoterNetworkError with its cause, no request made, not retried", async () => {
    const { quoter, asked } = standIn(() => stream(""), { "x-api-key": "two\nlines" });
    const { thrown } = await drain(quoter.watch(request));
    assert.ok(thrown instanceof client.QuoterNetworkError, String(thrown));
    assert.match(thrown.message, /the request could not be made/);
    assert.ok(thrown.cause instanceof TypeError);
    assert.equal(asked.length, 0);
  });

  test("a batch item JSON cannot write (a bigint where a string goes): a QuoterNetworkError, no request made", async () => {
    const { quoter, asked } = standIn(() => stream(""));
    const quotes = [{ ...request, collateralAvailable: 1000n as unknown as string }];
    const { thrown } = await drain(quoter.watch({ chainId: "31337", quotes }));
    assert.ok(thrown instanceof client.QuoterNetworkError, String(thrown));
    assert.ok(thrown.cause instanceof TypeError);
    assert.equal(asked.length, 0);
  });

  test("a request that is no object: a QuoterNetworkError from the first next(), not a TypeError from watch()", async () => {
    const { quoter } = standIn(() => stream(""));
    const events = quoter.watch(null as never);
    const { thrown } = await drain(events);
    assert.ok(thrown instanceof client.QuoterNetworkError, String(thrown));
  });

  test("a path with a lone surrogate: asked (as U+FFFD, as a query's value is), and the service's 400 is a QuoterError", async () => {
    const { quoter, asked } = standIn(() => Response.json({ error: "Invalid path parameters", details: [{ param: "marketId", message: "not an id" }] }, { status: 400 }));
    const { thrown } = await drain(quoter.watch({ ...request, marketId: "2\uD800" }));
    assert.ok(thrown instanceof client.QuoterError, String(thrown));
    assert.equal(thrown.status, 400);
    assert.match(asked[0]!, /\/2%EF%BF%BD\?/);
  });

  test("a fetch that answers no Response: a QuoterNetworkError, not retried", async () => {
    const { quoter, asked } = standIn(() => undefined as unknown as Response);
    const { thrown } = await drain(quoter.watch(request));
    assert.ok(thrown instanceof client.QuoterNetworkError, String(thrown));
    assert.ok(thrown.cause instanceof TypeError);
    assert.equal(asked.length, 1);
  });

  test("a fetch that fails (TypeError: fetch failed): reconnected, then a QuoterNetworkError whose cause it is", async () => {
    const { quoter } = standIn(() => Promise.reject(new TypeError("fetch failed")));
    const { seen, thrown } = await drain(quoter.watch(request, { retry: { initialDelayMs: 1, maxAttempts: 1 } }));
    assert.deepEqual(seen.map((event) => event.type), ["reconnecting"]);
    assert.ok(thrown instanceof client.QuoterNetworkError, String(thrown));
    assert.ok(thrown.cause instanceof TypeError);
  });

  test("the caller's own abort rejects with its reason, as documented", async () => {
    const { quoter } = standIn(() => stream(": comment\n\n"));
    const controller = new AbortController();
    const events = quoter.watch(request, { signal: controller.signal });
    const next = events.next();
    controller.abort(new Error("the user left"));
    await assert.rejects(next, /the user left/);
  });
});

test("the package's engines name the Node lines its README says it runs on", () => {
  const root = new URL("../../client/", import.meta.url);
  const engines = (JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { engines: { node: string } }).engines.node;
  const readme = readFileSync(new URL("README.md", root), "utf8");
  const said = /for browsers and Node (\d+)\s+or (\d+)/.exec(readme);
  assert.ok(said, "the README says which Node lines");
  assert.deepEqual([...engines.matchAll(/\^(\d+)\.0\.0/g)].map((match) => match[1]), [said[1], said[2]], `engines ${engines}`);
  assert.ok(readme.includes(`\`${engines}\``), "the README quotes the engines");
});
