// The HTTP edge as a browser and an operator meet it, over real HTTP: CORS (preflights, headers on answers and
// errors), every error before routing in the `{ error, details }` shape (semantics §6), the rate limit on every
// path, TRUST_PROXY, and the root.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { marketNotFound } from "../../src/quote/quoteErrors.ts";
import type { Quoter } from "../../src/service/api.ts";
import { quoterApp, type QuoterAppOptions } from "../support/quoterHarness.ts";

const APP_ORIGIN = "https://app.example.com";
const standIn: Quoter = { quote: async () => { throw marketNotFound(); } };

async function listening(options: QuoterAppOptions): Promise<{ app: FastifyInstance; base: string }> {
  const app = await quoterApp(options);
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, base };
}

async function send(base: string, path: string, options: { method?: "GET" | "OPTIONS" | "HEAD"; headers?: Record<string, string> } = {}) {
  const response = await request(`${base}${path}`, { method: options.method ?? "GET", headers: options.headers ?? {} });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) };
}

/** Writes `head` on a raw socket and reads the answer: for requests a client library would refuse to send. */
function raw(base: string, head: string): Promise<{ status: number; headers: string; body: any }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => {
      const [headers, body] = answer.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]), headers: headers ?? "", body: body ? JSON.parse(body) : undefined });
    });
  });
}

