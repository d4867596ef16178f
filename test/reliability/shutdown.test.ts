// Issue 6 graceful shutdown: a SIGTERM during 50 in-flight quotes lets all 50 complete, then the process
// exits 0. The service runs as its own process (src/main.ts, as `npm start` runs it) behind a slow endpoint.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";

let devchain: Devchain;
let slow: RpcProxy;
before(async () => {
  devchain = await startDevchain();
  slow = await startRpcProxy(devchain.endpoint.url, { delayMs: 1_500 });
});
after(async () => {
  await slow.close();
  await devchain.close();
});

test("SIGTERM during 50 in-flight quotes: all 50 complete with 200, then exit 0", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: new URL("../..", import.meta.url).pathname,
    // Generous timeouts: this test is about shutdown, on a machine that may be busy.
    env: { ...process.env, PORT: "0", LOG_LEVEL: "silent", RATE_LIMIT_MAX: "0", RPC_TIMEOUT_MS: "30000", QUOTE_DEADLINE_MS: "60000", RPC_URL_31337: slow.url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    let output = "";
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening:\n${output}`)), 30_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Quoter listening on (http:\/\/\S+)\/quoter /.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
    });

    const before = slow.methods.length;
    const quotes = Array.from({ length: 50 }, (_, i) =>
      fetch(`${base}/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/1?expectedPrice=0.55&collateralAvailable=${10n ** 20n + BigInt(i)}`).then(
        async (response) => ({ status: response.status, body: await response.text() }),
      ),
    );
    // Every quote has reached the chain (one eth_call each) and waits on the slow endpoint.
    while (slow.methods.length - before < 50) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGTERM");

    const answers = await Promise.all(quotes);
    assert.deepEqual(answers.map((a) => a.status), Array(50).fill(200), JSON.stringify(answers.find((a) => a.status !== 200)));
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`${base}/quoter`), "no longer accepting connections");
  } finally {
    child.kill("SIGKILL");
  }
});
