// Semantics §4b on every shape the demo's markets give (bench/workload.ts exactShapes): the deep, shallow and thin
// markets and the 6-decimal group's, LONG and SHORT, from 100 ppm to 40% of the price, budgets over fifteen orders of
// magnitude, and the markets no size fills. Every 200 is proven (exact: true, maxSize and maxSize + 1 both quoted) and
// is the maximum the test finds by its own search on the chain at the answer's block; both strategies answer byte for
// byte alike; the single-call strategy answers each in one JSON-RPC request; and the candidates stay few (median 3 at
// most, 8 at most in all).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { exactShapes } from "../../bench/workload.ts";
import { serviceBehindProxy, type ServiceBehindProxy } from "../support/liveService.ts";
import { quoteRequests } from "../support/rpcProxy.ts";
import { bruteForceMaximum, d18 } from "../support/verify.ts";

let setup: ServiceBehindProxy;
/** [single-call behind the proxy, sequential on the node]. */
let apps: FastifyInstance[];
before(async () => {
  setup = await serviceBehindProxy({ strategy: "single-call", timeoutMs: 20_000, probe: true });
  const sequential = await setup.serve({ rpc: setup.devchain.endpoint.url, strategy: "sequential", timeoutMs: 20_000, probe: true });
  apps = [setup.service.app, sequential.app];
});
after(() => setup.close());

const groupOf = (group: string | undefined) => (group === "usdc" ? DEMO_USDC_MARKET_GROUP_ADDRESS : DEMO_MARKET_GROUP_ADDRESS);

describe("search=exact on every shape of the demo's markets (semantics §4b)", () => {
  test("288 quotes and the markets no size fills: proven, the independent maximum, in one request each, in few candidates", { timeout: 900_000 }, async () => {
    const { publicClient } = setup.devchain.chain;
    const price = (group: string | undefined, marketId: number) =>
      publicClient.readContract({ address: groupOf(group), abi: marketGroupAbi, functionName: "getReferencePrice", args: [BigInt(marketId)] });
    const prices = { "main:1": await price(undefined, 1), "main:2": await price(undefined, 2), "main:4": await price(undefined, 4), "usdc:1": await price("usdc", 1) };
    const candidates: number[] = [];
    let checkedByBruteForce = 0;
    let unfilled = 0;
    for (const [i, { group, marketId, expectedPrice, collateralAvailable, note }] of exactShapes(prices).entries()) {
      const query = new URLSearchParams({ expectedPrice, collateralAvailable, search: "exact", trace: "true" });
      const url = `/quoter/${DEVCHAIN_ID}/${groupOf(group)}/${marketId}?${query}`;
      setup.proxy.clear();
      const single = await apps[0]!.inject({ url });
      const requests = quoteRequests(setup.proxy.methods);
      const sequential = await apps[1]!.inject({ url });
      assert.equal(single.body, sequential.body, `${note}: both strategies alike`);
      assert.deepEqual(requests, ["eth_call"], `${note}: one JSON-RPC request (the searcher's call)`);
      const body = single.json();
      if (single.statusCode !== 200) {
        // The markets no size fills: settled (3) or ended (5), said without a search.
        assert.ok(marketId === 3 || marketId === 5, `${note}: ${single.body}`);
        unfilled++;
        continue;
      }
      candidates.push(body.iterations);
      assert.equal(body.exact, true, `${note}: proven`);
      const size = BigInt(body.maxSize) < 0n ? -BigInt(body.maxSize) : BigInt(body.maxSize);
      const sizes = body.trace.map((entry: { size: string }) => (BigInt(entry.size) < 0n ? -BigInt(entry.size) : BigInt(entry.size)));
      assert.ok(sizes.includes(size) && sizes.includes(size + 1n), `${note}: maxSize and maxSize + 1 quoted`);
      // The test's own search, for one quote in six (the rest are proven by their trace, checked by strategies alike).
      if (i % 6 === 0) {
        const truth = await bruteForceMaximum(setup.devchain.chain, groupOf(group), BigInt(marketId), body.direction, d18(expectedPrice), BigInt(collateralAvailable), BigInt(body.blockNumber));
        assert.equal(size, truth, `${note}: the maximum the test finds`);
        checkedByBruteForce++;
      }
    }
    const sorted = [...candidates].sort((a, b) => a - b);
    assert.equal(candidates.length, 288);
    assert.equal(unfilled, 2);
    assert.ok(checkedByBruteForce >= 48, `${checkedByBruteForce} checked by the test's own search`);
    assert.ok(sorted[(sorted.length - 1) >> 1]! <= 3, `median ${sorted[(sorted.length - 1) >> 1]} candidates`);
    assert.ok(sorted.at(-1)! <= 8, `at most ${sorted.at(-1)} candidates`);
  });
});
