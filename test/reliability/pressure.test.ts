// Back-pressure: a bounded number of in-flight RPC requests per chain and a bounded queue, a 503 instead of a
// wait when it is full; identical concurrent quotes share one search.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { chainBehindProxy, type ChainBehindProxy } from "../support/liveService.ts";
import { quoteRequests, type RpcProxy } from "../support/rpcProxy.ts";

let setup: ChainBehindProxy;
let devchain: Devchain;
let slow: RpcProxy;
before(async () => ({ devchain, proxy: slow } = setup = await chainBehindProxy({ delayMs: 200 })));
after(() => setup.close());

const appWith = async (maxInFlight: number, maxQueued: number) => (await setup.serve({ maxInFlight, maxQueued, probe: true })).app;
const path = (collateral: bigint) =>
  `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/1?expectedPrice=0.55&collateralAvailable=${collateral}`;

test("a full queue answers 503 instead of piling up", async () => {
  const app = await appWith(1, 1);
  const responses = await Promise.all([1n, 2n, 3n, 4n].map((i) => app.inject({ url: path(10n ** 21n + i) })));
  const statuses = responses.map((r) => r.statusCode).sort();
  assert.deepEqual(statuses, [200, 200, 503, 503], "one in flight, one queued, two refused");
  const refused = responses.find((r) => r.statusCode === 503)!;
  assert.equal(refused.json().error, "Chain RPC unavailable");
  assert.ok(Number(refused.headers["retry-after"]) > 0);
  await app.close();
});

test("identical concurrent quotes share one search: one eth_call for ten requests", async () => {
  const app = await appWith(64, 1024);
  slow.clear();
  const responses = await Promise.all(Array.from({ length: 10 }, () => app.inject({ url: path(10n ** 21n) })));
  assert.ok(responses.every((r) => r.statusCode === 200));
  assert.equal(new Set(responses.map((r) => r.body)).size, 1);
  assert.deepEqual(quoteRequests(slow.methods), ["eth_call"]);
  // Once answered, the next identical request is a new search (no answer is kept here).
  await app.inject({ url: path(10n ** 21n) });
  assert.deepEqual(quoteRequests(slow.methods), ["eth_call", "eth_call"]);
  await app.close();
});
