// Quotes per CPU-second: how much of a core one quote costs the service when the chain answers instantly, beside
// the same figure for a bare Fastify route in the same run, and for that route forwarding one recorded search per
// answer (bench/passThrough.ts: the floor of any quoter on this stack). The JSON-RPC endpoint replays answers
// recorded from the embedded chain, so that neither the node's time nor its CPU is in the figure, only the service's.
// Prints numbers and never asserts a speed: it fails only when the measurement itself is wrong (a request the
// recording lacks, an answer other than 200, a replayed answer that differs from the recorded one).
//
// Also its own children, by flag: `--replay FILE` serves a recording on 127.0.0.1, `--bare` the bare route.
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import os from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import Fastify from "fastify";
import { LOG_DIR, cpuMillis, forkNode, killAllNow, removeLogs, startNode, stopAll, type Child } from "./processes.ts";
import { MIX, quotePath } from "./workload.ts";

const BENCH_DIR = new URL(".", import.meta.url).pathname;

const { values: options } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    replay: { type: "string" },
    bare: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

/** The measurements before any change, and what is asked of the service. */
const BASELINE_RATIO = [0.021, 0.028] as const;
const GOAL_RATIO = 0.05;

interface Plan {
  readonly name: "full" | "quick";
  /** Seconds of the repeated quotes' run and of the bare route's (the distinct quotes are each asked once). */
  readonly seconds: number;
  readonly connections: number;
  /** Budgets per mix entry of the warm-up quotes: each sent once, its answer checked against the recording. */
  readonly warmupBudgets: number;
  /** Budgets per mix entry of the measured quotes, which the measured runs cycle through. */
  readonly measuredBudgets: number;
  /** One quote in this many budgets is also asked with search=exact. */
  readonly exactEvery: number;
  readonly watchdogSeconds: number;
}

const FULL: Plan = { name: "full", seconds: 10, connections: 32, warmupBudgets: 64, measuredBudgets: 800, exactEvery: 4, watchdogSeconds: 900 };
const QUICK: Plan = { name: "quick", seconds: 3, connections: 32, warmupBudgets: 16, measuredBudgets: 300, exactEvery: 4, watchdogSeconds: 300 };

/** One recorded JSON-RPC answer: its HTTP status and the answer object's members after `id`, as JSON text. */
interface RecordedAnswer {
  readonly status: number;
  /** `"result":…}` or `"error":…}`: what follows `{"jsonrpc":"2.0","id":<id>,` in the answer sent. */
  readonly tail: string;
}

/**
 * method and params, without jsonrpc and id: the same request always has the same key. The block of an eth_call is
 * left out: the chain never moves while the bench records, so `latest` and the head's number (a quote the service
 * pinned to the head it knows) are the same block.
 */
function requestKey(item: unknown): string {
  const { method, params } = (item ?? {}) as { method?: unknown; params?: unknown };
  if (method === "eth_call" && Array.isArray(params)) return JSON.stringify([method, params.slice(0, 1)]);
  return JSON.stringify([method, params ?? null]);
}

function answerTail(item: unknown): string {
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = item as Record<string, unknown>;
  return JSON.stringify(rest).slice(1);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  // Longer than any client's keep-alive, so that the server never closes a connection the client is about to reuse.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * The recording proxy, in the bench's process: forwards each POST to the node and keeps every answer by its
 * request's key. The same key answered two ways (a block mined between two reads, say) is a conflict: a replay of
 * it would not be the chain the service saw.
 */
async function startRecorder(nodeUrl: string) {
  const answers = new Map<string, RecordedAnswer>();
  const conflicts: string[] = [];
  let requests = 0;
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const upstream = await fetch(nodeUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
      const text = await upstream.text();
      const asked: unknown = JSON.parse(body);
      const answered: unknown = JSON.parse(text);
      const askedItems = Array.isArray(asked) ? asked : [asked];
      const answeredItems = Array.isArray(answered) ? answered : [answered];
      const byId = new Map(answeredItems.map((item) => [JSON.stringify((item as { id?: unknown }).id), item]));
      for (const item of askedItems) {
        requests++;
        const key = requestKey(item);
        const answer = byId.get(JSON.stringify((item as { id?: unknown }).id));
        if (answer === undefined) throw new Error(`the node did not answer ${key}`);
        const recorded = { status: upstream.status, tail: answerTail(answer) };
        const before = answers.get(key);
        if (before !== undefined && before.tail !== recorded.tail) conflicts.push(key);
        answers.set(key, recorded);
      }
      send(response, upstream.status, text);
    })().catch((error: unknown) => {
      console.error("cpu: recording proxy:", error);
      send(response, 502, JSON.stringify({ error: String(error) }));
    });
  });
  const url = await listen(server);
  return {
    url,
    answers,
    conflicts,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).finally(() => server.closeAllConnections()),
  };
}

