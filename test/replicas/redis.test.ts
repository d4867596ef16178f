// Three replicas of the service (separate processes, as `npm start` runs it) on one chain endpoint behind a counting
// proxy, sharing one real redis-server: the same quote at a block is one eth_call across them, the rate limit counts
// across them, live streams on all of them get the same answers from one search per distinct quote and block, and
// Redis killed mid-run fails no quote (each replica says so in /health, and sharing resumes when Redis is back).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { closedPort } from "../support/closedPort.ts";
import { openEventStream, type EventStream } from "../support/eventStream.ts";
import { trade, waitFor } from "../support/liveService.ts";
import { parseSamples, total } from "../support/prometheus.ts";
import { startRedisServer, type RedisServer } from "../support/redisServer.ts";
import { startReplicas, type Replica } from "../support/replicas.ts";
import { startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";

const ONE = 10n ** 18n;
const RATE_LIMIT_MAX = 40;

let devchain: Devchain;
let proxy: RpcProxy;
let redis: RedisServer;
let replicas: Replica[];
let stopReplicas: () => Promise<void>;

/** A client of its own for each call (TRUST_PROXY is on): only the rate limit's test shares one. */
let clients = 0;
const anotherClient = () => ({ "x-forwarded-for": `10.1.${Math.floor(++clients / 250)}.${clients % 250}` });
const path = (marketId: number, expectedPrice: string, budget: bigint, extra = "") =>
  `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?expectedPrice=${expectedPrice}&collateralAvailable=${budget}${extra}`;
const ethCalls = () => proxy.counters().methods.eth_call ?? 0;

/** Each replica asked `target` at once: the answers, in replica order. */
const everywhere = (target: string) => Promise.all(replicas.map((replica) => replica.get(target, anotherClient())));

before(async () => {
  devchain = await startDevchain();
  proxy = await startRpcProxy(devchain.endpoint.url, { keepRequests: false });
  redis = await startRedisServer();
  ({ replicas, stop: stopReplicas } = await startReplicas(3, {
    RPC_URL_31337: proxy.url,
    RPC_WS_URL_31337: devchain.endpoint.webSocketUrl,
    REDIS_URL: redis.url,
    RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    TRUST_PROXY: "true",
  }));
  await waitFor(async () => (await Promise.all(replicas.map((replica) => replica.redis()))).every((status) => status?.state === "up"), 10_000, "Redis up on every replica");
});

after(async () => {
  await stopReplicas?.();
  await redis?.stop();
  await proxy?.close();
  await devchain?.close();
});

describe("replicas sharing one Redis", { timeout: 120_000 }, () => {
  test("the same quote asked of all three replicas at one block costs one eth_call, and all three answer it alike", async () => {
    for (const [marketId, expectedPrice, extra] of [
      [1, "0.55", ""],
      [2, "1030", "&search=exact"],
    ] as const) {
      proxy.clear();
      const answers = await everywhere(path(marketId, expectedPrice, 7n * ONE + 1n, extra));
      assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200]);
      assert.equal(new Set(answers.map((answer) => answer.text)).size, 1, "one answer, byte for byte");
      assert.equal(ethCalls(), 1, `eth_calls for market ${marketId}${extra}`);
    }
  });

  test("five distinct quotes, each asked of every replica at once: five eth_calls in all", async () => {
    proxy.clear();
    const budgets = [1n, 2n, 3n, 4n, 5n].map((n) => n * ONE + 11n);
    const answers = await Promise.all(budgets.map((budget) => everywhere(path(1, "0.58", budget))));
    for (const three of answers) {
      assert.deepEqual(three.map((answer) => answer.status), [200, 200, 200]);
      assert.equal(new Set(three.map((answer) => answer.text)).size, 1);
    }
    assert.equal(ethCalls(), 5);
  });

  test("a batch asked of one replica, then of the two others: its answers are read from Redis, not searched again", async () => {
    const quotes = [
      { marketAddress: devchain.marketGroup, marketId: "1", expectedPrice: "0.61", collateralAvailable: String(5n * ONE + 3n) },
      { marketAddress: devchain.marketGroup, marketId: "2", expectedPrice: "985", collateralAvailable: String(5n * ONE + 3n), search: "exact" },
    ];
    proxy.clear();
    const answers: string[] = [];
    for (const replica of replicas) {
      const response = await request(`${replica.base}/quoter/${DEVCHAIN_ID}/batch`, {
        method: "POST",
        headers: { "content-type": "application/json", ...anotherClient() },
        body: JSON.stringify({ quotes }),
      });
      answers.push(await response.body.text());
      assert.equal(response.statusCode, 200, answers.at(-1));
    }
    assert.equal(new Set(answers).size, 1, "one answer, byte for byte");
    assert.equal(ethCalls(), 1, "the first replica's one batch call");
  });

  test("the rate limit counts one client's requests across the three replicas", async () => {
    const client = { "x-forwarded-for": "10.200.0.1" };
    const statuses = await Promise.all(
      Array.from({ length: RATE_LIMIT_MAX + 15 }, (_, i) => replicas[i % 3]!.get("/quoter", client).then((answer) => answer.status)),
    );
    assert.equal(statuses.filter((status) => status === 200).length, RATE_LIMIT_MAX, "allowed across the replicas");
    assert.equal(statuses.filter((status) => status === 429).length, 15);
    // Another client is not limited by it.
    assert.equal((await replicas[0]!.get("/quoter", { "x-forwarded-for": "10.200.0.2" })).status, 200);
  });

  test("live streams on all three replicas get the same answers, from one search per distinct quote and block", async () => {
    const targets = [path(2, "1030", 1000n * ONE), path(2, "1010", ONE)];
    const streams: EventStream[][] = targets.map((target) => replicas.map((replica) => openEventStream(`${replica.base}${target}`)));
    try {
      for (const row of streams) for (const stream of row) assert.equal((await stream.next(10_000, "the first answer")).type, "quote");
      proxy.clear();
      const { blockNumber } = await trade(devchain);
      for (const row of streams) {
        const events = await Promise.all(row.map((stream) => stream.next(10_000, "the answer after the trade")));
        assert.ok(events.every((event) => event.type === "quote" && event.json.blockNumber === blockNumber.toString()));
        assert.equal(new Set(events.map((event) => event.data)).size, 1, "the same answer on every replica");
      }
      // Searches still running elsewhere would show here: none does.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(ethCalls(), targets.length, "one search per distinct quote at the new block");
    } finally {
      for (const row of streams) for (const stream of row) stream.close();
    }
  });

  test("Redis slow (answering nothing for 3 s): no quote fails or waits on it, /health says so, sharing resumes after", async () => {
    const stalled = redis.stall(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => replicas[i % 3]!.get(path(1, "0.59", 2n * ONE + BigInt(i)), anotherClient())));
    const ms = performance.now() - started;
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200, 200, 200, 200]);
    // A command late by REDIS_TIMEOUT_MS (250 ms) and the quote goes on alone: well before Redis wakes.
    assert.ok(ms < 2500, `answered in ${ms.toFixed(0)} ms while Redis slept 3 s`);
    const states = await Promise.all(replicas.map((replica) => replica.redis()));
    assert.ok(states.some((status) => status?.state === "down"), "a replica that asked Redis says it is down");
    await stalled;
    await waitFor(async () => (await Promise.all(replicas.map((replica) => replica.redis()))).every((status) => status?.state === "up"), 10_000, "every replica sharing again");
    proxy.clear();
    const again = await everywhere(path(1, "0.59", 9n * ONE + 9n));
    assert.deepEqual(again.map((answer) => answer.status), [200, 200, 200]);
    assert.equal(ethCalls(), 1);
  });

  test("Redis killed mid-run: no quote fails, every replica's /health says it works alone, and sharing resumes once Redis is back", async () => {
    let asked = 0;
    const failed: string[] = [];
    let running = true;
    const load = Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        while (running) {
          const n = BigInt(++asked);
          const answer = await replicas[(worker + Number(n)) % 3]!.get(path(1, "0.57", ONE + n), anotherClient());
          if (answer.status !== 200) failed.push(`${answer.status} ${answer.text}`);
        }
      }),
    );
    await waitFor(() => asked >= 30, 10_000, "quotes before the kill");
    await redis.kill();
    await waitFor(async () => (await Promise.all(replicas.map((replica) => replica.redis()))).every((status) => status?.state === "down"), 10_000, "every replica saying Redis is down");
    const before = asked;
    await waitFor(() => asked >= before + 30, 10_000, "quotes while Redis is down");
    const metrics = parseSamples((await replicas[0]!.get("/metrics")).text);
    assert.equal(total(metrics, "quoter_redis_up"), 0);
    assert.ok(total(metrics, "quoter_shared_searches_total", { from: "alone" }) > 0, "searches made alone");
    await redis.restart();
    await waitFor(async () => (await Promise.all(replicas.map((replica) => replica.redis()))).every((status) => status?.state === "up"), 15_000, "every replica sharing again");
    running = false;
    await load;
    assert.deepEqual(failed, [], "failed quotes");
    assert.ok(replicas.every((replica) => /answers alone/.test(replica.process.output())), "each replica logged that it works alone");

    proxy.clear();
    const answers = await everywhere(path(1, "0.56", 3n * ONE + 5n));
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200]);
    assert.equal(ethCalls(), 1, "one eth_call again once Redis is back");
  });
});

