// Every error status the service sends, on every route, over real HTTP on the embedded chain: each body is
// `{ "error": "...", "details": [{ "param", "message" }, …] }` with at least one detail (semantics §6), so that a
// client reading `details` never finds it missing.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import type { Quoter } from "../../src/service/api.ts";
import { liveService, type LiveService } from "../support/liveService.ts";
import { deployPricelessMarketGroup } from "../support/pricelessMarketGroup.ts";
import { startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";

const ONE = "1000000000000000000";
const THOUSAND = `${ONE}000`;

type Method = "GET" | "HEAD" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS";
type Sent = { status: number; text: string };

async function send(base: string, method: Method, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Sent> {
  const response = await request(`${base}${path}`, { method, headers: options.headers ?? {}, ...(options.body === undefined ? {} : { body: options.body }) });
  return { status: response.statusCode, text: await response.body.text() };
}

/** The status and what the body's shape is, in words an assertion's diff shows at a glance. */
function shapeOf({ status, text }: Sent): { status: number; error: string; details: string } {
  let body: { error?: unknown; details?: unknown } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return { status, error: "no JSON body", details: "no JSON body" };
  }
  const { details } = body ?? {};
  const isDetail = (d: unknown) => typeof (d as { param?: unknown }).param === "string" && typeof (d as { message?: unknown }).message === "string";
  const detailsShape = Array.isArray(details) && details.length > 0 && details.every(isDetail) ? "non-empty [{param, message}]" : `${JSON.stringify(details)}`;
  return { status, error: typeof body?.error, details: detailsShape };
}

let devchain: Devchain;
/** The service on the demo chain; live streams at most 0, so that a stream is refused (429). */
let service: LiveService;
/** A service whose one RPC endpoint answers every request with HTTP 500. */
let failingNode: RpcProxy;
let failing: LiveService;
/** A stand-in quoter with a bug, and one behind a rate limit of 1 request. */
let buggy: LiveService;
let limited: LiveService;
let priceless: string;

const bug: Quoter = { quote: async () => { throw new TypeError("a bug"); } };

before(async () => {
  devchain = await startDevchain();
  service = await liveService({ rpc: devchain.endpoint.url, streams: { max: 0 } });
  failingNode = await startRpcProxy(undefined);
  failing = await liveService({ rpc: failingNode.url, timeoutMs: 2_000, readyTimeoutMs: 2_000 });
  buggy = await liveService({ quoter: bug });
  limited = await liveService({ quoter: bug, protection: { rateLimitMax: 1, rateLimitWindowMs: 60_000 } });
  const group = await deployPricelessMarketGroup(devchain.chain);
  priceless = `/quoter/${DEVCHAIN_ID}/${group.address}/1?expectedPrice=0.6&collateralAvailable=${ONE}&minBlock=${group.blockNumber}`;
});
after(async () => {
  for (const each of [service, failing, buggy, limited]) await each.close();
  await failingNode.close();
  await devchain.close();
});

const quote = (marketId: number | string, query: Record<string, string>) =>
  `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;
const depth = (marketId: number, query: Record<string, string>) => `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}/depth?${new URLSearchParams(query)}`;
const batchItem = () => ({ marketAddress: devchain.marketGroup, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND });
const json = { "content-type": "application/json" };
const batchOf = (body: unknown) => ({ headers: json, body: JSON.stringify(body) });
/** The second of two identical requests, past a rate limit of 1. */
const twice = (path: string, method: Method = "GET") => async () => {
  await send(limited.base, method, path);
  return send(limited.base, method, path);
};

const CASES: [name: string, status: number, answer: () => Promise<Sent>][] = [
  // The quote route.
  ["quote: a malformed query parameter", 400, () => send(service.base, "GET", quote(1, { expectedPrice: ".5", collateralAvailable: ONE }))],
  ["quote: a malformed path parameter", 400, () => send(service.base, "GET", `/quoter/${DEVCHAIN_ID}/0x1234/1?expectedPrice=0.6&collateralAvailable=${ONE}`)],
  ["quote: expectedPrice 0", 400, () => send(service.base, "GET", quote(1, { expectedPrice: "0", collateralAvailable: ONE }))],
  ["quote: expectedPrice equal to the current price", 400, () => send(service.base, "GET", quote(2, { expectedPrice: "1000", collateralAvailable: ONE }))],
  ["quote: a settled market", 400, () => send(service.base, "GET", quote(3, { expectedPrice: "0.6", collateralAvailable: ONE }))],
  ["quote: no size meets the price rules", 400, () => send(service.base, "GET", quote(2, { expectedPrice: "1010", priceLimit: "1020", collateralAvailable: THOUSAND }))],
  ["quote: insufficient liquidity", 400, () => send(service.base, "GET", quote(4, { expectedPrice: "0.59", collateralAvailable: ONE }))],
  ["quote: a URL whose percent-encoding does not decode", 400, () => send(service.base, "GET", "/quoter/%E0%A4%A")],
  ["quote: no such market", 404, () => send(service.base, "GET", quote(99, { expectedPrice: "0.6", collateralAvailable: ONE }))],
  ["quote: a chain with no RPC", 404, () => send(service.base, "GET", `/quoter/1/${devchain.marketGroup}/1?expectedPrice=0.6&collateralAvailable=${ONE}`)],
  ["quote: a market with no price", 404, () => send(service.base, "GET", priceless)],
  ["quote: POST on its path", 405, () => send(service.base, "POST", quote(1, { expectedPrice: "0.6", collateralAvailable: ONE }))],
  ["quote: a GET with a body", 413, () => send(service.base, "GET", quote(1, { expectedPrice: "0.6", collateralAvailable: ONE }), { body: "x" })],
  ["quote: a URL over MAX_URL_LENGTH", 414, () => send(service.base, "GET", quote(1, { expectedPrice: "0.6", collateralAvailable: ONE, pad: "x".repeat(3000) }))],
  ["quote: headers over 16 KiB", 431, () => send(service.base, "GET", quote(1, { expectedPrice: "0.6", collateralAvailable: ONE }), { headers: { cookie: "a".repeat(20_000) } })],
  ["quote: a bug", 500, () => send(buggy.base, "GET", quote(1, { expectedPrice: "0.6", collateralAvailable: ONE }))],
  ["quote: past the rate limit", 429, twice(`/quoter/${DEVCHAIN_ID}/0x5FbDB2315678afecb367f032d93F642f64180aa3/1?expectedPrice=0.6&collateralAvailable=1`)],
  ["quote: every endpoint failing", 503, () => send(failing.base, "GET", quote(1, { expectedPrice: "0.6", collateralAvailable: ONE }))],
  // The quote route as a live stream: refused before any stream starts.
  ["stream: a malformed parameter", 400, () => send(service.base, "GET", quote(1, { expectedPrice: "x", collateralAvailable: ONE }), { headers: { accept: "text/event-stream" } })],
  ["stream: past STREAMS_MAX", 429, () => send(service.base, "GET", quote(2, { expectedPrice: "1030", collateralAvailable: ONE }), { headers: { accept: "text/event-stream" } })],
  // The batch.
  ["batch: a body that is not JSON", 400, () => send(service.base, "POST", `/quoter/${DEVCHAIN_ID}/batch`, { headers: json, body: '{"quotes": [1,]}' })],
  ["batch: an empty JSON body", 400, () => send(service.base, "POST", `/quoter/${DEVCHAIN_ID}/batch`, { headers: json, body: "" })],
  ["batch: no quotes", 400, () => send(service.base, "POST", `/quoter/${DEVCHAIN_ID}/batch`, batchOf({ quotes: [] }))],
  ["batch: a malformed chain id", 400, () => send(service.base, "POST", "/quoter/abc/batch", batchOf({ quotes: [batchItem()] }))],
  ["batch: a chain with no RPC", 404, () => send(service.base, "POST", "/quoter/1/batch", batchOf({ quotes: [batchItem()] }))],
  ["batch: GET on its path", 405, () => send(service.base, "GET", `/quoter/${DEVCHAIN_ID}/batch`)],
  ["batch: a body over the limit", 413, () => send(service.base, "POST", `/quoter/${DEVCHAIN_ID}/batch`, batchOf({ quotes: Array(8_000).fill(batchItem()) }))],
  ["batch: a body that is not JSON by its content type", 415, () => send(service.base, "POST", `/quoter/${DEVCHAIN_ID}/batch`, { headers: { "content-type": "text/plain" }, body: "quotes" })],
  ["batch: past the rate limit", 429, twice(`/quoter/${DEVCHAIN_ID}/batch`, "POST")],
  ["batch: every endpoint failing", 503, () => send(failing.base, "POST", `/quoter/${DEVCHAIN_ID}/batch`, batchOf({ quotes: [batchItem()] }))],
  // The depth ladder.
  ["depth: neither prices nor to", 400, () => send(service.base, "GET", depth(1, { collateralAvailable: ONE }))],
  ["depth: no such market", 404, () => send(service.base, "GET", depth(99, { collateralAvailable: ONE, prices: "0.6" }))],
  ["depth: every endpoint failing", 503, () => send(failing.base, "GET", depth(1, { collateralAvailable: ONE, prices: "0.6" }))],
  // The index, the operations routes, the docs and the explorer.
  ["/quoter: POST", 405, () => send(service.base, "POST", "/quoter")],
  ["/quoter: past the rate limit", 429, twice("/quoter")],
  ["/health: an OPTIONS that is not a preflight", 405, () => send(service.base, "OPTIONS", "/health")],
  ["/ready: every endpoint failing", 503, () => send(failing.base, "GET", "/ready")],
  ["/metrics: DELETE", 405, () => send(service.base, "DELETE", "/metrics")],
  ["docs: no such asset", 404, () => send(service.base, "GET", "/quoter/docs/no-such-asset.js")],
  ["docs: the document past the rate limit", 429, twice("/quoter/openapi.json")],
  ["explorer: no such asset", 404, () => send(service.base, "GET", "/quoter/explorer/no-such-asset.js")],
  ["an unknown path", 404, () => send(service.base, "GET", "/nope")],
  ["an unknown path, OPTIONS", 404, () => send(service.base, "OPTIONS", "/nope")],
];

for (const [name, status, answer] of CASES) {
  test(`${name}: ${status} { error, details: [{ param, message }, …] }`, async () => {
    const sent = await answer();
    assert.deepEqual(shapeOf(sent), { status, error: "string", details: "non-empty [{param, message}]" }, sent.text);
  });
}
