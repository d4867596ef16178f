// `npm run load [-- --seconds N] [-- --connections N]`: the load test. The service on its embedded chain
// (`npm start` with no RPC_URL_*), rate limit off, 100 connections for 20 s with autocannon, every quote
// distinct (so coalescing never helps). It fails on any error or 5xx, or memory still climbing, and writes p99,
// throughput and resident memory (the service's and its chain's, a child process) to bench/RESULTS.md (its own
// section, kept by `npm run bench`) and bench/load.json.
import autocannon from "autocannon";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { killAllNow, residentBytes, startNode, stopAll } from "./processes.ts";
import { namedInTree } from "../test/support/processTree.ts";
import { MIB } from "./stats.ts";
import { MIX, quotePath } from "./workload.ts";

const BENCH_DIR = new URL(".", import.meta.url).pathname;
export const LOAD_SECTION_START = "<!-- load:start -->";
export const LOAD_SECTION_END = "<!-- load:end -->";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "20" }, connections: { type: "string", default: "100" } },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
if (!(seconds > 0 && seconds <= 600 && connections > 0 && connections <= 1000)) {
  console.error("load: --seconds must be 1..600 and --connections 1..1000");
  process.exit(2);
}

process.once("SIGINT", () => {
  killAllNow();
  process.exit(130);
});

try {
  const service = await startNode(
    "load-service",
    "src/main.ts",
    [],
    { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", RATE_LIMIT_MAX: "0" },
    /Quoter listening on (http:\/\/\S+)\/quoter /,
  );
  const base = service.match[1]!;
  const [chainPid] = namedInTree(service.pid, "anvil");
  if (chainPid === undefined) throw new Error("no embedded chain (anvil) under the service");
  const chainRss = () => residentBytes(chainPid) ?? 0;
  const rssStart = residentBytes(service.pid);
  const chainRssStart = chainRss();
  let sent = 0;
  let rssPeak = 0;
  let chainRssPeak = 0;
  const started = Date.now();
  /** Resident sets every 5 s: bounded memory shows as a plateau, a leak as a slope. */
  const rssSeries: { s: number; mib: number | undefined }[] = [];
  const chainRssSeries: { s: number; mib: number | undefined }[] = [];
  const sampler = setInterval(() => {
    const rss = residentBytes(service.pid) ?? 0;
    const chain = chainRss();
    rssPeak = Math.max(rssPeak, rss);
    chainRssPeak = Math.max(chainRssPeak, chain);
    const elapsed = Math.floor((Date.now() - started) / 1000);
    if (elapsed >= (rssSeries.length + 1) * 5) {
      rssSeries.push({ s: elapsed, mib: mib(rss) });
      chainRssSeries.push({ s: elapsed, mib: mib(chain) });
    }
  }, 250);
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            setupRequest: (request) => {
              const index = sent++;
              return { ...request, method: "GET", path: quotePath(MIX[index % MIX.length]!, Math.floor(index / MIX.length) + 1) };
            },
          },
        ],
      },
      (error, outcome) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(outcome)),
    );
    instance.on("response", (_client, statusCode) => statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1));
  });
  clearInterval(sampler);
  const rssEnd = residentBytes(service.pid);
  const chainRssEnd = chainRss();
  // The last sample is the end of the run, so that a 20 s run has four and the climbing check applies.
  if (rssSeries.length < Math.floor(seconds / 5)) {
    const elapsed = Math.floor((Date.now() - started) / 1000);
    rssSeries.push({ s: elapsed, mib: mib(rssEnd) });
    chainRssSeries.push({ s: elapsed, mib: mib(chainRssEnd) });
  }
  const fiveXx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);

  const report = {
    when: new Date().toISOString(),
    machine: { cores: os.cpus().length, node: process.version },
    connections,
    seconds,
    requests: result.requests.total,
    throughputPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    statuses: Object.fromEntries(statuses),
    errors: result.errors,
    timeouts: result.timeouts,
    fiveXx,
    rssMiB: { start: mib(rssStart), peak: mib(rssPeak), end: mib(rssEnd) },
    rssSeries,
    chainRssMiB: { start: mib(chainRssStart), peak: mib(chainRssPeak), end: mib(chainRssEnd) },
    chainRssSeries,
  };
  const table = [
    `| connections | duration | quotes | quotes/s | p50 ms | p99 ms | errors | 5xx | service RSS start / peak / end MiB | chain RSS start / peak / end MiB |`,
    `|---|---|---|---|---|---|---|---|---|---|`,
    `| ${connections} | ${seconds} s | ${report.requests} | ${report.throughputPerSecond.toFixed(1)} | ${report.latencyMs.p50} | ${report.latencyMs.p99} | ${report.errors + report.timeouts} | ${fiveXx} | ${report.rssMiB.start} / ${report.rssMiB.peak} / ${report.rssMiB.end} | ${report.chainRssMiB.start} / ${report.chainRssMiB.peak} / ${report.chainRssMiB.end} |`,
  ].join("\n");
  const series = `RSS every 5 s, MiB: service ${rssSeries.map((sample) => sample.mib).join(", ")}; chain ${chainRssSeries.map((sample) => sample.mib).join(", ")}`;
  console.log(table);
  console.log(series);
  writeFileSync(join(BENCH_DIR, "load.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeLoadSection(
    join(BENCH_DIR, "RESULTS.md"),
    `## Load test\n\n\`npm run load\`: the service on its embedded chain (single-call, rate limit off), ${connections} autocannon connections for ${seconds} s, every quote distinct, on ${report.machine.cores} cores with Node ${report.machine.node} (${report.when}). The chain is anvil, a child process of the service: its memory is measured apart.\n\n${table}\n\n${series}\n`,
  );
  const failures = [];
  if (result.errors + result.timeouts > 0) failures.push(`${result.errors} errors and ${result.timeouts} timeouts`);
  if (fiveXx > 0) failures.push(`${fiveXx} answers were 5xx`);
  const peakOf = (samples: typeof rssSeries) => Math.max(...samples.map((sample) => sample.mib ?? 0));
  for (const [name, samples] of [["service", rssSeries], ["chain", chainRssSeries]] as const) {
    const half = Math.ceil(samples.length / 2);
    if (samples.length >= 4 && peakOf(samples.slice(half)) > 1.5 * peakOf(samples.slice(0, half))) {
      failures.push(`${name} memory still climbing: the second half peaked above 1.5x the first (${samples.map((x) => x.mib).join(", ")} MiB)`);
    }
  }
  if ((statuses.get(200) ?? 0) !== result.requests.total) failures.push(`not every answer was 200: ${JSON.stringify(report.statuses)}`);
  if (failures.length > 0) throw new Error(`load test failed: ${failures.join("; ")}`);
  console.log("load test passed: 0 errors, 0 5xx");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await stopAll();
}

function mib(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : Math.round((bytes / MIB) * 10) / 10;
}

/** Replaces (or appends) the load section of RESULTS.md, leaving the rest of the file as it is. */
function writeLoadSection(file: string, content: string): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const section = `${LOAD_SECTION_START}\n${content}${LOAD_SECTION_END}\n`;
  const start = text.indexOf(LOAD_SECTION_START);
  const end = text.indexOf(LOAD_SECTION_END);
  const next = start >= 0 && end > start ? text.slice(0, start) + section + text.slice(end + LOAD_SECTION_END.length + 1) : `${text.trimEnd()}\n\n${section}`;
  writeFileSync(file, next);
}