test("a replica whose Redis does not answer at start-up starts, says so, and answers quotes alone", { timeout: 60_000 }, async () => {
  const port = await closedPort();
  const { replicas: [alone], stop } = await startReplicas(1, { RPC_URL_31337: proxy.url, REDIS_URL: `redis://:secret@127.0.0.1:${port}/0`, RATE_LIMIT_MAX: "5" });
  try {
    // The banner's lines may come in more than one write: the first one made it ready.
    await waitFor(() => /replicas: /.test(alone!.process.output()), 5_000, "the banner's replicas line");
    assert.match(alone!.process.output(), new RegExp(`replicas: .*redis://127\\.0\\.0\\.1:${port}/… \\(not answering yet`));
    assert.doesNotMatch(alone!.process.output(), /secret/, "the password is never printed");
    assert.equal((await alone!.redis())?.state, "down");
    const answers = await Promise.all(Array.from({ length: 3 }, (_, i) => alone!.get(path(1, "0.62", ONE + BigInt(i)))));
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200]);
    // The rate limit still holds, in the replica's own counts.
    const statuses = await Promise.all(Array.from({ length: 4 }, () => alone!.get("/quoter").then((answer) => answer.status)));
    assert.deepEqual(statuses.sort(), [200, 200, 429, 429]);
  } finally {
    await stop();
  }
});

