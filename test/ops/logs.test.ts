// Logs: pino JSON lines with a request id (the caller's sane x-request-id, echoed), exactly one info
// line per quote carrying chain, market, direction, candidates, RPC requests, time and outcome, and no RPC URL,
// credential or API key in any line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { createLogger, scrubUrls } from "../../src/observability/logger.ts";
import type { SearchStrategy } from "../../src/service/quoter.ts";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";
import { closedPort } from "../support/closedPort.ts";
import { quoterApp } from "../support/quoterHarness.ts";
import { quoteRequests, startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";

const SECRET = "k3y-0f-the-rpc-provider";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Line = Record<string, any>;

let devchain: Devchain;
before(async () => {
  devchain = await startDevchain();
});
after(() => devchain.close());

/** An app logging JSON into `lines`, whose chain 31337 is reached through a proxy at a URL carrying a key. */
async function loggedApp(options: { strategy?: SearchStrategy; delayMs?: number; extraChain?: [number, string[]] } = {}) {
  const lines: Line[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of chunk.toString().split("\n").filter(Boolean)) {
        raw.push(text);
        lines.push(JSON.parse(text));
      }
      done();
    },
  });
  const logger = createLogger({ level: "info", stream });
  const proxy: RpcProxy = await startRpcProxy(devchain.endpoint.url, options.delayMs ? { delayMs: options.delayMs } : {});
  const rpcUrls = new Map([[DEVCHAIN_ID, [`${proxy.url.replace("http://", `http://user:${SECRET}@`)}/v3/${SECRET}?apikey=${SECRET}`]]]);
  if (options.extraChain) rpcUrls.set(...options.extraChain);
  const app = await quoterApp({ rpc: rpcUrls, strategy: options.strategy ?? "sequential", logger });
  return { app, proxy, lines, raw, close: async () => (await app.close(), await proxy.close()) };
}

const quotePath = (marketId: number | string, query: Record<string, string>, chainId = DEVCHAIN_ID) =>
  `/quoter/${chainId}/${devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;

test("one info line per quote, with reqId, chain, market, direction, candidates, RPC requests (as the proxy saw them, the head's reads apart), ms and outcome", async () => {
  const { app, proxy, lines, raw, close } = await loggedApp();
  try {
    const cases = [
      { id: "quote-200", path: quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }), status: 200, outcome: "ok", direction: "LONG" },
      { id: "quote-400", path: quotePath(4, { expectedPrice: "0.59", collateralAvailable: ONE }), status: 400, outcome: "Insufficient liquidity. Try a smaller size.", direction: "LONG" },
      { id: "quote-404", path: quotePath(9, { expectedPrice: "0.4", collateralAvailable: ONE }), status: 404, outcome: "Market not found", direction: null },
      { id: "quote-bad", path: quotePath("x", { expectedPrice: "1", collateralAvailable: ONE }), status: 400, outcome: "Invalid path parameters", direction: null },
    ];
    for (const { id, path, status, outcome, direction } of cases) {
      const before = quoteRequests(proxy.methods).length;
      const response = await app.inject({ url: path, headers: { "x-request-id": id } });
      assert.equal(response.statusCode, status, id);
      assert.equal(response.headers["x-request-id"], id, "the request id is echoed");
      const mine = lines.filter((line) => line.reqId === id && line.level === 30);
      assert.equal(mine.length, 1, `${id}: exactly one info line, got ${JSON.stringify(mine)}`);
      const [line] = mine as [Line];
      assert.equal(line.msg, "quote");
      assert.equal(line.chainId, String(DEVCHAIN_ID));
      assert.equal(line.market, devchain.marketGroup);
      assert.equal(line.marketId, new URL(path, "http://x").pathname.split("/")[4]);
      assert.equal(line.direction, direction);
      assert.equal(line.status, status);
      assert.equal(line.outcome, outcome);
      assert.equal(line.rpcRequests, quoteRequests(proxy.methods).length - before, `${id}: RPC requests as the proxy saw them`);
      assert.equal(typeof line.ms, "number");
      assert.ok(line.ms >= 0);
      if (status === 200) {
        assert.equal(line.candidates, response.json().iterations);
        assert.equal(line.blockNumber, response.json().blockNumber);
      }
    }
    const [ok, thin, missing, bad] = cases.map(({ id }) => lines.find((line) => line.reqId === id && line.msg === "quote")) as [Line, Line, Line, Line];
    assert.equal(ok.rpcRequests, 4 + ok.candidates, "sequential: market, price, collateral asset and its decimals, one per candidate");
    assert.ok(thin.candidates > 0);
    assert.equal(missing.candidates, 0);
    assert.equal(missing.rpcRequests, 1, "getMarket");
    assert.equal(bad.rpcRequests, 0, "no chain call for a malformed request");
    assert.ok(raw.every((text) => !text.includes(SECRET)), "no RPC URL, credential or key in any line");
  } finally {
    await close();
  }
});

test("an x-request-id that is not sane is replaced by a UUID, echoed in the answer; other answers get one line too", async () => {
  const { app, lines, close } = await loggedApp();
  try {
    for (const given of ["has spaces", "x".repeat(129), "semi;colon", ""]) {
      const response = await app.inject({ url: "/no/such/path", headers: { "x-request-id": given } });
      const id = String(response.headers["x-request-id"]);
      assert.match(id, UUID, `given ${JSON.stringify(given)}`);
      const mine = lines.filter((line) => line.reqId === id);
      assert.equal(mine.length, 1);
      assert.deepEqual([mine[0]!.msg, mine[0]!.statusCode, mine[0]!.url], ["request completed", 404, "/no/such/path"]);
    }
    const health = await app.inject("/health");
    assert.match(String(health.headers["x-request-id"]), UUID);
    assert.equal(lines.filter((line) => line.reqId === health.headers["x-request-id"]).length, 0, "probes log at debug only");
  } finally {
    await close();
  }
});

test("a quote whose endpoint fails: the warning carries the request id and the redacted endpoint, the quote line the 503; no key anywhere", async () => {
  const dead = `https://user:${SECRET}@127.0.0.1:${await closedPort()}/v3/${SECRET}`;
  const { app, lines, raw, close } = await loggedApp({ extraChain: [1, [dead]] });
  try {
    const response = await app.inject({ url: quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }, 1), headers: { "x-request-id": "dead-1" } });
    assert.equal(response.statusCode, 503);
    const mine = lines.filter((line) => line.reqId === "dead-1");
    const warning = mine.find((line) => line.level === 40);
    assert.ok(warning, `a warning with the request id: ${JSON.stringify(mine)}`);
    assert.match(warning.endpoint, /^https:\/\/127\.0\.0\.1:\d+\/…$/);
    const quote = mine.filter((line) => line.level === 30);
    assert.equal(quote.length, 1);
    // The endpoint failed when the chain's latest block was read, before any read of the quote's own.
    assert.deepEqual([quote[0]!.status, quote[0]!.outcome, quote[0]!.rpcRequests], [503, "Chain RPC unavailable", 0]);
    assert.ok(raw.every((text) => !text.includes(SECRET)), "no key in any line");
  } finally {
    await close();
  }
});

