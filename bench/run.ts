// `npm run bench [-- --quick] [-- --out DIR] [-- --cpu-prof]`: latency, RPC cost, throughput, overhead and
// memory of the quoter, measured with autocannon the way a user meets them: through a JSON-RPC endpoint some
// milliseconds away. The devchain node, the delay proxy and each service run as separate processes; this
// process only drives autocannon and reads the proxy's counters and the services' /proc status. Beside the
// default bisection it measures search=exact: candidates and requests per quote over a workload of its own, its
// latency on the mix, and the gas of the searcher's call data for it (scripts/measure-gas.ts). And four timings
// that tests no longer bound (bench/timings.ts): the devchain's start, the 503 at a quote's deadline, the 503 of a
// full queue, /ready against a silent node. And held positions' quotes (bench/positions.ts): each strategy's p50 and
// requests per quote, and the candidates of each exact answer. And new liquidity positions (bench/liquidity.ts): their
// candidates, the searcher's gas and the p50 per strategy, and how often the group's own quote reverts or leaves
// collateral unused.
import autocannon from "autocannon";
import type { Hex } from "viem";
import { measureExactSearchGas, measureSearchGas } from "../scripts/measure-gas.ts";
import { decodeFacts } from "../src/chain/searchers/searcher.ts";
import type { SearchMode } from "../src/quote/params.ts";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startRpcProxy } from "../test/support/rpcProxy.ts";
import { LOG_DIR, cpuMillis, forkNode, killAllNow, removeLogs, residentBytes, startNode, stopAll, type Child } from "./processes.ts";
import type { ProxyCommand, ProxyCounters, ProxyReady, ProxyReply } from "./proxy.ts";
import {
  keptSections,
  renderExactTable,
  renderMarkdown,
  renderTable,
  renderTakerLines,
  renderTimingTable,
  summarizeExact,
  timingRows,
  verdicts,
  type BenchResults,
  type ExactQuote,
  type LatencyCell,
  type MemoryReading,
  type MemoryResult,
  type ThroughputCell,
  type Timings,
} from "./report.ts";
import { collectGarbage } from "./gcReport.ts";
import { MIB, summarize, type LatencySummary } from "./stats.ts";
import { devchainAnswers, measureServiceTimings, timingServiceEnvs } from "./timings.ts";
import { BENCH_TAKER, EXACT_WORKLOAD, MIX, bareSearchBody, quotePath } from "./workload.ts";
import { positionsWorkload, renderPositionsLines } from "./positions.ts";
import { liquidityWorkload, renderLiquidityLines } from "./liquidity.ts";

const BENCH_DIR = new URL(".", import.meta.url).pathname;
const ROOT = new URL("..", import.meta.url).pathname;

type Strategy = "sequential" | "single-call";
const STRATEGIES: readonly Strategy[] = ["sequential", "single-call"];
/**
 * What the latency cells measure: each strategy, the mix with taker (semantics §12: its trade) on the single-call
 * strategy ("taker"), the mix with search=exact on it ("exact"), and the single-call search as a bare eth_call.
 */
type Target = Strategy | "taker" | "exact" | "bare";
const TARGETS: readonly Target[] = ["sequential", "single-call", "taker", "exact", "bare"];
/** Throughput is measured for the default search only: the quick run stays under 2 minutes. */
const THROUGHPUT_TARGETS = ["sequential", "single-call", "bare"] as const;

interface Plan {
  readonly name: "quick" | "full";
  readonly delaysMs: readonly number[];
  /** The delays at which the mix is also quoted with search=exact (several requests per quote for now). */
  readonly exactDelaysMs: readonly number[];
  /** Quotes sent to each service before anything is recorded (JIT, connection pools, the node's caches). */
  readonly warmupQuotes: number;
  /** Aimed length of one latency cell (concurrency 1); the number of quotes is a multiple of the mix size. */
  readonly latencySeconds: number;
  readonly latencyMinQuotes: number;
  readonly latencyMaxQuotes: number;
  readonly concurrencies: readonly number[];
  readonly throughputSeconds: number;
  readonly throughputWarmupSeconds: number;
  /** Alternating rounds of bare eth_call and single-call quotes at the overhead delay. */
  readonly overheadDelayMs: number;
  readonly overheadRounds: number;
  readonly overheadSecondsPerSide: number;
  readonly memoryCheckpoint: number;
  readonly memoryQuotes: number;
  readonly memoryConcurrency: number;
  /** Rounds of the timings of bench/timings.ts (a quote past its deadline, a full queue, /ready on a silent node). */
  readonly timingRounds: number;
  /** The held positions' workload (bench/positions.ts): its proxy delay and its timed rounds. */
  readonly positionDelayMs: number;
  readonly positionRounds: number;
  /** The liquidity workload (bench/liquidity.ts): its proxy delay, its timed rounds and the strategies timed. */
  readonly liquidityDelayMs: number;
  readonly liquidityRounds: number;
  readonly liquidityTimed: readonly Strategy[];
  /** The whole run is abandoned (children killed, exit 1) past this. */
  readonly watchdogSeconds: number;
}