describe("CORS", () => {
  let devchain: Devchain;
  let service: { app: FastifyInstance; base: string };
  const quotePath = () => `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000`;
  before(async () => {
    devchain = await startDevchain();
    service = await listening({ rpc: devchain.endpoint.url, protection: { rateLimitMax: 3, rateLimitWindowMs: 60_000 } });
  });
  after(async () => {
    await service.app.close();
    await devchain.close();
  });

  test("a preflight of the quote path: 204, the methods and headers allowed, and how long to keep it", async () => {
    const answer = await send(service.base, quotePath(), {
      method: "OPTIONS",
      headers: { origin: APP_ORIGIN, "access-control-request-method": "GET", "access-control-request-headers": "x-request-id, cache-control" },
    });
    assert.equal(answer.status, 204);
    assert.equal(answer.body, undefined);
    assert.equal(answer.headers["access-control-allow-origin"], "*");
    assert.deepEqual(String(answer.headers["access-control-allow-methods"]).split(/,\s*/).sort(), ["GET", "HEAD"]);
    const allowed = String(answer.headers["access-control-allow-headers"]).toLowerCase().split(/,\s*/);
    for (const header of ["x-request-id", "cache-control"]) assert.ok(allowed.includes(header), `${header} in ${allowed}`);
    assert.equal(answer.headers["access-control-max-age"], "600");
  });

  test("a preflight of a batch's path allows POST with Content-Type (a JSON body); the POST it clears answers with the origin allowed", async () => {
    for (const path of [`/quoter/${DEVCHAIN_ID}/batch`, `/quoter/${DEVCHAIN_ID}/batch/`]) {
      const answer = await send(service.base, path, {
        method: "OPTIONS",
        headers: { origin: APP_ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type, cache-control" },
      });
      assert.equal(answer.status, 204, path);
      assert.equal(answer.headers["access-control-allow-origin"], "*");
      assert.deepEqual(String(answer.headers["access-control-allow-methods"]).split(/,\s*/), ["POST"], "a batch's path takes POST alone");
      const allowed = String(answer.headers["access-control-allow-headers"]).toLowerCase().split(/,\s*/);
      for (const header of ["content-type", "cache-control"]) assert.ok(allowed.includes(header), `${header} in ${allowed}`);
    }
    const quotes = [{ marketAddress: devchain.marketGroup, marketId: "2", expectedPrice: "1030", collateralAvailable: "1000000000000000000000" }];
    const posted = await request(`${service.base}/quoter/${DEVCHAIN_ID}/batch`, { method: "POST", headers: { origin: APP_ORIGIN, "content-type": "application/json" }, body: JSON.stringify({ quotes }) });
    assert.equal(posted.statusCode, 200, await posted.body.text());
    assert.equal(posted.headers["access-control-allow-origin"], "*");
    // The quote path's preflight still allows only what it takes.
    const quote = await send(service.base, quotePath(), { method: "OPTIONS", headers: { origin: APP_ORIGIN, "access-control-request-method": "POST" } });
    assert.deepEqual(String(quote.headers["access-control-allow-methods"]).split(/,\s*/).sort(), ["GET", "HEAD"]);
  });

  test("a quote's 200, an error and a 429 all carry Access-Control-Allow-Origin, and expose Retry-After and X-Request-Id", async () => {
    const client = { origin: APP_ORIGIN, "x-forwarded-for": "ignored" };
    const ok = await send(service.base, quotePath(), { headers: client });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    // The quote route answers JSON or a live stream by Accept: a shared cache keeps one answer per Accept.
    assert.match(String(ok.headers.vary), /(^|,)\s*accept\s*(,|$)/i);
    const notFound = await send(service.base, `/quoter/${DEVCHAIN_ID}/0x0000000000000000000000000000000000000001/2?expectedPrice=1030&collateralAvailable=1`, { headers: client });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.body.error, "Market not found");
    await send(service.base, quotePath(), { headers: client });
    const limited = await send(service.base, quotePath(), { headers: client });
    assert.equal(limited.status, 429);
    for (const answer of [ok, notFound, limited]) {
      assert.equal(answer.headers["access-control-allow-origin"], "*", String(answer.status));
      assert.deepEqual(String(answer.headers["access-control-expose-headers"]).toLowerCase().split(/,\s*/).sort(), ["retry-after", "x-request-id"]);
    }
  });

  test("CORS_ORIGINS as a list: an origin on it is echoed, another gets no Access-Control-Allow-Origin", async () => {
    const listed = await listening({ quoter: standIn, corsOrigins: [APP_ORIGIN] });
    try {
      const preflight = { method: "OPTIONS" as const, headers: { "access-control-request-method": "GET" } };
      const mine = await send(listed.base, "/quoter", { ...preflight, headers: { ...preflight.headers, origin: APP_ORIGIN } });
      assert.equal(mine.headers["access-control-allow-origin"], APP_ORIGIN);
      assert.match(String(mine.headers.vary), /origin/i, "a cache keeps one answer per origin");
      const other = await send(listed.base, "/quoter", { headers: { origin: "https://evil.example" } });
      assert.equal(other.status, 200);
      assert.equal(other.headers["access-control-allow-origin"], undefined);
    } finally {
      await listed.app.close();
    }
  });
});

describe("errors before routing, in the API's shape", () => {
  let service: { app: FastifyInstance; base: string };
  before(async () => {
    service = await listening({ quoter: standIn, protection: { rateLimitMax: 4, rateLimitWindowMs: 60_000 } });
  });
  after(() => service.app.close());

  test("headers over Node's 16 KiB limit: 431 with details saying what to shorten", async () => {
    const answer = await raw(service.base, `GET /quoter HTTP/1.1\r\nHost: x\r\nCookie: ${"a".repeat(20_000)}\r\n\r\n`);
    assert.equal(answer.status, 431);
    assert.equal(answer.body.error, "Request header fields too large");
    assert.equal(answer.body.details[0].param, "headers");
    assert.match(answer.headers, /content-type: application\/json/i);
  });

  test("a request that is not HTTP: 400 in the same shape", async () => {
    const answer = await raw(service.base, "NOT A REQUEST\r\n\r\n");
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { error: "Bad request", details: [{ param: "request", message: "not a valid HTTP/1.1 request" }] });
  });

  test("a URL whose percent-encoding does not decode: 400 Bad request naming the url", async () => {
    const answer = await raw(service.base, "GET /quoter/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, "Bad request");
    assert.equal(answer.body.details[0].param, "url");
  });

  test("an unknown path is 404 in the shape, and counts against the rate limit like /openapi.json does", async () => {
    const statuses: number[] = [];
    for (const path of ["/nope", "/openapi-not", "/quoter/openapi.json", "/nope"]) statuses.push((await send(service.base, path)).status);
    assert.deepEqual(statuses, [404, 404, 200, 404]);
    const limited = await send(service.base, "/nope");
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error, "Too many requests");
    assert.match(limited.body.details[0].message, /^this client passed its limit of 4 requests a window \(RATE_LIMIT_MAX; .*\): ask again after \d+ s \(Retry-After\)$/);
    assert.equal((await send(service.base, "/quoter/openapi.json")).status, 429);
    assert.equal((await send(service.base, "/health")).status, 200, "the operations routes stay exempt");
  });
});

