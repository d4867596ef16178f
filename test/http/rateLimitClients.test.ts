// The rate limit's counts kept in this process are bounded (RATE_LIMIT_CLIENTS): a flood of distinct client
// addresses cannot grow them past it. The plugin's own store (no Redis) and the fallback of the replicated store
// (Redis down) are both the plugin's LRU: past the bound the least recently seen client is forgotten (its count
// starts again), while the most recent ones are still counted.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { marketNotFound } from "../../src/quote/quoteErrors.ts";
import type { Quoter } from "../../src/service/api.ts";
import type { RedisLink } from "../../src/service/replicas/redisLink.ts";
import { replicatedRateLimitStore } from "../../src/http/rateLimitStore.ts";
import { quoterApp } from "../support/quoterHarness.ts";

const standIn: Quoter = { quote: async () => { throw marketNotFound(); } };
const BOUND = 100;
// Fewer than the plugin's default LRU (5,000): only the bound set here can forget the first client.
const FLOOD = 1_000;
/** The n-th address of the flood, all distinct: 10.x.y.z. */
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

describe("no Redis: the plugin's store holds RATE_LIMIT_CLIENTS clients at most", () => {
  let app: FastifyInstance;
  before(async () => {
    app = await quoterApp({ quoter: standIn, protection: { rateLimitMax: 1, rateLimitWindowMs: 600_000, rateLimitClients: BOUND } });
  });
  after(() => app.close());

  const status = async (remoteAddress: string) => (await app.inject({ method: "GET", url: "/quoter", remoteAddress })).statusCode;

  test(`${FLOOD} distinct addresses, one request each: the first one limited is forgotten, the last ${BOUND} are still counted`, async () => {
    const first = "192.0.2.1";
    assert.deepEqual([await status(first), await status(first)], [200, 429], "one request a window");
    for (let n = 0; n < FLOOD; n++) assert.equal(await status(address(n)), 200);
    assert.equal(await status(first), 200, `forgotten after ${FLOOD} other clients: its count started again`);
    // The newest BOUND - 1 of the flood (the first client's new count took one place) are still counted...
    for (let n = FLOOD - (BOUND - 1); n < FLOOD; n++) assert.equal(await status(address(n)), 429, `client ${n} of the flood`);
  });
});

describe("Redis down: the replicated store's own counts are bounded alike", () => {
  /** A link to a Redis that never answers: every count is this process's. */
  const down = { client: { defineCommand: () => undefined }, run: async () => undefined } as unknown as RedisLink;
  const Store = replicatedRateLimitStore(down, BOUND);
  const store = new Store();
  const incr = (key: string) => new Promise<number>((resolve) => store.incr(key, (_error, counted) => resolve(counted.current), 600_000));
  const read = (key: string) => new Promise<number>((resolve) => store.read(key, (_error, counted) => resolve(counted.current), 600_000));

  test(`${FLOOD} distinct keys: only the last ${BOUND} are kept`, async () => {
    for (let n = 0; n < FLOOD; n++) assert.equal(await incr(address(n)), 1);
    const kept = [];
    for (let n = 0; n < FLOOD; n++) if ((await read(address(n))) > 0) kept.push(n);
    assert.equal(kept.length, BOUND);
    assert.equal(kept[0], FLOOD - BOUND, "the most recent ones");
    assert.equal(await incr(address(FLOOD - 1)), 2, "and still counted");
  });
});