/** What the replay child reports over IPC: requests served since the last reset, and every miss since it started. */
interface ReplayCounters {
  readonly requests: number;
  readonly misses: number;
  /** The first few keys it had no answer for. */
  readonly missed: string[];
}

/**
 * `--replay FILE`: answers each JSON-RPC request from the recording, at once, with the request's own id. A request
 * the recording lacks is answered with a JSON-RPC error and counted, never forwarded.
 */
async function serveReplay(file: string): Promise<void> {
  const answers = new Map(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, RecordedAnswer>));
  let requests = 0;
  let misses = 0;
  const missed: string[] = [];
  const answerOne = (item: unknown): { status: number; text: string } => {
    requests++;
    const id = JSON.stringify((item as { id?: unknown }).id ?? null);
    const key = requestKey(item);
    const answer = answers.get(key);
    if (answer !== undefined) return { status: answer.status, text: `{"jsonrpc":"2.0","id":${id},${answer.tail}` };
    misses++;
    // An eth_call's key holds the searcher's whole code: its start and its end say which request it was.
    if (missed.length < 3) missed.push(key.length > 240 ? `${key.slice(0, 120)}…${key.slice(-120)}` : key);
    return { status: 200, text: `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"not in the recording"}}` };
  };
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const asked: unknown = JSON.parse(body);
      if (!Array.isArray(asked)) {
        const { status, text } = answerOne(asked);
        return send(response, status, text);
      }
      send(response, 200, `[${asked.map((item) => answerOne(item).text).join(",")}]`);
    });
  });
  const url = await listen(server);
  process.on("message", (message: { reset?: boolean }) => {
    process.send!({ requests, misses, missed } satisfies ReplayCounters);
    if (message.reset) requests = 0;
  });
  // The parent going away (even killed) closes the channel: never outlive it.
  process.on("disconnect", () => process.exit(0));
  process.send!({ ready: url });
}

/**
 * `--bare`: Fastify with one GET route on the quote's path answering a fixed quote answer (BARE_BODY), with
 * Fastify's defaults (no logger, no plugin): the least a Node HTTP service can do per request with this framework.
 */
async function serveBare(): Promise<void> {
  const body = JSON.parse(process.env.BARE_BODY ?? "{}") as Record<string, unknown>;
  const app = Fastify();
  app.get("/quoter/:chainId/:marketAddress/:marketId", async () => body);
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  console.log(`bare route listening on ${address}`);
}

/** The quotes of budgets `from` to `from + count - 1` wei above each mix entry's: bisection, and some exact. */
function quotePaths(plan: Plan, from: number, count: number): string[] {
  const paths: string[] = [];
  for (let extraWei = from; extraWei < from + count; extraWei++) {
    for (const entry of MIX) {
      paths.push(quotePath(entry, extraWei));
      if (extraWei % plan.exactEvery === 0) paths.push(quotePath(entry, extraWei, "exact"));
    }
  }
  return paths;
}

