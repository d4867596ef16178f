// `npm run startup [-- --runs N]`: time from spawning `npm start` (no RPC_URL_*, so with its embedded chain) to the
// first 200 on a demo quote, polled every 10 ms, and the resident memory of its whole process tree then: the demo
// chain loaded from the state the build saved (the default), beside the same start deploying it from scratch
// (DEMO_CHAIN=deploy, what every start did before the saved state). Prints each run, then each way's best and median
// and how many times faster the loaded start is, the two ways interleaved; then the chain's own part alone, in this
// process: the embedded chain up with the demo, loaded or deployed. A measurement, not a test.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEMO_MARKETS } from "../src/devchain/demo.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { closedPort } from "../test/support/closedPort.ts";
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

/** The resident memory of every process in the group `pgid` (the spawned command and all it started), in bytes. */
function groupResidentBytes(pgid: number): { bytes: number; processes: number } {
  let bytes = 0;
  let processes = 0;
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      // Fields after the command's closing parenthesis: state, ppid, pgrp.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp !== pgid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, "utf8"));
      if (rss) (bytes += Number(rss[1]) * 1024), processes++;
    } catch {
      // the process ended meanwhile
    }
  }
  return { bytes, processes };
}

type StartPath = { readonly name: string; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> };
const PATHS: readonly StartPath[] = [
  { name: "loading the saved demo (npm start)", command: "npm", args: ["start"], env: {} },
  { name: "deploying the demo (DEMO_CHAIN=deploy npm start)", command: "npm", args: ["start"], env: { DEMO_CHAIN: "deploy" } },
];

async function once(start: StartPath): Promise<{ ms: number; bytes: number; processes: number }> {
  const port = await closedPort();
  const started = performance.now();
  const child = spawn(start.command, [...start.args], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...start.env },
    stdio: "ignore",
    detached: true,
  });
  let exited = false;
  child.once("exit", () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`${start.name} exited before answering`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        if (response.status === 200) return { ms: performance.now() - started, ...groupResidentBytes(child.pid!) };
        await response.body?.cancel();
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error("no 200 within 120 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await gone;
    }
  }
}

const results = new Map(PATHS.map((start) => [start.name, [] as { ms: number; bytes: number; processes: number }[]]));
for (let run = 1; run <= runs; run++) {
  for (const start of PATHS) {
    const result = await once(start);
    results.get(start.name)!.push(result);
    console.log(`run ${run}, ${start.name}: ${(result.ms / 1000).toFixed(2)} s to the first 200; ${result.processes} processes, ${(result.bytes / 2 ** 20).toFixed(0)} MiB resident`);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const best = new Map<string, number>();
for (const [name, list] of results) {
  const times = list.map((result) => result.ms);
  best.set(name, Math.min(...times));
  console.log(
    `${name}: best of ${runs} ${(Math.min(...times) / 1000).toFixed(2)} s to the first 200, median ${(median(times) / 1000).toFixed(2)} s (max ${(Math.max(...times) / 1000).toFixed(2)}); ` +
      `process tree ${(median(list.map((result) => result.bytes)) / 2 ** 20).toFixed(0)} MiB resident`,
  );
}
const [loaded, deployed] = PATHS.map((start) => best.get(start.name)!);
console.log(`the loaded start is ${(deployed! / loaded!).toFixed(2)}x as fast as the deploying start (best of ${runs} each, Node ${process.version})`);

// The chain's part alone: from spawning anvil to a chain that holds the demo, each way, interleaved.
const chainTimes = { load: [] as number[], deploy: [] as number[] };
for (let run = 1; run <= runs; run++) {
  for (const way of ["load", "deploy"] as const) {
    const started = performance.now();
    const devchain = await startDevchain({ deploy: way === "deploy" });
    chainTimes[way].push(performance.now() - started);
    await devchain.close();
  }
}
const [load, deploy] = [Math.min(...chainTimes.load), Math.min(...chainTimes.deploy)];
console.log(
  `the chain alone (anvil up with the demo, best of ${runs}): loaded ${load.toFixed(0)} ms (median ${median(chainTimes.load).toFixed(0)}), ` +
    `deployed ${deploy.toFixed(0)} ms (median ${median(chainTimes.deploy).toFixed(0)}): ${(deploy / load).toFixed(1)}x`,
);
