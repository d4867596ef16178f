// /metrics: after some quotes, the named series hold the right counts; RPC requests are counted where
// they are made, by method and outcome, and agree with what a proxy on the wire saw.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { QUOTE_ROUTE } from "../../src/http/observability.ts";
import { METRIC_NAMES } from "../../src/observability/metrics.ts";
import type { SearchStrategy } from "../../src/service/quoter.ts";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";
import { serviceBehindProxy } from "../support/liveService.ts";
import { parseSamples, total, type Sample } from "../support/prometheus.ts";

/**
 * A service behind a counting proxy, on a demo chain of its own, whose chain client reports to the app's metrics;
 * its new heads come over the node's own WebSocket, so that the proxy sees the quotes' requests and the endpoint's
 * one eth_chainId.
 */
const observedService = (strategy: SearchStrategy) => serviceBehindProxy({ strategy, webSocket: true });

async function scrape(app: FastifyInstance): Promise<Sample[]> {
  const response = await app.inject("/metrics");
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
  return parseSamples(response.body);
}

const quotePath = (marketId: number, query: Record<string, string>) =>
  `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/${marketId}?${new URLSearchParams(query)}`;

function countBy(items: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

test("sequential: 3 quotes (200, 400, 404) give 3 in the latency histogram, requests by route and status, candidates, and RPC requests by method and outcome as the proxy saw them", async () => {
  const { service: { app }, proxy, close } = await observedService("sequential");
  try {
    const success = await app.inject(quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND, trace: "true" }));
    const thin = await app.inject(quotePath(4, { expectedPrice: "0.59", collateralAvailable: ONE, trace: "true" }));
    const missing = await app.inject(quotePath(9, { expectedPrice: "0.6", collateralAvailable: ONE }));
    assert.deepEqual([success.statusCode, thin.statusCode, missing.statusCode], [200, 400, 404]);
    const samples = await scrape(app);

    assert.equal(total(samples, `${METRIC_NAMES.quoteDuration}_count`), 3, "quote latency: one observation per quote");
    for (const status of ["200", "400", "404"]) {
      assert.equal(total(samples, `${METRIC_NAMES.quoteDuration}_count`, { status_code: status }), 1, `latency of the ${status}`);
      assert.equal(total(samples, METRIC_NAMES.httpRequests, { route: QUOTE_ROUTE, method: "GET", status_code: status }), 1);
    }
    assert.ok(total(samples, `${METRIC_NAMES.quoteDuration}_sum`) > 0);

    // Candidates: the two quotes that searched (the unknown market stops before the search).
    const successTrace = success.json().trace as unknown[];
    const thinTrace = thin.json().trace as { outcome: string }[];
    assert.equal(total(samples, `${METRIC_NAMES.quoteCandidates}_count`), 2);
    assert.equal(total(samples, `${METRIC_NAMES.quoteCandidates}_sum`), successTrace.length + thinTrace.length);
    assert.equal(success.json().iterations, successTrace.length);

    // RPC requests: by method exactly what crossed the wire; reverts are the thin market's candidates (getMarket(9)
    // answers a zero struct, as the real market group does, and is no revert).
    const seen = countBy(proxy.methods);
    // The head is pushed: the one block read over HTTP is the latest, read once before the unknown market's 404
    // (semantics §11: not found is about the newest block).
    assert.deepEqual([...seen.keys()].sort(), ["eth_call", "eth_chainId", "eth_getBlockByNumber"]);
    assert.equal(seen.get("eth_getBlockByNumber"), 1, "the latest block, read once, before the 404");
    assert.equal(seen.get("eth_chainId"), 1, "the endpoint's chain id, once, before its first quote");
    const calls = seen.get("eth_call")!;
    assert.equal(total(samples, METRIC_NAMES.rpcRequests, { method: "eth_call" }), calls, "eth_call as the proxy saw");
    // The follower's own requests, over the WebSocket: the subscription, the chain id, the latest block at connect.
    assert.equal(total(samples, METRIC_NAMES.rpcRequests, { method: "eth_subscribe", outcome: "ok" }), 1);
    const reverted = thinTrace.filter((entry) => entry.outcome === "reverted").length;
    assert.equal(total(samples, METRIC_NAMES.rpcRequests, { method: "eth_call", outcome: "reverted", chain_id: String(DEVCHAIN_ID) }), reverted);
    assert.equal(total(samples, METRIC_NAMES.rpcRequests, { method: "eth_call", outcome: "ok" }), calls - reverted);
    assert.equal(total(samples, METRIC_NAMES.rpcRequests, { outcome: "transport_failure" }), 0);
  } finally {
    await close();
  }
});

