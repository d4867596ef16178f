// `npm run startup [-- --runs N]`: time from spawning `npm start` (no RPC_URL_*, so with its embedded chain) to
// the first 200 on a demo quote, polled every 20 ms. Prints each run and the median; it is a measurement for
// the README, not a test.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { parseArgs } from "node:util";
import { DEMO_MARKETS } from "../src/devchain/demo.ts";
import { quotePath } from "./workload.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs > 0 && runs <= 50)) {
  console.error("startup: --runs must be 1..50");
  process.exit(2);
}

const market2 = DEMO_MARKETS[1]!;
const path = quotePath({ marketId: 2, note: "", ...market2.example });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function once(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: "ignore",
    detached: true,
  });
  let exited = false;
  child.once("exit", () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error("npm start exited before answering");
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        if (response.status === 200) return performance.now() - started;
        await response.body?.cancel();
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error("no 200 within 120 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await gone;
    }
  }
}

const times: number[] = [];
for (let run = 1; run <= runs; run++) {
  const ms = await once();
  times.push(ms);
  console.log(`run ${run}: ${(ms / 1000).toFixed(2)} s to the first 200`);
}
const sorted = [...times].sort((a, b) => a - b);
console.log(`median of ${runs}: ${(sorted[Math.floor((runs - 1) / 2)]! / 1000).toFixed(2)} s (min ${(sorted[0]! / 1000).toFixed(2)} s, max ${(sorted.at(-1)! / 1000).toFixed(2)} s)`);