/** GETs every path once, a few at a time; the answers in the order of the paths. Any status but 200 throws. */
async function getAll(baseUrl: string, paths: readonly string[], concurrency: number): Promise<string[]> {
  const bodies: string[] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const response = await fetch(`${baseUrl}${paths[index]}`);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${paths[index]} answered ${response.status}: ${text.slice(0, 300)}`);
      bodies[index] = text;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return bodies;
}

interface Measured {
  readonly seconds: number;
  /** Answers of 200 (every answer must be one). */
  readonly quotes: number;
  readonly cpuMs: number;
  readonly quotesPerCpuSecond: number;
  readonly quotesPerSecond: number;
  /** Quotes sent over distinct quotes: above 1, some quotes were asked again (by a later cycle, never in flight). */
  readonly cycles: number;
}

/**
 * Autocannon on `connections`, each request the next path of one cycle shared by all connections (connections
 * starting together on one path would be joined by the service's coalescing), the process's CPU time read before
 * and after. `once`: every path exactly once (distinct quotes, none answered from the cache); else for `seconds`.
 */
function measure(baseUrl: string, paths: readonly string[], pid: number, plan: Plan, once = false, overallRate?: number): Promise<Measured> {
  let next = 0;
  let ok = 0;
  const statuses: number[] = [];
  const cpuBefore = cpuMillis(pid);
  if (cpuBefore === undefined) throw new Error(`cannot read /proc/${pid}/stat`);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: plan.connections,
        ...(once ? { amount: paths.length } : { duration: plan.seconds }),
        timeout: 30,
        ...(overallRate === undefined ? {} : { overallRate: Math.max(1, Math.round(overallRate)) }),
        requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
      },
      (error, result) => {
        const cpuMs = cpuMillis(pid)! - cpuBefore;
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        if (statuses.length > 0 || result.errors > 0 || result.timeouts > 0) {
          const counts = new Map<number, number>();
          for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
          const listed = [...counts].map(([status, count]) => `${count} × ${status}`).join(", ") || "none other";
          return reject(new Error(`not every answer was 200: ${listed}; ${result.errors} errors, ${result.timeouts} timeouts`));
        }
        const seconds = result.duration;
        resolve({ seconds, quotes: ok, cpuMs, quotesPerCpuSecond: ok / (cpuMs / 1000), quotesPerSecond: ok / seconds, cycles: next / paths.length });
      },
    );
    instance.on("response", (_client, statusCode) => {
      if (statusCode === 200) ok++;
      else statuses.push(statusCode);
    });
  });
}

/** The replay child, driven over IPC: one question at a time. */
function replayCounters(child: Child, reset = false): Promise<ReplayCounters> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the replay server did not answer over IPC within 5 s")), 5_000);
    child.process.once("message", (message: ReplayCounters) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.process.send({ reset });
  });
}

/**
 * Runs `work` on the replayed service and then requires that every JSON-RPC request it made was in the recording;
 * when `work` fails (a miss makes the service answer 503), the misses are the first thing its error says.
 */
async function failingOnMisses<T>(replay: Child, work: () => Promise<T>): Promise<T> {
  let failure: unknown;
  let result: T | undefined;
  try {
    result = await work();
  } catch (error) {
    failure = error;
  }
  const { misses, missed } = await replayCounters(replay);
  if (misses > 0) {
    const then = failure === undefined ? "" : `; then: ${failure instanceof Error ? failure.message : String(failure)}`;
    throw new Error(`JSON-RPC requests of the service not in the recording: ${misses}, e.g. ${missed.join(" ")}${then}`);
  }
  if (failure !== undefined) throw failure;
  return result!;
}

function gitCommit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: join(BENCH_DIR, ".."), encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** The searches of the recording (its eth_calls), as the pass-through forwards them: each at the latest block. */
function recordedSearches(answers: ReadonlyMap<string, RecordedAnswer>): { method: string; params: unknown[] }[] {
  const searches: { method: string; params: unknown[] }[] = [];
  for (const key of answers.keys()) {
    const [method, params] = JSON.parse(key) as [string, unknown[]];
    if (method === "eth_call") searches.push({ method, params: [params[0], "latest"] });
  }
  return searches;
}

/** CPU per quote of the service above the pass-through's per answer, in µs: the quote's own work. */
const ownWorkMicros = (service: Measured, passThrough: Measured) => 1e6 / service.quotesPerCpuSecond - 1e6 / passThrough.quotesPerCpuSecond;

/** Distinct quotes of the repeated-request run: each is asked again and again while the head stays. */
const REPEATED_QUOTES = 8;

type CacheCounts = { hit: number; miss: number };

/** The service's answer cache counters, from its /metrics. */
async function cacheCounts(baseUrl: string): Promise<CacheCounts> {
  const text = await (await fetch(`${new URL(baseUrl).origin}/metrics`)).text();
  const count = (result: string) => Number(new RegExp(`quoter_answer_cache_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { hit: count("hit"), miss: count("miss") };
}

/** Hits over lookups between two readings of the counters. */
function cacheRate(before: CacheCounts, after: CacheCounts): { hits: number; misses: number; rate: number } {
  const hits = after.hit - before.hit;
  const misses = after.miss - before.miss;
  return { hits, misses, rate: hits + misses === 0 ? 0 : hits / (hits + misses) };
}

