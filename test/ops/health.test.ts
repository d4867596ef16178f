// /health and /ready: liveness always; readiness per configured chain, 503 naming the chain ids that do
// not answer (never a URL), flipping when the node stops; both, and /metrics, outside the rate limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_HEAD_BLOCK } from "../../src/devchain/demo.ts";
import { startDevchain } from "../../src/devchain/devchain.ts";
import { closedPort } from "../support/closedPort.ts";
import { quoterApp } from "../support/quoterHarness.ts";
import { startRpcProxy } from "../support/rpcProxy.ts";

const appFor = (rpc: Map<number, string[]>, protection = { rateLimitMax: 0 }) => quoterApp({ rpc, protection, readyTimeoutMs: 500 });

test("/health answers 200 {status: ok}, also with no chain reachable; each chain's head and how it is followed", async () => {
  const app = await appFor(new Map([[1, [`http://127.0.0.1:${await closedPort()}`]]]));
  try {
    const response = await app.inject("/health");
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: "ok", chains: [{ chainId: 1, followedBy: "idle" }] }, "nobody asked: no head yet");
  } finally {
    await app.close();
  }
});

test("/health after quotes: the head a quote read (number, hash, age), polled while asked without a WebSocket; pushed with one", async () => {
  const devchain = await startDevchain();
  const polled = await appFor(new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]));
  const pushed = await quoterApp({
    rpc: devchain.endpoint.url,
    webSocketUrls: new Map([[DEVCHAIN_ID, devchain.endpoint.webSocketUrl]]),
  });
  try {
    const quote = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000`;
    const head = await devchain.chain.publicClient.getBlock({ blockNumber: DEMO_HEAD_BLOCK });
    for (const [app, followedBy, webSocket] of [[polled, "polling", undefined], [pushed, "subscription", "connected"]] as const) {
      assert.equal((await app.inject(quote)).statusCode, 200);
      const health = (await app.inject("/health")).json();
      assert.deepEqual(Object.keys(health.chains[0]), ["chainId", "followedBy", ...(webSocket ? ["webSocket"] : []), "head"]);
      assert.equal(health.chains[0].followedBy, followedBy);
      assert.equal(health.chains[0].webSocket, webSocket);
      assert.deepEqual({ ...health.chains[0].head, ageMs: 0 }, { blockNumber: String(DEMO_HEAD_BLOCK), blockHash: head.hash, ageMs: 0 });
      assert.ok(health.chains[0].head.ageMs >= 0 && health.chains[0].head.ageMs < 5_000, `${health.chains[0].head.ageMs} ms`);
      const ready = (await app.inject("/ready")).json();
      assert.equal(ready.chains[0].followedBy, followedBy);
      assert.equal(ready.chains[0].head.blockHash, head.hash);
      const metrics = (await app.inject("/metrics")).body;
      assert.match(metrics, new RegExp(`quoter_chain_head_block\\{chain_id="${DEVCHAIN_ID}"\\} ${DEMO_HEAD_BLOCK}\\n`));
      assert.match(metrics, new RegExp(`quoter_chain_follow_mode\\{chain_id="${DEVCHAIN_ID}",mode="${followedBy}"\\} 1\\n`));
      assert.match(metrics, new RegExp(`quoter_chain_head_age_seconds\\{chain_id="${DEVCHAIN_ID}"\\} \\d`));
    }
  } finally {
    await polled.close();
    await pushed.close();
    await devchain.close();
  }
});

test("/ready: 200 with each chain's status while the node answers, 503 naming chain 31337 once it is stopped", async () => {
  const devchain = await startDevchain();
  const app = await appFor(new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]));
  try {
    const ready = await app.inject("/ready");
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), {
      status: "ready",
      chains: [{ chainId: DEVCHAIN_ID, ready: true, endpoints: 1, answering: 1, blockNumber: String(DEMO_HEAD_BLOCK), followedBy: "idle" }],
    });

    await devchain.endpoint.close();
    // A check is reused for up to 1 s: the flip shows within a couple of seconds.
    let response = await app.inject("/ready");
    for (let tries = 0; response.statusCode === 200 && tries < 40; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await app.inject("/ready");
    }
    assert.equal(response.statusCode, 503);
    const body = response.json();
    assert.equal(body.error, "Not ready");
    assert.deepEqual(body.details, [{ param: "chainId", message: `chain ${DEVCHAIN_ID} does not answer` }]);
    assert.deepEqual(body.chains, [{ chainId: DEVCHAIN_ID, ready: false, endpoints: 1, answering: 0, followedBy: "idle" }]);
    assert.ok(!response.body.includes(new URL(devchain.endpoint.url).port), "no RPC URL or port in the body");
  } finally {
    await app.close();
    await devchain.close().catch(() => {});
  }
});

test("/ready names only the failing chains, and a chain is ready when one of its endpoints answers", async () => {
  const devchain = await startDevchain();
  const dead = `http://user:secret@127.0.0.1:${await closedPort()}/v3/secret-key`;
  const app = await appFor(
    new Map([
      [DEVCHAIN_ID, [dead, devchain.endpoint.url]],
      [1, [dead]],
      [10, [dead]],
    ]),
  );
  try {
    const response = await app.inject("/ready");
    assert.equal(response.statusCode, 503);
    const body = response.json();
    assert.deepEqual(
      body.details.map((detail: { message: string }) => detail.message),
      ["chain 1 does not answer", "chain 10 does not answer"],
    );
    assert.deepEqual(body.chains[0], { chainId: DEVCHAIN_ID, ready: true, endpoints: 2, answering: 1, blockNumber: String(DEMO_HEAD_BLOCK), followedBy: "idle" });
    assert.ok(!/secret|127\.0\.0\.1/.test(response.body), "no URL, credential or key in the body");
  } finally {
    await app.close();
    await devchain.close();
  }
});

test("a node that does not answer within READY_TIMEOUT_MS makes the chain not ready", async () => {
  const hanging = await startRpcProxy(undefined, { reply: () => "hang" }); // accepts, never answers
  const app = await appFor(new Map([[5, [hanging.url]]]));
  try {
    const response = await app.inject("/ready");
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json().details, [{ param: "chainId", message: "chain 5 does not answer" }]);
  } finally {
    await app.close();
    await hanging.close();
  }
});

test("/health, /ready and /metrics are not rate limited; the quote route still is", async () => {
  const devchain = await startDevchain();
  const app = await appFor(new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]), { rateLimitMax: 2 });
  try {
    for (let i = 0; i < 5; i++) {
      for (const path of ["/health", "/ready", "/metrics"]) {
        const response = await app.inject(path);
        assert.equal(response.statusCode, 200, `${path} #${i + 1}`);
        assert.equal(response.headers["x-ratelimit-limit"], undefined, `${path} carries no rate-limit headers`);
      }
    }
    const quote = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=1000`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.inject(quote)).statusCode);
    assert.equal(statuses[2], 429, `quote statuses ${statuses}`);
  } finally {
    await app.close();
    await devchain.close();
  }
});