describe("a request no route takes: 405 naming the methods its path takes, else 404 leading to the routes", () => {
  let service: { app: FastifyInstance; base: string };
  before(async () => {
    service = await listening({ quoter: standIn });
  });
  after(() => service.app.close());

  test("OPTIONS that is not a preflight: 405 with Allow and details naming the methods the path takes; 404 where it takes none", async () => {
    const paths: [string, string][] = [
      ["/health", "GET, HEAD"],
      ["/quoter/1/0x5FbDB2315678afecb367f032d93F642f64180aa3/1", "GET, HEAD"],
      ["/quoter/1/batch", "POST"],
    ];
    for (const [path, allow] of paths) {
      const answer = await send(service.base, path, { method: "OPTIONS" });
      assert.equal(answer.status, 405, path);
      assert.equal(answer.headers.allow, allow);
      assert.deepEqual(answer.body, {
        error: "Method not allowed",
        details: [{ param: "method", message: `${path} takes ${allow}, not OPTIONS (a CORS preflight is an OPTIONS with Origin and Access-Control-Request-Method headers)` }],
      });
    }
    assert.equal((await send(service.base, "/nope", { method: "OPTIONS" })).status, 404);
  });

  test("another method on a path that has a route: 405 naming the methods it takes; GET on the batch's path names POST", async () => {
    const health = await request(`${service.base}/health`, { method: "DELETE" });
    assert.equal(health.statusCode, 405);
    assert.equal(health.headers.allow, "GET, HEAD");
    assert.deepEqual(await health.body.json(), { error: "Method not allowed", details: [{ param: "method", message: "/health takes GET, HEAD, not DELETE" }] });
    const batch = await send(service.base, "/quoter/1/batch?x=1");
    assert.equal(batch.status, 405);
    assert.equal(batch.headers.allow, "POST");
    assert.deepEqual(batch.body.details, [{ param: "method", message: "/quoter/1/batch takes POST, not GET" }]);
  });

  test("an unknown path: 404 whose details name the route asked and lead to the quote route, the index and the docs", async () => {
    const answer = await send(service.base, "/nope?a=1");
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, {
      error: "Not found",
      details: [
        {
          param: "url",
          message:
            "no route GET /nope: quotes are at GET /quoter/{chainId}/{marketAddress}/{marketId}?expectedPrice=…&collateralAvailable=…, " +
            "batches at POST /quoter/{chainId}/batch; /quoter lists the routes and /quoter/docs describes each",
        },
      ],
    });
  });
});