const percent = (rate: number) => `${(100 * rate).toFixed(1)}%`;

/** npm start's defaults, but on 127.0.0.1, any port, and no rate limit (every quote comes from one address). */
const SERVICE_ENV = { PORT: "0", HOST: "127.0.0.1", RATE_LIMIT_MAX: "0", ...JSON.parse(process.env.CPU_EXTRA_ENV ?? "{}") };
const SERVICE_READY = /Quoter listening on (http:\/\/\S+?)\/quoter/;

async function bench(plan: Plan, out: string): Promise<void> {
  const started = performance.now();
  const log = (message: string) => console.error(`[cpu ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
  const loadAtStart = os.loadavg();
  log(`${plan.name} run, ${os.availableParallelism()} cores, Node ${process.version}, commit ${gitCommit()}`);
  const warmup = quotePaths(plan, 0, plan.warmupBudgets);
  const measured = quotePaths(plan, plan.warmupBudgets, plan.measuredBudgets);

  // 1. Record every JSON-RPC request a service makes for these quotes (and at its start), on the embedded chain.
  const devchain = await startNode("devchain", "src/devchain/serve.ts", ["--port", "0", "--host", "127.0.0.1"], {}, /listening on (http:\/\/\S+)/);
  const recorder = await startRecorder(devchain.match[1]!);
  const recording = await startNode("recording service", "src/main.ts", [], { ...SERVICE_ENV, RPC_URL_31337: recorder.url }, SERVICE_READY);
  const recordingStarted = performance.now();
  const recordedWarmup = await getAll(recording.match[1]!, warmup, 4);
  await getAll(recording.match[1]!, measured, 4);
  const recordingSeconds = (performance.now() - recordingStarted) / 1000;
  await recording.stop();
  await devchain.stop();
  await recorder.close();
  if (recorder.conflicts.length > 0) throw new Error(`${recorder.conflicts.length} requests were answered two ways, e.g. ${recorder.conflicts[0]}`);
  const recordingFile = join(LOG_DIR, "recording.json");
  writeFileSync(recordingFile, JSON.stringify(Object.fromEntries(recorder.answers)));
  log(
    `recorded ${warmup.length + measured.length} quotes in ${recordingSeconds.toFixed(1)} s: ` +
      `${recorder.requests()} JSON-RPC requests, ${recorder.answers.size} distinct`,
  );

  // 2. The service on the replay: the warm-up quotes once each, answered exactly as on the chain, then the run.
  const replay = await forkNode<{ ready: string }>("replay", join(BENCH_DIR, "cpu.ts"), ["--replay", recordingFile]);
  const service = await startNode("service", "src/main.ts", [], { ...SERVICE_ENV, RPC_URL_31337: replay.ready.ready }, SERVICE_READY, process.env.CPU_PROF_DIR ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`] } : {});
  const { serviceRun, served, distinctCache, repeatedRun, repeatedCache } = await failingOnMisses(replay, async () => {
    const replayed = await getAll(service.match[1]!, warmup, plan.connections);
    const differing = replayed.filter((body, index) => body !== recordedWarmup[index]).length;
    if (differing > 0) throw new Error(`${differing} of ${warmup.length} replayed answers differ from the chain's`);
    await replayCounters(replay, true);
    const before = await cacheCounts(service.match[1]!);
    const serviceRun = await measure(service.match[1]!, measured, service.pid, plan, true);
    const served = await replayCounters(replay);
    const afterDistinct = await cacheCounts(service.match[1]!);
    // The same quotes asked again and again while the head stays (a frontend polling a market): from the cache.
    const repeatedRun = await measure(service.match[1]!, measured.slice(0, REPEATED_QUOTES), service.pid, plan);
    const repeatedCache = cacheRate(afterDistinct, await cacheCounts(service.match[1]!));
    return { serviceRun, served, distinctCache: cacheRate(before, afterDistinct), repeatedRun, repeatedCache };
  });
  await service.stop();
  log(`service: ${serviceRun.quotes} quotes in ${serviceRun.seconds} s, ${serviceRun.cpuMs} ms of CPU: ${serviceRun.quotesPerCpuSecond.toFixed(0)} quotes per CPU-second`);
  log(`service, ${REPEATED_QUOTES} quotes repeated: ${repeatedRun.quotes} quotes, ${repeatedRun.quotesPerCpuSecond.toFixed(0)} quotes per CPU-second, cache hit rate ${percent(repeatedCache.rate)}`);

  // 3. The bare route, driven the same way, answering a recorded quote's answer.
  const bare = await startNode("bare", "bench/cpu.ts", ["--bare"], { BARE_BODY: recordedWarmup[0]! }, /listening on (http:\/\/\S+)/);
  const bareAnswers = await getAll(bare.match[1]!, warmup, plan.connections);
  if (bareAnswers.some((body) => body !== recordedWarmup[0])) throw new Error("the bare route answered another body");
  const bareRun = await measure(bare.match[1]!, measured, bare.pid, plan);
  await bare.stop();
  log(`bare route: ${bareRun.quotes} answers in ${bareRun.seconds} s, ${bareRun.cpuMs} ms of CPU: ${bareRun.quotesPerCpuSecond.toFixed(0)} per CPU-second`);

  // 4. The floor: the bare route forwarding each of the recorded searches to the replay in turn, through the
  // service's transport (bench/passThrough.ts). What one JSON-RPC round trip per quote costs, with no quote work.
  const forwardedFile = join(LOG_DIR, "forwarded.json");
  const searches = recordedSearches(recorder.answers);
  writeFileSync(forwardedFile, JSON.stringify(searches));
  const passThrough = await startNode(
    "pass-through",
    "bench/passThrough.ts",
    [],
    { PASS_THROUGH_RPC_URL: replay.ready.ready, PASS_THROUGH_REQUESTS: forwardedFile, PASS_THROUGH_BODY: recordedWarmup[0]! },
    /listening on (http:\/\/\S+)/,
  );
  const { flat: passThroughRun, paced: pacedRun } = await failingOnMisses(replay, async () => {
    await getAll(passThrough.match[1]!, warmup, plan.connections);
    const flat = await measure(passThrough.match[1]!, measured, passThrough.pid, plan);
    // Again at the service's own pace: a server's CPU per request falls as its rate rises (more requests per
    // wake-up and per socket read), so the floor is also read at the rate the service itself reached.
    const paced = await measure(passThrough.match[1]!, measured, passThrough.pid, plan, false, serviceRun.quotesPerSecond);
    return { flat, paced };
  });
  await passThrough.stop();
  await replay.stop();
  log(`pass-through: ${passThroughRun.quotes} answers in ${passThroughRun.seconds} s, ${passThroughRun.cpuMs} ms of CPU: ${passThroughRun.quotesPerCpuSecond.toFixed(0)} per CPU-second`);
  log(`pass-through at the service's pace (${serviceRun.quotesPerSecond.toFixed(0)}/s): ${pacedRun.quotes} answers, ${pacedRun.cpuMs} ms of CPU: ${pacedRun.quotesPerCpuSecond.toFixed(0)} per CPU-second`);

  const ratio = serviceRun.quotesPerCpuSecond / bareRun.quotesPerCpuSecond;
  const passThroughRatio = passThroughRun.quotesPerCpuSecond / bareRun.quotesPerCpuSecond;
  const results = {
    mode: plan.name,
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? "unknown", node: process.version },
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    setup: {
      seconds: plan.seconds,
      connections: plan.connections,
      serviceEnv: SERVICE_ENV,
      warmupQuotes: warmup.length,
      measuredQuotes: measured.length,
      exactQuotes: measured.filter((path) => path.includes("search=exact")).length,
      bareBodyBytes: Buffer.byteLength(recordedWarmup[0]!),
    },
    recording: { seconds: recordingSeconds, rpcRequests: recorder.requests(), distinctRequests: recorder.answers.size },
    service: { ...serviceRun, rpcRequestsPerQuote: served.requests / serviceRun.quotes, rpcMisses: served.misses, cache: distinctCache },
    repeated: { distinctQuotes: REPEATED_QUOTES, ...repeatedRun, cache: repeatedCache },
    bare: bareRun,
    passThrough: { ...passThroughRun, forwardedRequests: searches.length },
    passThroughAtServicePace: pacedRun,
    serviceOwnWorkMicrosPerQuoteAtPace: ownWorkMicros(serviceRun, pacedRun),
    ratio,
    passThroughRatio,
    serviceOwnWorkMicrosPerQuote: ownWorkMicros(serviceRun, passThroughRun),
    baselineRatio: BASELINE_RATIO,
    goalRatio: GOAL_RATIO,
    goalMet: ratio >= GOAL_RATIO,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    [
      `quotes per CPU-second, ${plan.connections} connections: ${measured.length} distinct quotes each asked once (${results.setup.exactQuotes} with search=exact); the repeated quotes and the bare route ${plan.seconds} s each`,
      `  service:    ${serviceRun.quotesPerCpuSecond.toFixed(0).padStart(6)}  (${serviceRun.quotes} quotes, ${(serviceRun.cpuMs / 1000).toFixed(2)} CPU-s, ${serviceRun.quotesPerSecond.toFixed(0)}/s, ${results.service.rpcRequestsPerQuote.toFixed(2)} JSON-RPC requests per quote, ${served.misses} not in the recording)`,
      `  answer cache hit rate: ${percent(distinctCache.rate)} over the distinct quotes; ${percent(repeatedCache.rate)} when ${REPEATED_QUOTES} quotes are asked again and again (${repeatedRun.quotesPerCpuSecond.toFixed(0)} quotes per CPU-second)`,
      `  bare route: ${bareRun.quotesPerCpuSecond.toFixed(0).padStart(6)}  (${bareRun.quotes} answers, ${(bareRun.cpuMs / 1000).toFixed(2)} CPU-s, ${bareRun.quotesPerSecond.toFixed(0)}/s)`,
      `  ratio:      ${ratio.toFixed(4)}  (baseline ${BASELINE_RATIO.join("-")}; goal >= ${GOAL_RATIO}: ${results.goalMet ? "met" : "missed"})`,
      `  floor: a pass-through route, one JSON-RPC round trip per answer and no quote work: ${passThroughRun.quotesPerCpuSecond.toFixed(0)} per CPU-second, ratio ${passThroughRatio.toFixed(4)}; the service's own work per quote: ${ownWorkMicros(serviceRun, passThroughRun).toFixed(0)} µs of CPU`,
      `  the floor at the service's pace (${serviceRun.quotesPerSecond.toFixed(0)}/s): ${pacedRun.quotesPerCpuSecond.toFixed(0)} per CPU-second; service over it: ${(serviceRun.quotesPerCpuSecond / pacedRun.quotesPerCpuSecond).toFixed(2)} (goal >= 0.5), own work ${ownWorkMicros(serviceRun, pacedRun).toFixed(0)} µs per quote`,
      `  load average ${loadAtStart.map((l) => l.toFixed(1)).join(" ")} at the start, ${results.loadAverage.atEnd.map((l) => l.toFixed(1)).join(" ")} at the end`,
      `wrote ${out}`,
    ].join("\n"),
  );
}