const FULL: Plan = {
  name: "full",
  delaysMs: [0, 10, 50],
  exactDelaysMs: [0, 10, 50],
  warmupQuotes: 800,
  latencySeconds: 10,
  latencyMinQuotes: 48,
  latencyMaxQuotes: 4_000,
  concurrencies: [1, 16, 64],
  throughputSeconds: 10,
  throughputWarmupSeconds: 2,
  overheadDelayMs: 10,
  overheadRounds: 3,
  overheadSecondsPerSide: 5,
  memoryCheckpoint: 1_000,
  memoryQuotes: 20_000,
  // The devchain node answers searches fastest at a few in flight; more only queue there (see bench/README.md).
  memoryConcurrency: 4,
  timingRounds: 10,
  positionDelayMs: 50,
  positionRounds: 10,
  liquidityDelayMs: 50,
  liquidityRounds: 3,
  liquidityTimed: STRATEGIES,
  watchdogSeconds: 25 * 60,
};

/** Short runs of the same measurements: a smoke test that the whole bench works, under 2 minutes. */
const QUICK: Plan = {
  ...FULL,
  name: "quick",
  // The comparison with the bisection is made at the slowest delay; the others would only lengthen the smoke run.
  exactDelaysMs: [50],
  warmupQuotes: 80,
  latencySeconds: 1,
  latencyMinQuotes: 8,
  latencyMaxQuotes: 400,
  throughputSeconds: 1.5,
  throughputWarmupSeconds: 0.5,
  overheadRounds: 1,
  overheadSecondsPerSide: 1.5,
  memoryCheckpoint: 100,
  memoryQuotes: 600,
  timingRounds: 3,
  positionRounds: 2,
  liquidityRounds: 1,
  liquidityTimed: ["single-call"],
  watchdogSeconds: 5 * 60,
};

const { values: options } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    "cpu-prof": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (options.help) {
  console.log(`Usage: npm run bench [-- --quick] [-- --out DIR] [-- --cpu-prof]

Starts the devchain node, a delay proxy and the quoter (sequential and single-call), all on 127.0.0.1,
and measures them with autocannon. Writes results.json and RESULTS.md to DIR (default: bench/, or
bench/quick/ with --quick). --cpu-prof writes the services' V8 CPU profiles to DIR/profiles/.
Environment: BENCH_LOG_LEVEL, the services' LOG_LEVEL (default info, as npm start).`);
  process.exit(0);
}

const plan = options.quick ? QUICK : FULL;
const outDir = options.out ?? (options.quick ? join(BENCH_DIR, "quick") : BENCH_DIR);
const logLevel = process.env.BENCH_LOG_LEVEL ?? "info";
const failures: string[] = [];
const warnings: string[] = [];

// Whatever happens, no child outlives the bench.
process.on("exit", killAllNow);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`bench: ${signal}, stopping`);
    void stopAll().finally(() => process.exit(130));
  });
}
const watchdog = setTimeout(() => {
  console.error(`bench: not done within ${plan.watchdogSeconds} s, giving up`);
  void stopAll().finally(() => process.exit(1));
}, plan.watchdogSeconds * 1000);
watchdog.unref();

const log = (message: string) => console.error(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
const started = performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The proxy child, driven over IPC. */
class ProxyControl {
  private nextId = 0;
  private readonly pending = new Map<number, (reply: ProxyReply) => void>();
  constructor(
    readonly child: Child,
    readonly url: string,
  ) {
    child.process.on("message", (message: ProxyReply) => {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
    });
  }
  private send(command: Omit<ProxyCommand, "id">): Promise<ProxyReply> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the proxy did not answer over IPC within 5 s")), 5_000);
      this.pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.child.process.send({ id, ...command } satisfies ProxyCommand);
    });
  }
  async setDelay(ms: number): Promise<void> {
    await this.send({ setDelayMs: ms });
  }
  async reset(): Promise<void> {
    await this.send({ reset: true });
  }
  async counters(): Promise<ProxyCounters> {
    return (await this.send({})).counters;
  }
  /**
   * Waits until no request is held or at the node and none has come for a while: a run stopped with quotes in
   * flight (a fixed-duration run) leaves the services finishing them (a sequential quote goes on making its
   * calls) and the node working, which the next run must not queue behind.
   */
  async drain(maxSeconds = 60, quietMs = 300): Promise<void> {
    const until = Date.now() + maxSeconds * 1000;
    let last = await this.counters();
    let quietSince = Date.now();
    while (Date.now() < until) {
      await sleep(50);
      const now = await this.counters();
      if (now.httpRequests !== last.httpRequests || now.inFlight > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      last = now;
    }
    warnings.push(`the node was still busy ${maxSeconds} s after a run`);
  }
}

