// The price edge changes how search=exact searches, never what it answers: every answer of the bench's exact workload
// and exact grid (432 quotes, bench/workload.ts) equals the one recorded from the commit before the edge at the same
// block of the demo chain (test/fixtures/exactAnswers.json, written by `npm run exact-edge -- --record`), in
// everything but `iterations` and `trace`; both strategies answer byte for byte alike; and where the price binds,
// the edge finds the largest size in at most three candidates.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { serviceBehindProxy, type ServiceBehindProxy } from "../support/liveService.ts";
import { quoteRequests } from "../support/rpcProxy.ts";

type Answer = { maxSize?: string; exact?: boolean; upperBound?: string; limitedBy?: string } & Record<string, unknown>;
type Recorded = { marketId: number; expectedPrice: string; collateralAvailable: string; priceLimit?: string; answer: Answer };

const recorded = JSON.parse(readFileSync(new URL("../fixtures/exactAnswers.json", import.meta.url), "utf8")) as { answers: Recorded[] };

let setup: ServiceBehindProxy;
/** [single-call behind the proxy, sequential on the node]. */
let apps: FastifyInstance[];
before(async () => {
  setup = await serviceBehindProxy({ strategy: "single-call", timeoutMs: 10_000, probe: true });
  const sequential = await setup.serve({ rpc: setup.devchain.endpoint.url, strategy: "sequential", timeoutMs: 10_000, probe: true });
  apps = [setup.service.app, sequential.app];
});
after(() => setup.close());

const magnitude = (signed: string) => (signed.startsWith("-") ? BigInt(signed.slice(1)) : BigInt(signed));

describe("search=exact with the price edge answers as before it (semantics §4b)", () => {
  test("432 quotes at the demo's head: the recorded answers but for iterations and trace, both strategies alike, each in one JSON-RPC request, price-bound ones in at most 3 candidates, none in more than 8", async () => {
    const tally = { same: 0, provenNow: 0, priceBound: [] as number[], all: [] as number[] };
    for (const { marketId, expectedPrice, collateralAvailable, priceLimit, answer: before } of recorded.answers) {
      const query = new URLSearchParams({ expectedPrice, collateralAvailable, search: "exact", trace: "true" });
      if (priceLimit !== undefined) query.set("priceLimit", priceLimit);
      const url = `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/${marketId}?${query}`;
      setup.proxy.clear();
      const single = await apps[0]!.inject({ url });
      assert.deepEqual(quoteRequests(setup.proxy.methods), ["eth_call"], `${url}: one JSON-RPC request`);
      const sequential = await apps[1]!.inject({ url });
      assert.equal(single.body, sequential.body, url);
      const { iterations: _iterations, trace, blockHash: _hash, ...now } = single.json() as Answer & { trace: unknown[]; status?: never };
      const after = { status: single.statusCode, ...now };
      tally.all.push(trace.length);
      if (after.limitedBy === "expectedPrice") tally.priceBound.push(trace.length);
      if (before.exact === false) {
        // The search before ran out of candidates (EXACT_MAX_CANDIDATES) short of its proof; with fewer it proves
        // the maximum, which lies at or above what it had found and below its upper bound.
        assert.equal(after.exact, true, url);
        const size = magnitude(after.maxSize!);
        assert.ok(size >= magnitude(before.maxSize!) && size < magnitude(before.upperBound!), `${url}: ${size}`);
        tally.provenNow++;
        continue;
      }
      assert.deepEqual(after, before, url);
      tally.same++;
    }
    const sorted = [...tally.all].sort((a, b) => a - b);
    const median = sorted[(sorted.length - 1) >> 1]!;
    assert.equal(tally.same + tally.provenNow, recorded.answers.length);
    assert.ok(tally.provenNow <= 8, JSON.stringify({ ...tally, all: undefined, priceBound: undefined }));
    assert.ok(tally.priceBound.length >= 200 && Math.max(...tally.priceBound) <= 3, `price-bound candidates: ${tally.priceBound}`);
    assert.ok(median <= 3, `median ${median} candidates per quote`);
    assert.ok(sorted.at(-1)! <= 8, `at most ${sorted.at(-1)} candidates per quote`);
  });
});
