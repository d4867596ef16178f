// Graceful shutdown: a SIGTERM during 50 in-flight quotes lets all 50 complete, and ends every live stream with
// `end` (shutdown), then the process exits 0. The service runs as its own process (src/main.ts, as `npm start` runs it) behind a slow endpoint.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { request } from "undici";
import { chainBehindProxy, type ChainBehindProxy } from "../support/liveService.ts";
import { startProcess } from "../support/processes.ts";
import type { RpcProxy } from "../support/rpcProxy.ts";

let setup: ChainBehindProxy;
let devchain: Devchain;
let slow: RpcProxy;
before(async () => ({ devchain, proxy: slow } = setup = await chainBehindProxy({ delayMs: 1_500 })));
after(() => setup.close());

test("SIGTERM during 50 in-flight quotes: all 50 complete with 200, then exit 0", async () => {
  const service = await startProcess(
    process.execPath,
    ["--import", "tsx", "src/main.ts"],
    // Generous timeouts: this test is about shutdown, on a machine that may be busy.
    { PORT: "0", LOG_LEVEL: "silent", RATE_LIMIT_MAX: "0", RPC_TIMEOUT_MS: "30000", QUOTE_DEADLINE_MS: "60000", RPC_URL_31337: slow.url },
    /Quoter listening on (http:\/\/\S+)\/quoter /,
    30_000,
  );
  try {
    const base = service.match[1]!;
    const before = slow.methods.length;
    const quotes = Array.from({ length: 50 }, (_, i) =>
      fetch(`${base}/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/1?expectedPrice=0.55&collateralAvailable=${10n ** 20n + BigInt(i)}`).then(
        async (response) => ({ status: response.status, body: await response.text() }),
      ),
    );
    // Every quote has reached the chain (one eth_call each) and waits on the slow endpoint.
    while (slow.methods.length - before < 50) await new Promise((resolve) => setTimeout(resolve, 20));
    const exited = service.stop(); // SIGTERM

    const answers = await Promise.all(quotes);
    assert.deepEqual(answers.map((a) => a.status), Array(50).fill(200), JSON.stringify(answers.find((a) => a.status !== 200)));
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`${base}/quoter`), "no longer accepting connections");
  } finally {
    service.child.kill("SIGKILL");
  }
});

test("SIGTERM with live streams open: each gets `end` (shutdown) with a retry hint, then the process exits 0", async () => {
  const service = await startProcess(
    process.execPath,
    ["--import", "tsx", "src/main.ts"],
    { PORT: "0", LOG_LEVEL: "silent", RATE_LIMIT_MAX: "0", RPC_URL_31337: devchain.endpoint.url },
    /Quoter listening on (http:\/\/\S+)\/quoter /,
    30_000,
  );
  try {
    const base = service.match[1]!;
    const streams = [1, 2, 4].map(async (marketId) => {
      const response = await request(`${base}/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?expectedPrice=0.6&collateralAvailable=${10n ** 18n}`, {
        headers: { accept: "text/event-stream" },
      });
      let text = "";
      for await (const chunk of response.body) text += chunk.toString();
      return text;
    });
    // Every stream has its first event (the service's /metrics counts them) before the signal.
    const sent = async () => {
      const metrics = await (await fetch(`${base}/metrics`)).text();
      return [...metrics.matchAll(/^quoter_stream_events_total\{event="(?:quote|error)"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    };
    for (let waited = 0; (await sent()) < 3; waited += 20) {
      assert.ok(waited < 20_000, "every stream's first event within 20 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const exited = service.stop(); // SIGTERM
    for (const text of await Promise.all(streams)) {
      assert.match(text, /\n\nevent: end\ndata: \{"reason":"shutdown"\}\nretry: \d+\n\n$/, text);
    }
    assert.equal(await exited, 0);
  } finally {
    service.child.kill("SIGKILL");
  }
});