interface Run {
  readonly result: autocannon.Result;
  /** Latency of every 2xx response, ms, at hrtime resolution. */
  readonly latency: LatencySummary;
  /** The same latencies, unsorted. */
  readonly samples: number[];
  readonly responses: number;
  readonly ok: number;
  /** CPU time of the watched process per response, ms (10 ms clock ticks, spread over the run). */
  readonly cpuMsPerResponse?: number;
}

/**
 * One autocannon run over a list of requests; stopped after `maxSeconds` whatever it was asked. With `cpuPid`,
 * the CPU time that process used during the run is divided over the responses.
 */
function cannon(title: string, opts: autocannon.Options, maxSeconds: number, cpuPid?: number): Promise<Run> {
  const latencies: number[] = [];
  let responses = 0;
  const cpuBefore = cpuPid === undefined ? undefined : cpuMillis(cpuPid);
  return new Promise((resolve, reject) => {
    const instance = autocannon({ sampleInt: 100, timeout: 30, ...opts, title }, (error, result) => {
      clearTimeout(guard);
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      const cpuAfter = cpuPid === undefined ? undefined : cpuMillis(cpuPid);
      const cpuMsPerResponse = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / Math.max(1, responses);
      resolve({ result, latency: summarize(latencies), samples: latencies, responses, ok: result["2xx"], cpuMsPerResponse });
    });
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      responses++;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
    const guard = setTimeout(() => {
      warnings.push(`${title}: stopped after ${maxSeconds} s before it finished`);
      instance.stop();
    }, maxSeconds * 1000);
  });
}

/** Added to every budget, one more wei per quote sent: no two quotes of the bench are identical. */
let nextExtraWei = 1;
const quoteRequests = (search: SearchMode = "bisection", taker?: string): autocannon.Request[] =>
  MIX.map((entry) => ({
    method: "GET",
    path: quotePath(entry, 0, search, taker),
    setupRequest: (request: autocannon.Request) => ({ ...request, path: quotePath(entry, nextExtraWei++, search, taker) }),
  }));
const bareRequests = (): autocannon.Request[] =>
  MIX.map((entry, index) => ({
    method: "POST",
    path: "/",
    headers: { "content-type": "application/json" },
    body: bareSearchBody(entry, index),
  }));

/** A run of exactly `amount` quotes (rounded up to whole passes over the mix). */
function amountRun(
  title: string,
  url: string,
  requests: autocannon.Request[],
  amount: number,
  connections: number,
  maxSeconds: number,
  cpuPid?: number,
) {
  const rounded = Math.max(connections, Math.ceil(amount / MIX.length) * MIX.length);
  return cannon(title, { url, requests, amount: rounded, connections }, maxSeconds, cpuPid);
}

/**
 * Asks the memory run's service (preloaded with bench/gcProbe.ts) for a full garbage collection and waits for
 * its report in the log; undefined (with a warning) when none comes.
 */
async function collectMemoryRunGarbage(child: Child): Promise<{ heapUsed: number; rss: number } | undefined> {
  const report = await collectGarbage(child);
  if (report === undefined) warnings.push("the memory run's service did not report after SIGUSR2");
  else if (!report.collected) warnings.push("the memory run's service has no gc(): RSS after GC is RSS as is");
  return report;
}

function requireAllOk(run: Run, what: string): void {
  const { result } = run;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    failures.push(
      `${what}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats ?? {})}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

/**
 * Each quote of the exact workload once, one at a time at the proxy's current delay (0 ms), on the single-call
 * service: its answer and the JSON-RPC requests it made. A 4xx is an answer like any other (only 200s count
 * for candidates); a 5xx is a failure. The strategies' agreement is checked on the mix, not here: the sequential
 * strategy's many requests per quote would take the quick run past 2 minutes.
 */
async function exactWorkload(proxy: ProxyControl, singleCallUrl: string): Promise<ExactQuote[]> {
  const quotes: ExactQuote[] = [];
  for (const entry of EXACT_WORKLOAD) {
    const path = quotePath(entry, 0, "exact");
    await proxy.reset();
    const response = await fetch(`${singleCallUrl}${path}`);
    const text = await response.text();
    const { rpcRequests } = await proxy.counters();
    if (response.status >= 500) failures.push(`exact workload: ${path} answered ${response.status} ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { iterations?: number; exact?: boolean };
    quotes.push({
      ...entry,
      status: response.status,
      iterations: response.status === 200 ? body.iterations : undefined,
      exact: response.status === 200 ? body.exact : undefined,
      rpcRequests,
    });
  }
  return quotes;
}

