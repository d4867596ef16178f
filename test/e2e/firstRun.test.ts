// First contact with the service as a process, the compiled build as `npm start` runs it: mistakes of set-up
// answered with one line that says what to change, and a dead endpoint warned of at start-up and named (with what
// to check) in the 503 a quote then gets.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { runProcess, startProcess } from "../support/processes.ts";

const ENTRY = "dist/main.js";

test("a port in use: exit 1 with one line naming the port and what to set, no stack trace", async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const run = await runProcess(process.execPath, [ENTRY], { PORT: String(port), RPC_URL_31337: "http://127.0.0.1:9", LOG_LEVEL: "silent" });
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stderr.trim().split("\n");
    assert.deepEqual(lines, [`quoter: port ${port} on 127.0.0.1 is in use: stop what listens there, or set PORT to another port (PORT=0 takes any free one)`]);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

test("a dead endpoint: warned of at start-up with its variable, then each quote's 503 names it and what to check", async () => {
  const service = await startProcess(
    process.execPath,
    [ENTRY],
    { PORT: "0", RPC_URL_31337: "http://127.0.0.1:9/some-key", LOG_FORMAT: "json" },
    /Quoter listening on (http:\/\/\S+)\/quoter/,
  );
  try {
    const warning = service
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string; endpoint?: string })
      .find((entry) => entry.level === 40 && /RPC_URL_31337 did not answer eth_chainId at start-up/.test(entry.msg));
    assert.ok(warning, service.output());
    assert.equal(warning.endpoint, "http://127.0.0.1:9/…", "the endpoint without its path");
    assert.ok(!service.output().includes("some-key"));
    const base = service.match[1]!;
    const answer = await fetch(`${base}/quoter/31337/${DEMO_MARKET_GROUP_ADDRESS}/2?expectedPrice=1030&collateralAvailable=1000`);
    assert.equal(answer.status, 503);
    assert.deepEqual(await answer.json(), {
      error: "Chain RPC unavailable",
      details: [
        {
          param: "chainId",
          message: "RPC_URL_31337: request failed (ECONNREFUSED): nothing listens at that host and port; check that the node runs and the URL",
        },
      ],
    });
  } finally {
    await service.stop();
  }
});