test("single-call: the probe and one eth_call per quote are counted; a stopped node counts as transport_failure; unmatched paths get no route of their own", async () => {
  const { service: { app }, proxy, close } = await observedService("single-call");
  try {
    for (const marketId of [1, 2, 1]) {
      const expectedPrice = marketId === 1 ? "0.55" : "1030";
      assert.equal((await app.inject(quotePath(marketId, { expectedPrice, collateralAvailable: THOUSAND }))).statusCode, 200);
    }
    let samples = await scrape(app);
    assert.equal(total(samples, `${METRIC_NAMES.quoteDuration}_count`, { status_code: "200" }), 3);
    const calls = proxy.methods.filter((method) => method === "eth_call").length;
    assert.equal(total(samples, METRIC_NAMES.rpcRequests, { method: "eth_call", outcome: "ok" }), calls);
    assert.equal(calls, 4, "the probe, then one eth_call per quote");
    assert.deepEqual(proxy.methods.filter((method) => method !== "eth_call"), ["eth_chainId"]);

    await proxy.close();
    assert.equal((await app.inject(quotePath(2, { expectedPrice: "1031", collateralAvailable: THOUSAND }))).statusCode, 503);
    await app.inject("/no/such/path/0x1234");
    samples = await scrape(app);
    assert.equal(total(samples, METRIC_NAMES.rpcRequests, { outcome: "transport_failure" }), 1);
    assert.equal(total(samples, `${METRIC_NAMES.quoteDuration}_count`, { status_code: "503" }), 1);
    assert.equal(total(samples, METRIC_NAMES.httpRequests, { route: "unmatched", status_code: "404" }), 1);
    assert.equal(total(samples, METRIC_NAMES.httpRequests, { route: "/metrics", status_code: "200" }), 1, "the first scrape");
    assert.ok(!samples.some((sample) => Object.values(sample.labels).some((value) => value.includes("0x1234"))), "no raw URL as a label");
  } finally {
    await close();
  }
});

test("a batch and a ladder: quotes per batch, levels per ladder, and the gas of each request's candidates by route", async () => {
  const { service: { app }, close } = await observedService("single-call");
  try {
    const item = (marketId: string, expectedPrice: string) => ({ marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId, expectedPrice, collateralAvailable: THOUSAND });
    assert.equal((await app.inject(quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }))).statusCode, 200);
    const batch = await app.inject({ method: "POST", url: `/quoter/${DEVCHAIN_ID}/batch`, payload: { quotes: [item("1", "0.55"), item("2", "1020"), item("1", "0.45")] } });
    assert.equal(batch.statusCode, 200, batch.body);
    const ladder = await app.inject(`/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/2/depth?collateralAvailable=${THOUSAND}&prices=1010,1040`);
    assert.equal(ladder.statusCode, 200, ladder.body);
    const samples = await scrape(app);
    assert.equal(total(samples, `${METRIC_NAMES.batchQuotes}_sum`), 3);
    assert.equal(total(samples, `${METRIC_NAMES.depthLevels}_sum`), 2);
    for (const route of ["quote", "batch", "depth"]) {
      assert.equal(total(samples, `${METRIC_NAMES.searchGas}_count`, { route }), 1, route);
      const gas = total(samples, `${METRIC_NAMES.searchGas}_sum`, { route });
      // Each candidate is a call of the market group (more than a cold account's 2,600), all within one gas cap.
      assert.ok(gas > 2_600 * 3 && gas < 30_000_000, `${route}: ${gas}`);
    }
    // A ladder spaced from the price, read and searched in one call: its levels and its candidates' gas count alike.
    const depthGas = total(samples, `${METRIC_NAMES.searchGas}_sum`, { route: "depth" });
    const spaced = await app.inject(`/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/2/depth?collateralAvailable=${THOUSAND}&to=1040&levels=3`);
    assert.equal(spaced.statusCode, 200, spaced.body);
    const after = await scrape(app);
    assert.equal(total(after, `${METRIC_NAMES.depthLevels}_sum`), 2 + 3);
    assert.equal(total(after, `${METRIC_NAMES.searchGas}_count`, { route: "depth" }), 2);
    assert.ok(total(after, `${METRIC_NAMES.searchGas}_sum`, { route: "depth" }) - depthGas > 2_600 * 3);
  } finally {
    await close();
  }
});

test("each app has its own registry: two apps in one process count apart", async () => {
  const first = await observedService("single-call");
  const second = await observedService("single-call");
  try {
    await first.service.app.inject(quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }));
    assert.equal(total(await scrape(first.service.app), `${METRIC_NAMES.quoteDuration}_count`), 1);
    assert.equal(total(await scrape(second.service.app), `${METRIC_NAMES.quoteDuration}_count`), 0);
  } finally {
    await first.close();
    await second.close();
  }
});