test("identical quotes in flight together: each gets its line; the one that joined says coalesced and made no RPC request", async () => {
  const { app, proxy, lines, close } = await loggedApp({ strategy: "single-call", delayMs: 100 });
  try {
    const url = quotePath(1, { expectedPrice: "0.55", collateralAvailable: THOUSAND });
    await app.inject(quotePath(1, { expectedPrice: "0.56", collateralAvailable: THOUSAND })); // the probe happens here
    const before = quoteRequests(proxy.methods).length;
    const [a, b] = await Promise.all([
      app.inject({ url, headers: { "x-request-id": "twin-a" } }),
      app.inject({ url, headers: { "x-request-id": "twin-b" } }),
    ]);
    assert.equal(a.body, b.body);
    assert.equal(quoteRequests(proxy.methods).length - before, 1, "one search for both");
    const [lineA, lineB] = ["twin-a", "twin-b"].map((id) => lines.find((line) => line.reqId === id && line.msg === "quote")!);
    assert.deepEqual([lineA!.coalesced, lineA!.rpcRequests], [undefined, 1]);
    assert.deepEqual([lineB!.coalesced, lineB!.rpcRequests], [true, 0]);
    assert.equal(lineB!.candidates, lineA!.candidates);
    assert.equal(lineB!.direction, "LONG");
  } finally {
    await close();
  }
});

test("the last guard: an error whose cause quotes a URL with a key is logged with scheme and host only", async () => {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger({ level: "info", stream });
  const cause = new Error(`HTTP request failed. URL: https://rpc.example/v3/${SECRET}?apikey=${SECRET}`);
  logger.error({ err: new Error("wrapped", { cause }) }, "failure");
  assert.equal(raw.length, 1);
  assert.ok(!raw[0]!.includes(SECRET), raw[0]);
  assert.ok(raw[0]!.includes("https://rpc.example/…"));
  assert.equal(scrubUrls('{"a":"http://127.0.0.1:3000"}'), '{"a":"http://127.0.0.1:3000"}', "a bare origin stays as it is");
});