describe("the rate limit counts each quote of a batch and each level of a ladder", () => {
  let devchain: Devchain;
  before(async () => {
    devchain = await startDevchain();
  });
  after(() => devchain.close());

  test("a batch of 3 and a ladder of 2 count 5 against a limit of 6: one GET more passes, then each is 429", async () => {
    const service = await listening({ rpc: devchain.endpoint.url, protection: { rateLimitMax: 6, rateLimitWindowMs: 60_000 } });
    try {
      const item = { marketAddress: devchain.marketGroup, marketId: "2", expectedPrice: "1030", collateralAvailable: "1000000000000000000000" };
      const batch = () =>
        request(`${service.base}/quoter/${DEVCHAIN_ID}/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quotes: [item, item, item] }) });
      const ladder = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2/depth?collateralAvailable=1000000000000000000000&prices=1010,1030`;
      const quote = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000`;
      const first = await batch();
      assert.equal(first.statusCode, 200, await first.body.text());
      assert.equal((await send(service.base, ladder)).status, 200);
      assert.equal((await send(service.base, quote)).status, 200, "the sixth quote");
      const limited = await batch();
      assert.equal(limited.statusCode, 429);
      const body = (await limited.body.json()) as { error: string; details: { param: string; message: string }[] };
      assert.equal(body.error, "Too many requests");
      assert.match(body.details[0]!.message, /limit of 6 requests a window/, "the batch's quotes counted against the limit it names");
      assert.match(String(limited.headers["retry-after"]), /^\d+$/);
      assert.equal((await send(service.base, ladder)).status, 429);
      assert.equal((await send(service.base, quote)).status, 429);
    } finally {
      await service.app.close();
    }
  });

  test("a batch larger than what is left of the limit is refused as a whole", async () => {
    const service = await listening({ rpc: devchain.endpoint.url, protection: { rateLimitMax: 4, rateLimitWindowMs: 60_000 } });
    try {
      const item = { marketAddress: devchain.marketGroup, marketId: "1", expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" };
      const answer = await request(`${service.base}/quoter/${DEVCHAIN_ID}/batch`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ quotes: [item, item, item, item, item] }),
      });
      assert.equal(answer.statusCode, 429);
      await answer.body.dump();
    } finally {
      await service.app.close();
    }
  });
});

describe("TRUST_PROXY", () => {
  const twoForwardedClients = async (options: QuoterAppOptions) => {
    const service = await listening({ quoter: standIn, protection: { rateLimitMax: 2, rateLimitWindowMs: 60_000 }, ...options });
    try {
      const from = (address: string) => send(service.base, "/quoter", { headers: { "x-forwarded-for": address } });
      const first = [(await from("203.0.113.1")).status, (await from("203.0.113.1")).status];
      const second = (await from("203.0.113.2")).status;
      return { first, second };
    } finally {
      await service.app.close();
    }
  };

  test("unset: X-Forwarded-For is not believed, every forwarded client shares the proxy's budget", async () => {
    assert.deepEqual(await twoForwardedClients({}), { first: [200, 200], second: 429 });
  });

  test("a hop count or the proxy's address: each forwarded client has its own budget", async () => {
    assert.deepEqual(await twoForwardedClients({ trustProxy: 1 }), { first: [200, 200], second: 200 });
    assert.deepEqual(await twoForwardedClients({ trustProxy: ["127.0.0.1"] }), { first: [200, 200], second: 200 });
    assert.deepEqual(await twoForwardedClients({ trustProxy: ["10.0.0.0/8"] }), { first: [200, 200], second: 429 }, "not a trusted proxy");
  });
});

test("GET / redirects to the explorer; /quoter too for a browser, and answers its JSON index to any other client", async () => {
  const service = await listening({ quoter: standIn });
  try {
    const answer = await request(`${service.base}/`);
    await answer.body.dump();
    assert.equal(answer.statusCode, 302);
    assert.equal(answer.headers.location, "/quoter/explorer");
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    const navigated = await request(`${service.base}/quoter`, { headers: { accept: browser } });
    await navigated.body.dump();
    assert.equal(navigated.statusCode, 302);
    assert.equal(navigated.headers.location, "/quoter/explorer");
    for (const accept of [undefined, "application/json", "*/*", "text/html;q=0.5,application/json"]) {
      const index = await send(service.base, "/quoter", { headers: accept === undefined ? {} : { accept } });
      assert.equal(index.status, 200, String(accept));
      assert.equal(index.body.name, "quoter");
    }
  } finally {
    await service.app.close();
  }
});