if (options.replay !== undefined || options.bare) {
  // Importing processes.ts made this child a log directory of its own, which only the bench's process uses.
  removeLogs();
}
if (options.replay !== undefined) {
  await serveReplay(options.replay);
} else if (options.bare) {
  await serveBare();
} else if (options.help) {
  console.log(`Usage: npm run cpu [-- --quick] [-- --out FILE]

Quotes per CPU-second of the service on a JSON-RPC endpoint that replays answers recorded from the embedded chain,
and the same figure for a bare Fastify route, in one run; their ratio against the goal. Writes FILE (default
bench/cpu.json; bench/quick/cpu.json with --quick).`);
} else {
  const plan = options.quick ? QUICK : FULL;
  const out = options.out ?? (options.quick ? join(BENCH_DIR, "quick", "cpu.json") : join(BENCH_DIR, "cpu.json"));
  process.on("exit", killAllNow);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  const watchdog = setTimeout(() => {
    console.error(`cpu: not done within ${plan.watchdogSeconds} s, giving up`);
    void stopAll().finally(() => process.exit(1));
  }, plan.watchdogSeconds * 1000);
  watchdog.unref();
  let exitCode = 0;
  try {
    await bench(plan, out);
  } catch (error) {
    console.error("cpu: failed:", error);
    exitCode = 1;
  } finally {
    await stopAll();
  }
  if (exitCode === 0) removeLogs();
  else console.error(`cpu: the children's logs are in ${LOG_DIR}`);
  process.exit(exitCode);
}