function gitDescription(): string {
  try {
    const git = (args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const commit = git(["rev-parse", "--short", "HEAD"]);
    const dirty = git(["status", "--porcelain", "--", "src", "contracts"]);
    return dirty ? `${commit} (with uncommitted changes under src/ or contracts/)` : commit;
  } catch {
    return "unknown";
  }
}

/**
 * The services' settings: `npm start`'s defaults, except the per-client rate limit, which is turned off: every
 * quote of the bench comes from 127.0.0.1, and a 429 measures nothing of the quoting path.
 */
const SERVICE_ENV: Record<string, string> = { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: logLevel, RATE_LIMIT_MAX: "0" };

/** A service with SERVICE_ENV and `env` (its RPC_URL_* and settings). */
async function startService(
  name: string,
  env: Record<string, string>,
  options: { profileDir?: string; gcProbe?: boolean } = {},
): Promise<{ child: Child; url: string }> {
  // One directory per service: the main thread and tsx's loader thread each write a profile.
  const nodeArgs = options.profileDir ? ["--cpu-prof", "--cpu-prof-dir", join(options.profileDir, name)] : [];
  if (options.gcProbe) nodeArgs.push("--expose-gc", "--import", join(BENCH_DIR, "gcProbe.ts"));
  // Up to five start at once, on a machine that may be busy: more time than one alone needs.
  const child = await startNode(name, "src/main.ts", [], { ...SERVICE_ENV, ...env }, /Quoter listening on (http:\/\/\S+?)\/quoter/, {
    nodeArgs,
    timeoutMs: 60_000,
  });
  return { child, url: child.match[1]! };
}

/**
 * bench/passThrough.ts forwarding the mix's searches, in the mix's order, to `rpcUrl` and answering `body`: a
 * quote's round trip through a process of its own, with no quote work.
 */
async function startPassThrough(rpcUrl: string, body: string): Promise<{ child: Child; url: string }> {
  const file = join(LOG_DIR, "pass-through-requests.json");
  const forwarded = MIX.map((entry, index) => {
    const { method, params } = JSON.parse(bareSearchBody(entry, index)) as { method: string; params: unknown[] };
    return { method, params };
  });
  writeFileSync(file, JSON.stringify(forwarded));
  const env = { PASS_THROUGH_RPC_URL: rpcUrl, PASS_THROUGH_REQUESTS: file, PASS_THROUGH_BODY: body };
  const child = await startNode("pass-through", "bench/passThrough.ts", [], env, /listening on (http:\/\/\S+)/, { timeoutMs: 60_000 });
  return { child, url: child.match[1]! };
}

async function main(): Promise<BenchResults> {
  const loadAtStart = os.loadavg();
  log(`${plan.name} run, ${os.availableParallelism()} cores, Node ${process.version}; writing to ${outDir}`);
  const profileDir = options["cpu-prof"] ? join(outDir, "profiles") : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const devchain = await startNode("devchain", "src/devchain/serve.ts", ["--port", "0", "--host", "127.0.0.1"], {}, /listening on (http:\/\/\S+)/);
  const nodeUrl = devchain.match[1]!;
  // Asked before anything else starts: the time from the spawn to the node's first answers.
  const devchainTiming = { listeningMs: devchain.readyMs, ...(await devchainAnswers(nodeUrl, devchain.spawnedAt)) };
  const proxyChild = await forkNode<ProxyReady>("proxy", join(BENCH_DIR, "proxy.ts"), [nodeUrl]);
  const proxy = new ProxyControl(proxyChild, proxyChild.ready.ready);
  log(`devchain ${nodeUrl}, proxy ${proxy.url}`);

  // The timings' /ready set-up: a node that accepts connections and never answers (in this process: it only
  // holds what it receives, so nothing timed waits on this event loop).
  const silentNode = await startRpcProxy(undefined, { reply: () => "hang" });
  const timingEnvs = timingServiceEnvs(proxy.url, silentNode.url);
  // All at once: a start-up mostly waits on the CPU, and on a machine busy with other work several processes
  // get more of it than one; nothing is measured while they start.
  const strategyEnv = (strategy: Strategy) => ({ RPC_URL_31337: proxy.url, SEARCH_STRATEGY: strategy });
  const [sequential, singleCall, deadlineService, queueService, readyService] = await Promise.all([
    ...STRATEGIES.map((strategy) => startService(strategy, strategyEnv(strategy), { profileDir })),
    startService("deadline", timingEnvs.deadline),
    startService("queue", timingEnvs.queue),
    startService("ready", timingEnvs.ready),
  ]);
  const services = new Map<Strategy, { child: Child; url: string }>([
    ["sequential", sequential!],
    ["single-call", singleCall!],
  ]);
  log(`services: ${STRATEGIES.map((s) => `${s} ${services.get(s)!.url}`).join(", ")}`);

  // Every mix entry answers 200, through each strategy, with either search, and costs a known number of RPC
  // requests. "exact" is the mix with search=exact on the single-call service, "taker" with taker; "exact
  // sequential" and "taker sequential" only check them.
  type Check = Target | "exact sequential" | "taker sequential";
  const rpcPerEntry = new Map<Check, number[]>();
  const answers = new Map<Check, string[]>();
  const checks = [
    ["sequential", "sequential", "bisection", undefined],
    ["single-call", "single-call", "bisection", undefined],
    ["taker", "single-call", "bisection", BENCH_TAKER],
    ["taker sequential", "sequential", "bisection", BENCH_TAKER],
    ["exact", "single-call", "exact", undefined],
    ["exact sequential", "sequential", "exact", undefined],
  ] as const;
  for (const [name, strategy, search, taker] of checks) {
    const counts: number[] = [];
    const bodies: string[] = [];
    for (const entry of MIX) {
      // With taker, one wei more of budget: a search of its own, not the answer the check without it kept.
      const path = quotePath(entry, taker === undefined ? 0 : 1, search, taker);
      await proxy.reset();
      const response = await fetch(`${services.get(strategy)!.url}${path}`);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${strategy}: ${path} answered ${response.status} ${text}`);
      counts.push((await proxy.counters()).rpcRequests);
      bodies.push(text);
    }
    rpcPerEntry.set(name, counts);
    answers.set(name, bodies);
  }
  if (answers.get("sequential")!.join("\n") !== answers.get("single-call")!.join("\n")) {
    failures.push("the two strategies answered the mix differently");
  }
  if (answers.get("exact sequential")!.join("\n") !== answers.get("exact")!.join("\n")) {
    failures.push("the two strategies answered the mix with search=exact differently");
  }
  if (answers.get("taker sequential")!.join("\n") !== answers.get("taker")!.join("\n")) {
    failures.push("the two strategies answered the mix with taker differently");
  }
  // Semantics §12: the trade costs one request more than the search, the search one in the single-call strategy.
  const takerRequests = Math.max(...rpcPerEntry.get("taker")!);
  if (takerRequests > 2) failures.push(`single-call with taker: up to ${takerRequests} RPC requests per quote, not at most 2`);
  for (const [index, entry] of MIX.entries()) {
    const response = await fetch(proxy.url, { method: "POST", headers: { "content-type": "application/json" }, body: bareSearchBody(entry, index) });
    // The searcher answers by reverting with its facts (SearchFacts): that, and nothing else, is a bare search.
    const answer = (await response.json()) as { error?: { data?: string | { data?: string } } };
    const data = answer.error?.data;
    const revert = typeof data === "string" ? data : (data?.data ?? "0x");
    try {
      decodeFacts({ success: false, data: revert as Hex });
    } catch {
      throw new Error(`bare eth_call of ${quotePath(entry)} did not answer the searcher's facts: ${JSON.stringify(answer).slice(0, 300)}`);
    }
  }
  log(`mix checked: RPC requests per quote ${checks.map(([name]) => `${name} [${rpcPerEntry.get(name)!.join(",")}]`).join(", ")}`);

  const serviceTimings = await measureServiceTimings(
    proxy,
    { deadline: deadlineService!.url, queue: queueService!.url, ready: readyService!.url },
    plan.timingRounds,
    () => nextExtraWei++,
  );
  await Promise.all([deadlineService!, queueService!, readyService!].map((service) => service.child.stop()));
  await silentNode.close();
  const timings: Timings = { devchain: devchainTiming, ...serviceTimings };
  for (const row of timingRows(timings)) {
    log(`timing, ${row.name}: ${row.measured}${row.note ? ` [${row.note}]` : ""}`);
    if (row.note) warnings.push(`timing, ${row.name}: ${row.note}`);
  }

  const exactQuotes = await exactWorkload(proxy, services.get("single-call")!.url);
  const exactAll = summarizeExact(exactQuotes).at(-1)!;
  log(
    `exact workload: ${exactAll.quotes} quotes, ${exactAll.ok} answered 200, ${exactAll.exactTrue} exact: true; ` +
      `candidates median ${exactAll.candidates.median} max ${exactAll.candidates.max}; ` +
      `single-call RPC requests per quote median ${exactAll.rpcRequests.median} max ${exactAll.rpcRequests.max}`,
  );

  for (const strategy of STRATEGIES) {
    const run = await amountRun(`warm-up ${strategy}`, services.get(strategy)!.url, quoteRequests(), plan.warmupQuotes, 4, 120);
    requireAllOk(run, `warm-up ${strategy}`);
  }
  const warmBare = await amountRun("warm-up bare", proxy.url, bareRequests(), plan.warmupQuotes / 4, 1, 60);
  requireAllOk(warmBare, "warm-up bare eth_call");
  log("warmed up");

  // Latency and RPC cost per quote: concurrency 1, each strategy (and the bare search) at each delay.
  const latency: LatencyCell[] = [];
  const zeroDelayMean = new Map<Target, number>();
  for (const delayMs of plan.delaysMs) {
    await proxy.setDelay(delayMs);
    for (const target of TARGETS) {
      if (target === "exact" && !plan.exactDelaysMs.includes(delayMs)) continue;
      const counts = target === "bare" ? MIX.map(() => 1) : rpcPerEntry.get(target)!;
      const meanRpc = counts.reduce((a, b) => a + b, 0) / counts.length;
      const estimateMs = (zeroDelayMean.get(target) ?? 20) + delayMs * meanRpc * 1.05;
      const amount = Math.min(plan.latencyMaxQuotes, Math.max(plan.latencyMinQuotes, Math.ceil((plan.latencySeconds * 1000) / estimateMs)));
      const title = `latency ${target} @${delayMs}ms`;
      const service = target === "bare" ? undefined : services.get(target === "exact" || target === "taker" ? "single-call" : target)!;
      const asked = () => quoteRequests(target === "exact" ? "exact" : "bisection", target === "taker" ? BENCH_TAKER : undefined);
      const [url, requests] = service ? [service.url, asked()] : [proxy.url, bareRequests()];
      await proxy.reset();
      const run = await amountRun(title, url, requests, amount, 1, Math.max(60, (amount * estimateMs * 4) / 1000), service?.child.pid);
      const counters = await proxy.counters();
      requireAllOk(run, title);
      if (delayMs === 0) zeroDelayMean.set(target, run.latency.mean);
      const rpcPerQuote = counters.rpcRequests / Math.max(1, run.responses);
      latency.push({
        strategy: target,
        delayMs,
        quotes: run.responses,
        latency: run.latency,
        autocannon: { p50: run.result.latency.p50, p97_5: run.result.latency.p97_5, p99: run.result.latency.p99 },
        rpcRequestsPerQuote: rpcPerQuote,
        rpcRequestsPerQuoteRange: [Math.min(...counts), Math.max(...counts)],
        rpcMethods: counters.methods,
        serviceCpuMsPerQuote: run.cpuMsPerResponse,
        non2xx: run.result.non2xx,
        errors: run.result.errors,
      });
      // The exact search's request count is reported beside the bisection's (RESULTS.md), never a failure.
      if (target === "single-call" && rpcPerQuote !== 1) failures.push(`${title}: ${rpcPerQuote} RPC requests per quote, not 1`);
      log(`${title}: ${run.responses} quotes, p50 ${run.latency.p50.toFixed(2)} ms, p99 ${run.latency.p99.toFixed(2)} ms, ${rpcPerQuote.toFixed(2)} RPC/quote`);
    }
  }

  const positions = await positionsWorkload(proxy, { "single-call": services.get("single-call")!.url, sequential: services.get("sequential")!.url }, plan.positionDelayMs, plan.positionRounds, failures);
  log(renderPositionsLines(positions).split("\n").filter((line) => line.startsWith("-")).join("; "));
  const liquidity = await liquidityWorkload(proxy, { "single-call": services.get("single-call")!.url, sequential: services.get("sequential")!.url }, nodeUrl, { delayMs: plan.liquidityDelayMs, rounds: plan.liquidityRounds, strategies: plan.liquidityTimed }, failures);
  log(renderLiquidityLines(liquidity).split("\n").filter((line) => line.startsWith("-")).join("; "));

  // The service's own overhead: the same searches as bare eth_calls through the same proxy, alternating; and, as
  // the floor of any service in a process of its own, the same searches forwarded by a route that does nothing else.
  await proxy.setDelay(plan.overheadDelayMs);
  const passThrough = await startPassThrough(proxy.url, answers.get("single-call")![0]!);
  requireAllOk(await amountRun("warm-up pass-through", passThrough.url, quoteRequests(), plan.warmupQuotes / 4, 1, 60), "pass-through warm-up");
  const serviceSamples: number[] = [];
  const bareSamples: number[] = [];
  const passThroughSamples: number[] = [];
  const serviceCpu: number[] = [];
  const perSide = Math.ceil((plan.overheadSecondsPerSide * 1000) / (plan.overheadDelayMs + 2));
  for (let round = 0; round < plan.overheadRounds; round++) {
    const bare = await amountRun(`bare eth_call @${plan.overheadDelayMs}ms #${round + 1}`, proxy.url, bareRequests(), perSide, 1, 120);
    requireAllOk(bare, `bare eth_call round ${round + 1}`);
    const forwarded = await amountRun(`pass-through @${plan.overheadDelayMs}ms #${round + 1}`, passThrough.url, quoteRequests(), perSide, 1, 120);
    requireAllOk(forwarded, `pass-through round ${round + 1}`);
    const single = services.get("single-call")!;
    const service = await amountRun(`single-call @${plan.overheadDelayMs}ms #${round + 1}`, single.url, quoteRequests(), perSide, 1, 120, single.child.pid);
    requireAllOk(service, `single-call overhead round ${round + 1}`);
    bareSamples.push(...bare.samples);
    passThroughSamples.push(...forwarded.samples);
    serviceSamples.push(...service.samples);
    if (service.cpuMsPerResponse !== undefined) serviceCpu.push(service.cpuMsPerResponse);
  }
  await passThrough.child.stop();
  const overhead = {
    delayMs: plan.overheadDelayMs,
    service: summarize(serviceSamples),
    bare: summarize(bareSamples),
    ratioP50: summarize(serviceSamples).p50 / summarize(bareSamples).p50,
    passThrough: summarize(passThroughSamples),
    passThroughRatioP50: summarize(passThroughSamples).p50 / summarize(bareSamples).p50,
    serviceCpuMsPerQuote: serviceCpu.length ? serviceCpu.reduce((a, b) => a + b, 0) / serviceCpu.length : undefined,
  };
  log(
    `overhead @${plan.overheadDelayMs}ms: single-call p50 ${overhead.service.p50.toFixed(2)} ms, bare eth_call p50 ${overhead.bare.p50.toFixed(2)} ms, ` +
      `ratio ${overhead.ratioP50.toFixed(3)}; pass-through p50 ${overhead.passThrough.p50.toFixed(2)} ms, ratio ${overhead.passThroughRatioP50.toFixed(3)}`,
  );

  // Throughput at 0 ms delay.
  await proxy.setDelay(0);
  const throughput: ThroughputCell[] = [];
  for (const strategy of THROUGHPUT_TARGETS) {
    for (const connections of plan.concurrencies) {
      const service = strategy === "bare" ? undefined : services.get(strategy)!;
      const url = service ? service.url : proxy.url;
      const requests = () => (service ? quoteRequests() : bareRequests());
      const title = `throughput ${strategy} c=${connections}`;
      await cannon(`${title} warm-up`, { url, requests: requests(), connections, duration: plan.throughputWarmupSeconds }, 60);
      await proxy.drain();
      const run = await cannon(title, { url, requests: requests(), connections, duration: plan.throughputSeconds }, plan.throughputSeconds + 60, service?.child.pid);
      await proxy.drain();
      if (run.result.non2xx > 0 || run.result.errors > 0) {
        warnings.push(`${title}: ${run.result.non2xx} non-2xx ${JSON.stringify(run.result.statusCodeStats ?? {})}, ${run.result.errors} errors`);
      }
      throughput.push({
        strategy,
        connections,
        seconds: run.result.duration,
        quotes: run.ok,
        quotesPerSecond: run.ok / run.result.duration,
        latency: run.latency,
        serviceCpuMsPerQuote: run.cpuMsPerResponse,
        non2xx: run.result.non2xx,
        errors: run.result.errors,
      });
      log(`${title}: ${(run.ok / run.result.duration).toFixed(1)} quotes/s, p50 ${run.latency.p50.toFixed(1)} ms`);
    }
  }

  // Memory: a fresh single-call service, its resident set before, after the checkpoint and after all quotes.
  for (const [strategy, service] of services) {
    await service.child.stop();
    services.delete(strategy);
  }
  const memoryService = await startService("memory", strategyEnv("single-call"), { profileDir, gcProbe: true });
  await sleep(1_000);
  const rss = () => residentBytes(memoryService.child.pid) ?? Number.NaN;
  const reading = async (): Promise<MemoryReading> => {
    const rssBytes = rss();
    const collected = await collectMemoryRunGarbage(memoryService.child);
    await sleep(1_000); // V8 hands freed pages back to the system in the background, within half a second here
    return { rssBytes, rssAfterGcBytes: rss(), heapUsedAfterGcBytes: collected?.heapUsed ?? Number.NaN };
  };
  const before = await reading();
  const first = await amountRun("memory first", memoryService.url, quoteRequests(), plan.memoryCheckpoint, plan.memoryConcurrency, 300, memoryService.child.pid);
  requireAllOk(first, "memory: first quotes");
  await sleep(1_000);
  const afterCheckpoint = await reading();
  const rest = await amountRun("memory rest", memoryService.url, quoteRequests(), plan.memoryQuotes - first.responses, plan.memoryConcurrency, 900, memoryService.child.pid);
  requireAllOk(rest, "memory: remaining quotes");
  await sleep(1_000);
  const afterAll = await reading();
  const memory: MemoryResult = {
    strategy: "single-call",
    concurrency: plan.memoryConcurrency,
    checkpointQuotes: first.responses,
    totalQuotes: first.responses + rest.responses,
    before,
    afterCheckpoint,
    afterAll,
    growthRatio: afterAll.rssAfterGcBytes / afterCheckpoint.rssAfterGcBytes,
    seconds: first.result.duration + rest.result.duration,
    serviceCpuMsPerQuote: rest.cpuMsPerResponse,
  };
  const show = (r: MemoryReading) => `${(r.rssBytes / MIB).toFixed(1)} (${(r.rssAfterGcBytes / MIB).toFixed(1)} after GC)`;
  log(`memory, RSS MiB: ${show(before)} before, ${show(afterCheckpoint)} after ${memory.checkpointQuotes}, ${show(afterAll)} after ${memory.totalQuotes}`);

  // Straight to the node: the gas does not depend on the proxy, and its counters are no longer read.
  const gas = { bisection: await measureSearchGas(nodeUrl), exact: await measureExactSearchGas(nodeUrl) };
  log(`gas measured on ${gas.bisection.length} demo markets`);

  const results: BenchResults = {
    mode: plan.name,
    date: new Date().toISOString(),
    machine: {
      cores: os.availableParallelism(),
      cpu: os.cpus()[0]?.model ?? "unknown",
      memoryBytes: os.totalmem(),
      platform: `${os.type()} ${os.release()} ${os.arch()}`,
      node: process.version,
    },
    commit: gitDescription(),
    setup: {
      serviceEnv: SERVICE_ENV,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg(),
      mix: MIX.map((entry) => ({ ...entry, path: quotePath(entry) })),
      exactWorkloadSize: EXACT_WORKLOAD.length,
      latencyConcurrency: 1,
      throughputSeconds: plan.throughputSeconds,
    },
    latency,
    overhead,
    throughput,
    memory,
    exact: { quotes: exactQuotes, summary: summarizeExact(exactQuotes) },
    positions,
    liquidity,
    gas,
    timings,
    targets: [],
    failures,
    warnings,
  };
  results.targets = verdicts(results);
  return results;
}

let exitCode = 0;
try {
  const results = await main();
  const table = renderTable(results);
  const exactTable = renderExactTable(results);
  const timingTable = renderTimingTable(results.timings);
  const takerLines = `${renderTakerLines(results)}\n\n${renderPositionsLines(results.positions)}\n\n${renderLiquidityLines(results.liquidity)}`;
  console.log(`${table}\n\n${takerLines}\n\n${exactTable}\n\n${timingTable}`);
  mkdirSync(outDir, { recursive: true });
  // Gas figures are bigints: written as decimal strings.
  const json = JSON.stringify(results, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value), 2);
  writeFileSync(join(outDir, "results.json"), `${json}\n`);
  const resultsMd = join(outDir, "RESULTS.md");
  const kept = existsSync(resultsMd) ? keptSections(readFileSync(resultsMd, "utf8")) : [];
  writeFileSync(resultsMd, [renderMarkdown(results, table, exactTable, timingTable, takerLines), ...kept].join("\n"));
  log(`wrote ${join(outDir, "results.json")} and ${join(outDir, "RESULTS.md")}`);
  if (failures.length > 0) {
    console.error(`bench: FAILED\n  ${failures.join("\n  ")}`);
    exitCode = 1;
  }
} catch (error) {
  console.error("bench: failed:", error);
  exitCode = 1;
} finally {
  await stopAll();
  clearTimeout(watchdog);
  if (exitCode === 0) removeLogs();
  else console.error(`bench: the children's logs are in ${LOG_DIR}`);
}
process.exit(exitCode);
