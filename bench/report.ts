// The bench's results: their shape (results.json), the speed targets, the tables, and RESULTS.md.
import { searcherQuoted, type ExactSearchGas, type SearchGas } from "../scripts/measure-gas.ts";
import { MIB, fmt, percentile, type LatencySummary } from "./stats.ts";
import type { MixEntry } from "./workload.ts";
import type { PositionsResult } from "./positions.ts";
import type { LiquidityResult } from "./liquidity.ts";

export interface LatencyCell {
  /**
   * "exact": the mix with search=exact on the single-call service; "taker": the mix with taker (its trade, semantics
   * §12) on it; "bare": the single-call search POSTed as a bare eth_call to the proxy, no service.
   */
  strategy: "sequential" | "single-call" | "taker" | "exact" | "bare";
  delayMs: number;
  quotes: number;
  /** From autocannon's per-response times (ms, full resolution). */
  latency: LatencySummary;
  /** autocannon's own histogram (whole ms), for reference. */
  autocannon: { p50: number; p97_5: number; p99: number };
  /** JSON-RPC requests the proxy received during the run, per quote answered. */
  rpcRequestsPerQuote: number;
  /** Fewest and most JSON-RPC requests of one quote over the mix (counted one quote at a time). */
  rpcRequestsPerQuoteRange: [number, number];
  rpcMethods: Record<string, number>;
  /** CPU time of the service process per quote, ms; none for "bare". */
  serviceCpuMsPerQuote?: number;
  non2xx: number;
  errors: number;
}

export interface ThroughputCell {
  /** "bare": the node's own rate for the same searches, POSTed to the proxy. */
  strategy: "sequential" | "single-call" | "bare";
  connections: number;
  seconds: number;
  quotes: number;
  quotesPerSecond: number;
  latency: LatencySummary;
  serviceCpuMsPerQuote?: number;
  non2xx: number;
  errors: number;
}

/** The service's memory at one point, bytes. */
export interface MemoryReading {
  /** VmRSS as it is, wherever V8's garbage collector happens to be. */
  rssBytes: number;
  /** VmRSS right after a full garbage collection (bench/gcProbe.ts). */
  rssAfterGcBytes: number;
  heapUsedAfterGcBytes: number;
}

export interface MemoryResult {
  strategy: "single-call";
  concurrency: number;
  checkpointQuotes: number;
  totalQuotes: number;
  before: MemoryReading;
  afterCheckpoint: MemoryReading;
  afterAll: MemoryReading;
  /** RSS after GC, after all quotes over after the checkpoint. */
  growthRatio: number;
  seconds: number;
  /** Over the quotes after the checkpoint. */
  serviceCpuMsPerQuote?: number;
}

export interface Target {
  name: string;
  measured: string;
  met: boolean;
}

/** One quote of the exact workload: its answer on the single-call service, quoted alone at 0 ms. */
export interface ExactQuote extends MixEntry {
  status: number;
  /** The answer's `iterations` (candidates quoted); 200s only. */
  iterations?: number;
  exact?: boolean;
  /** JSON-RPC requests the proxy received for this quote. */
  rpcRequests: number;
}

/** Median (nearest rank, the lower middle of an even count) and most. */
export interface MedianMax {
  median: number;
  max: number;
}

/** The exact workload on one market (or all), candidates and requests over the 200 answers only. */
export interface ExactSummary {
  label: string;
  quotes: number;
  /** Answered 200. */
  ok: number;
  /** Answered 200 with `exact: true`. */
  exactTrue: number;
  /** How many answered each other status. */
  otherStatuses: Record<string, number>;
  candidates: MedianMax;
  rpcRequests: MedianMax;
}

/** One timed request: its status, and ms from sending it to the end of its answer. */
export interface Timed {
  status: number;
  ms: number;
}

/** The four timings that tests no longer bound (bench/timings.ts): measured and reported, never a failure. */
export interface Timings {
  /** ms from the spawn of the devchain (`src/devchain/serve.ts --port 0`): its listening line, its first answers. */
  devchain: { listeningMs: number; chainIdMs: number; getMarketMs: number };
  /** A sequential quote against an endpoint that holds each request `delayMs`: a 503 at QUOTE_DEADLINE_MS. */
  deadline: { deadlineMs: number; delayMs: number; samples: Timed[] };
  /** `quotesAtOnce` quotes at once with RPC_MAX_IN_FLIGHT and RPC_MAX_QUEUED: the rest refused with 503. */
  queue: { maxInFlight: number; maxQueued: number; delayMs: number; quotesAtOnce: number; samples: Timed[] };
  /** GET /ready with READY_TIMEOUT_MS and a node that accepts connections and never answers: a 503. */
  ready: { readyTimeoutMs: number; samples: Timed[] };
}

export interface BenchResults {
  mode: "quick" | "full";
  date: string;
  machine: { cores: number; cpu: string; memoryBytes: number; platform: string; node: string };
  commit: string;
  setup: Record<string, unknown>;
  latency: LatencyCell[];
  overhead: {
    delayMs: number;
    service: LatencySummary;
    bare: LatencySummary;
    ratioP50: number;
    /** The same searches forwarded by bench/passThrough.ts: the floor of a service in a process of its own. */
    passThrough?: LatencySummary;
    passThroughRatioP50?: number;
    serviceCpuMsPerQuote?: number;
  };
  throughput: ThroughputCell[];
  memory: MemoryResult;
  exact: { quotes: ExactQuote[]; summary: ExactSummary[] };
  /** The held positions' workload (bench/positions.ts); absent in results written before it. */
  positions?: PositionsResult;
  /** The liquidity workload (bench/liquidity.ts); absent in results written before it. */
  liquidity?: LiquidityResult;
  /** `npm run gas`'s measurements on the bench's node (bigints, written as strings). */
  gas: { bisection: SearchGas[]; exact: ExactSearchGas[] };
  timings: Timings;
  targets: Target[];
  failures: string[];
  warnings: string[];
}

const cell = (results: BenchResults, strategy: LatencyCell["strategy"], delayMs: number) =>
  results.latency.find((c) => c.strategy === strategy && c.delayMs === delayMs);

/** The three speed targets, against what was measured. */
export function verdicts(results: BenchResults): Target[] {
  const targets: Target[] = [];
  const slowDelay = Math.max(...results.latency.map((c) => c.delayMs));
  const sequential = cell(results, "sequential", slowDelay);
  const single = cell(results, "single-call", slowDelay);
  if (sequential && single) {
    const ratio = single.latency.p50 / sequential.latency.p50;
    targets.push({
      name: `at ${slowDelay} ms delay, single-call p50 ≤ 1/6 of sequential p50, with 1 RPC request per quote`,
      measured:
        `${fmt(single.latency.p50)} ms vs ${fmt(sequential.latency.p50)} ms = 1/${fmt(1 / ratio)}; ` +
        `RPC requests per quote ${fmt(single.rpcRequestsPerQuote, 2)} vs ${fmt(sequential.rpcRequestsPerQuote, 2)} ` +
        `(${sequential.rpcRequestsPerQuoteRange[0]}–${sequential.rpcRequestsPerQuoteRange[1]})`,
      met: ratio <= 1 / 6 && single.rpcRequestsPerQuote === 1,
    });
  }
  const { overhead } = results;
  targets.push({
    name: `single-call p50 ≤ 1.25 × bare eth_call p50 at ${overhead.delayMs} ms delay`,
    measured: `${fmt(overhead.service.p50, 2)} ms vs ${fmt(overhead.bare.p50, 2)} ms = ${fmt(overhead.ratioP50, 3)}×`,
    met: overhead.ratioP50 <= 1.25,
  });
  const { memory } = results;
  targets.push({
    name: `resident memory after ${memory.totalQuotes.toLocaleString("en")} quotes at most 20% above after ${memory.checkpointQuotes.toLocaleString("en")}`,
    measured:
      `RSS after a full GC ${fmt(memory.afterAll.rssAfterGcBytes / MIB)} MiB vs ${fmt(memory.afterCheckpoint.rssAfterGcBytes / MIB)} MiB ` +
      `(${memory.growthRatio >= 1 ? "+" : ""}${fmt((memory.growthRatio - 1) * 100)}%); as is, without the GC: ` +
      `${fmt(memory.afterAll.rssBytes / MIB)} vs ${fmt(memory.afterCheckpoint.rssBytes / MIB)} MiB; heap used after GC ` +
      `${fmt(memory.afterAll.heapUsedAfterGcBytes / MIB)} vs ${fmt(memory.afterCheckpoint.heapUsedAfterGcBytes / MIB)} MiB`,
    // Read as "grows by no more than 20%": the target is about what the service keeps, and less is within it.
    met: memory.growthRatio <= 1.2,
  });
  return targets;
}

const percentiles = (l: LatencySummary) => `${fmt(l.p50)} / ${fmt(l.p95)} / ${fmt(l.p99)}`;

function medianMax(values: readonly number[]): MedianMax {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN };
}

/** The exact workload per market, then over all of it (the last entry). */
export function summarizeExact(quotes: readonly ExactQuote[]): ExactSummary[] {
  const summary = (label: string, some: readonly ExactQuote[]): ExactSummary => {
    const ok = some.filter((quote) => quote.status === 200);
    const otherStatuses: Record<string, number> = {};
    for (const quote of some) if (quote.status !== 200) otherStatuses[quote.status] = (otherStatuses[quote.status] ?? 0) + 1;
    return {
      label,
      quotes: some.length,
      ok: ok.length,
      exactTrue: ok.filter((quote) => quote.exact === true).length,
      otherStatuses,
      candidates: medianMax(ok.map((quote) => quote.iterations!)),
      rpcRequests: medianMax(ok.map((quote) => quote.rpcRequests)),
    };
  };
  const markets = [...new Set(quotes.map((quote) => quote.marketId))];
  return [
    ...markets.map((id) => {
      const some = quotes.filter((quote) => quote.marketId === id);
      return summary(`market ${id} (${some[0]!.note.split(",")[0]})`, some);
    }),
    summary("all", quotes),
  ];
}

/**
 * The goal of semantics §4b for the single-call strategy, one JSON-RPC request per exact quote, against what
 * was measured: reported, never a failure.
 */
export function exactRequestGoal(results: BenchResults): Target {
  const all = results.exact.summary.at(-1)!;
  const slowDelay = Math.max(...results.latency.map((c) => c.delayMs));
  const slow = cell(results, "exact", slowDelay);
  return {
    name: "one JSON-RPC request per search=exact quote on the single-call strategy (semantics §4b)",
    measured:
      `median ${all.rpcRequests.median}, max ${all.rpcRequests.max} over the exact workload's ${all.ok} answers of 200` +
      (slow ? `; mean ${fmt(slow.rpcRequestsPerQuote, 2)} over the mix at ${slowDelay} ms` : ""),
    met: all.rpcRequests.max === 1 && (slow === undefined || slow.rpcRequestsPerQuote === 1),
  };
}

/** The one table: a Markdown table, readable as printed. */
export function renderTable(results: BenchResults): string {
  const rows: string[][] = [["measurement", "sequential", "single-call", "single-call, with taker", "single-call, search=exact", "bare eth_call"]];
  const delays = [...new Set(results.latency.map((c) => c.delayMs))];
  for (const delayMs of delays) {
    const cells = (["sequential", "single-call", "taker", "exact", "bare"] as const).map((strategy) => cell(results, strategy, delayMs));
    rows.push([`latency p50 / p95 / p99, ms (${delayMs} ms RPC delay, c=1)`, ...cells.map((c) => (c ? percentiles(c.latency) : ""))]);
    const rpc = (c?: LatencyCell) =>
      c ? `${fmt(c.rpcRequestsPerQuote, 2)} (${c.rpcRequestsPerQuoteRange[0]}–${c.rpcRequestsPerQuoteRange[1]})` : "";
    rows.push([`RPC requests per quote (${delayMs} ms), mean (range)`, ...cells.map(rpc)]);
  }
  const cpu = (c?: { serviceCpuMsPerQuote?: number }) => (c?.serviceCpuMsPerQuote === undefined ? "" : fmt(c.serviceCpuMsPerQuote, 2));
  const zero = Math.min(...delays);
  rows.push([
    `service CPU per quote, ms (${zero} ms, c=1)`,
    cpu(cell(results, "sequential", zero)),
    cpu(cell(results, "single-call", zero)),
    cpu(cell(results, "taker", zero)),
    cpu(cell(results, "exact", zero)),
    "",
  ]);
  const connections = [...new Set(results.throughput.map((c) => c.connections))];
  for (const c of connections) {
    const at = (strategy: ThroughputCell["strategy"]) => {
      const found = results.throughput.find((t) => t.strategy === strategy && t.connections === c);
      if (!found) return "";
      const failed = found.non2xx + found.errors;
      return `${fmt(found.quotesPerSecond)} (p50 ${fmt(found.latency.p50)} ms)${failed ? ` [${failed} failed]` : ""}`;
    };
    rows.push([`throughput, quotes/s (0 ms, ${c} connections)`, at("sequential"), at("single-call"), "", "", at("bare")]);
  }
  const { overhead, memory } = results;
  rows.push([
    `overhead: p50 at ${overhead.delayMs} ms, ms (alternating runs)`,
    "",
    `${fmt(overhead.service.p50, 2)} (${fmt(overhead.ratioP50, 3)}× bare)`,
    "",
    "",
    fmt(overhead.bare.p50, 2),
  ]);
  if (overhead.passThrough !== undefined && overhead.passThroughRatioP50 !== undefined) {
    rows.push([
      `overhead floor: a pass-through route, p50 at ${overhead.delayMs} ms, ms (same runs)`,
      "",
      `${fmt(overhead.passThrough.p50, 2)} (${fmt(overhead.passThroughRatioP50, 3)}× bare)`,
      "",
      "",
      "",
    ]);
  }
  const points = `before / after ${memory.checkpointQuotes.toLocaleString("en")} / after ${memory.totalQuotes.toLocaleString("en")} quotes`;
  const series = (value: (reading: MemoryReading) => number) =>
    [memory.before, memory.afterCheckpoint, memory.afterAll].map((reading) => fmt(value(reading) / MIB)).join(" / ");
  rows.push([`service RSS as is, MiB: ${points}`, "", series((r) => r.rssBytes), "", "", ""]);
  rows.push([`service RSS after a full GC, MiB (heap used)`, "", `${series((r) => r.rssAfterGcBytes)} (${series((r) => r.heapUsedAfterGcBytes)})`, "", "", ""]);
  return markdownTable(rows);
}

/**
 * What `taker` adds to a quote (semantics §12: its trade, one eth_simulateV1 after the search), at each delay, in the
 * same run: the p50 with and without it, and the goal (reported, never a failure): under one round trip more, a
 * round trip being the bare eth_call of the same searches at that delay.
 */
export function renderTakerLines(results: BenchResults): string {
  const lines: string[] = [];
  for (const delayMs of [...new Set(results.latency.map((c) => c.delayMs))]) {
    const [plain, taker, bare] = (["single-call", "taker", "bare"] as const).map((strategy) => cell(results, strategy, delayMs));
    if (!plain || !taker || !bare) continue;
    const added = taker.latency.p50 - plain.latency.p50;
    const met = added < bare.latency.p50;
    lines.push(
      `- at ${delayMs} ms per request: taker adds ${fmt(added, 2)} ms to the p50 (${fmt(plain.latency.p50, 2)} → ${fmt(taker.latency.p50, 2)} ms; ` +
        `RPC requests per quote ${fmt(plain.rpcRequestsPerQuote, 2)} → ${fmt(taker.rpcRequestsPerQuote, 2)}); goal, under one round trip more ` +
        `(a bare eth_call's p50 there, ${fmt(bare.latency.p50, 2)} ms): ${met ? "met" : "**missed**"}`,
    );
  }
  return lines.join("\n");
}

/** Rows as a Markdown table, columns padded so that it reads as printed; the first row is the header. */
function markdownTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((text, column) => text.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(rows[0]!), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}

/**
 * search=exact: the workload's candidates and requests per quote, the latency against the bisection's on the
 * same mix at the slowest delay, the goal of one request per quote, and the gas beside the bisection's.
 */
export function renderExactTable(results: BenchResults): string {
  const rows = [["search=exact workload (single-call, 0 ms, one quote at a time)", "quotes", "answered 200", "exact: true", "other answers", "candidates median / max", "RPC requests per quote median / max"]];
  for (const s of results.exact.summary) {
    const pair = (m: MedianMax) => `${fmt(m.median, 0)} / ${fmt(m.max, 0)}`;
    const others = Object.entries(s.otherStatuses).map(([status, count]) => `${count} × ${status}`).join(", ") || "none";
    rows.push([s.label, String(s.quotes), String(s.ok), String(s.exactTrue), others, pair(s.candidates), pair(s.rpcRequests)]);
  }
  const lines = [markdownTable(rows), ""];
  const slowDelay = Math.max(...results.latency.map((c) => c.delayMs));
  const exact = cell(results, "exact", slowDelay);
  const bisection = cell(results, "single-call", slowDelay);
  if (exact && bisection) {
    const requests = (c: LatencyCell) => `${fmt(c.rpcRequestsPerQuote, 2)} (${c.rpcRequestsPerQuoteRange[0]}–${c.rpcRequestsPerQuoteRange[1]})`;
    lines.push(
      `At ${slowDelay} ms per JSON-RPC request (single-call, c=1, the mix): search=exact p50 ${fmt(exact.latency.p50)} ms against the ` +
        `bisection's ${fmt(bisection.latency.p50)} ms (${fmt(exact.latency.p50 / bisection.latency.p50, 2)}×); RPC requests per quote, mean ` +
        `(range over the mix): exact ${requests(exact)}, bisection ${requests(bisection)}.`,
      "",
    );
  }
  const goal = exactRequestGoal(results);
  lines.push(`Goal (reported, never a failure): ${goal.met ? "met" : "**missed**"}: ${goal.name}: ${goal.measured}.`, "");
  const gasRows = [["group, market", "request", "bisection: gas (candidates)", "search=exact call data: gas (candidates)", "the service's exact search", "the searcher quoted"]];
  for (const exactGas of results.gas.exact) {
    const same = results.gas.bisection.find((row) => row.group === exactGas.group && row.marketId === exactGas.marketId);
    const gas = (row?: SearchGas) => (row ? `${row.gas.toLocaleString("en")} (${row.candidates})` : "");
    gasRows.push([`${exactGas.group.slice(0, 6)}…, ${exactGas.marketId}`, exactGas.request, gas(same), gas(exactGas), exactGas.course, searcherQuoted(exactGas)]);
  }
  lines.push(markdownTable(gasRows));
  return lines.join("\n");
}

/** Median (nearest rank), least and most of some times, as text. */
function spread(values: readonly number[], of: string): string {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return `no ${of}`;
  return `${fmt(percentile(sorted, 50))} ms median (${fmt(sorted[0])}–${fmt(sorted.at(-1))} over ${sorted.length} ${of})`;
}

/** How far past `bound` the median and the slowest of `values` are, ms. */
function past(values: readonly number[], bound: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${fmt(percentile(sorted, 50) - bound)}, most ${fmt(sorted.at(-1)! - bound)}`;
}

/** The answers other than `expected`, counted by status; undefined when there are none. */
function otherAnswers(samples: readonly Timed[], expected: number): string | undefined {
  const counts: Record<string, number> = {};
  for (const { status } of samples) if (status !== expected) counts[status] = (counts[status] ?? 0) + 1;
  const entries = Object.entries(counts);
  if (entries.length === 0) return undefined;
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  return `${total} of ${samples.length} answered ${entries.map(([status, count]) => `${count} × ${status}`).join(", ")}, not ${expected}`;
}

export interface TimingRow {
  name: string;
  setup: string;
  measured: string;
  /** Set when an answer was not the set-up's (the tests check those): the time then measures something else. */
  note?: string;
}

/** Each timing: its set-up and what was measured. */
export function timingRows(timings: Timings): TimingRow[] {
  const { devchain, deadline, queue, ready } = timings;
  const rows: TimingRow[] = [];
  rows.push({
    name: "devchain start",
    setup: "spawn of `src/devchain/serve.ts --port 0` to its listening line, then eth_chainId, then getMarket(1) on the demo group",
    measured: `listening line at ${fmt(devchain.listeningMs)} ms; eth_chainId answered at ${fmt(devchain.chainIdMs)} ms, getMarket(1) at ${fmt(devchain.getMarketMs)} ms`,
  });
  const deadlineTimes = deadline.samples.filter((s) => s.status === 503).map((s) => s.ms);
  rows.push({
    name: "503 at the quote deadline",
    setup: `SEARCH_STRATEGY=sequential, QUOTE_DEADLINE_MS=${deadline.deadlineMs}, ${deadline.delayMs} ms per JSON-RPC request, one quote`,
    measured: `503 after ${spread(deadlineTimes, "quotes")}; past the deadline, ms: ${deadlineTimes.length ? past(deadlineTimes, deadline.deadlineMs) : "n/a"}`,
    note: otherAnswers(deadline.samples, 503),
  });
  const refused = queue.samples.filter((s) => s.status === 503).map((s) => s.ms);
  const accepted = queue.samples.filter((s) => s.status === 200).map((s) => s.ms);
  const rounds = queue.samples.length / queue.quotesAtOnce;
  const expectedRefused = rounds * (queue.quotesAtOnce - queue.maxInFlight - queue.maxQueued);
  const strays = queue.samples.filter((s) => s.status !== 200 && s.status !== 503).length;
  rows.push({
    name: "503 on a full queue",
    setup: `RPC_MAX_IN_FLIGHT=${queue.maxInFlight}, RPC_MAX_QUEUED=${queue.maxQueued}, ${queue.delayMs} ms per JSON-RPC request, ${queue.quotesAtOnce} single-call quotes at once`,
    measured:
      `refused (503) after ${spread(refused, "refused")}; for comparison, the accepted ones answered 200 after ` +
      (accepted.length ? `${fmt(Math.min(...accepted))}–${fmt(Math.max(...accepted))} ms (the queued one's request after the other's)` : "n/a"),
    note:
      refused.length === expectedRefused && strays === 0
        ? undefined
        : `${refused.length} of ${queue.samples.length} refused, ${accepted.length} answered 200, ${strays} otherwise; expected ${expectedRefused} refused`,
  });
  const readyTimes = ready.samples.filter((s) => s.status === 503).map((s) => s.ms);
  rows.push({
    name: "/ready 503, silent node",
    setup: `READY_TIMEOUT_MS=${ready.readyTimeoutMs}, the chain's one node accepts connections and never answers`,
    measured: `503 after ${spread(readyTimes, "checks")}; past the timeout, ms: ${readyTimes.length ? past(readyTimes, ready.readyTimeoutMs) : "n/a"}`,
    note: otherAnswers(ready.samples, 503),
  });
  return rows;
}

/** The timings as a table; a row whose answers were not the set-up's says so. */
export function renderTimingTable(timings: Timings): string {
  const rows = timingRows(timings).map((row) => [row.name, row.setup, row.note ? `${row.measured} [**${row.note}**]` : row.measured]);
  return markdownTable([["timing (reported, never a failure)", "set-up", "measured"], ...rows]);
}

export function renderMarkdown(results: BenchResults, table: string, exactTable: string, timingTable: string, takerLines = ""): string {
  const { machine } = results;
  const lines = [
    "# Quoter benchmark",
    "",
    `${results.mode === "full" ? "Full run" : "Quick smoke run (`--quick`): short runs, fewer quotes; indicative only"} of \`npm run bench\`, ${results.date}.`,
    "",
    `- Machine: ${machine.cores} cores (${machine.cpu}), ${fmt(machine.memoryBytes / MIB / 1024)} GiB, ${machine.platform}`,
    `- Node ${machine.node}; commit ${results.commit}`,
    `- Service environment: ${Object.entries(results.setup.serviceEnv as Record<string, string>).map(([k, v]) => `${k}=${v}`).join(" ")} (the rest as \`npm start\`; its logs go to a file)`,
    `- Load average (1, 5, 15 min) at start ${(results.setup.loadAverageAtStart as number[]).map((l) => l.toFixed(2)).join(", ")}, at end ${(results.setup.loadAverageAtEnd as number[]).map((l) => l.toFixed(2)).join(", ")}`,
    "",
    "## Set-up",
    "",
    "All on 127.0.0.1, each a separate process: the devchain node (`src/devchain/serve.ts`, anvil as its child process,",
    "with the demo market group), the bench's JSON-RPC proxy (`bench/proxy.ts`) that holds each HTTP request for the stated delay",
    "before forwarding it and counts the JSON-RPC requests, and the quoter (`node --import tsx src/main.ts`) with",
    "`RPC_URL_31337` set to the proxy and `SEARCH_STRATEGY` sequential or single-call. autocannon (library API) runs in",
    "the bench process and cycles over a mix of eight demo quotes that all answer 200 (markets 1 and 2, LONG and SHORT,",
    "budgets and prices that bind); both strategies are checked to answer the mix byte for byte alike.",
    "",
    "- Latency: concurrency 1, a whole number of passes over the mix (the bare eth_call column: the single-call",
    "  searches of the same mix POSTed straight to the proxy); percentiles from autocannon's per-response",
    "  times (its `response` event, hrtime-based; its own histogram keeps whole ms and is in results.json too).",
    "  The \"single-call, search=exact\" column: the same eight requests with `&search=exact`, on the single-call service;",
    "  \"single-call, with taker\": with `&taker=` (their trade: its reads and simulation in one more request).",
    "- RPC requests per quote: the proxy's count during the run over the quotes answered; the range is over the mix,",
    "  counted one quote at a time. The head follower's reads (latest block, headers, chain ids) are per block, not",
    "  per quote: they are counted apart (npm run follow measures them).",
    "- Every quote is made distinct (one more wei of budget each), so that the service's coalescing of identical",
    "  in-flight requests never answers two of them with one search.",
    "- Service CPU per quote: utime + stime of the service process (`/proc/<pid>/stat`) over the run, per quote.",
    "- Throughput: fixed-duration runs at 0 ms delay after a short warm-up at the same concurrency; 2xx per second.",
    "  The bare eth_call column is the node's own rate for the same searches: the ceiling of the single-call service.",
    "- Overhead: the same searches (the `encodeSearch` calldata, the service's gas cap, `latest`) POSTed by autocannon",
    "  as bare `eth_call`s to the same proxy, alternating with runs of single-call quotes, at concurrency 1. The floor:",
    "  the same searches forwarded by `bench/passThrough.ts` (Fastify's defaults, one route, the service's transport,",
    "  no quote work) in the same rounds: what a service in a process of its own adds before any work of its own.",
    "- Memory: VmRSS (`/proc/<pid>/status`) of a freshly started single-call service, 1 s after it is idle, as it is",
    "  and 1 s after full garbage collections until the heap stops shrinking (`--expose-gc` and the preload",
    "  `bench/gcProbe.ts`, on SIGUSR2; it logs `process.memoryUsage()`). The target is judged on the latter, as growth",
    "  of at most 20%: as is, a reading lands anywhere on V8's saw-tooth of garbage and heap slack, tens of MiB wide.",
    "",
    "## Results",
    "",
    table,
    "",
    "What `taker` adds (semantics §12: the trade, one `eth_simulateV1` after the search; the mix with `&taker=` the",
    "demo's trader, on the single-call service, in the same run):",
    "",
    takerLines,
    "",
    "## search=exact",
    "",
    `The exact workload: ${results.exact.quotes.length} quotes with \`search=exact\` (markets 1, 2 and 4 of the demo group, LONG and SHORT,`,
    "four price distances, six budgets from 10^9 to 10^24 wei), each quoted once, alone, at 0 ms on the single-call service.",
    "Candidates are each answer's `iterations`; requests are the proxy's count for that quote; both over the answers of 200",
    "only. The latency compares the mix above with and without `search=exact`, in the same run. Gas: `npm run gas`'s method",
    "on the bench's node, each demo market's example request; the exact column measures the searcher's call data for the",
    "request with `search=exact` (`encodeSearch`), whatever the searcher runs for it, and \"the searcher quoted\" says",
    "whether its candidates are the service's exact search's, size for size.",
    "",
    exactTable,
    "",
    "## Timings",
    "",
    "Set-ups that tests check the outcome of, timed here: on a loaded machine a bound in a test fails for no fault of",
    "the code. Each service set-up is a service of its own (the \"/ready\" one with the silent node as its only chain); the",
    "quoting ones go through the proxy, set to the stated delay, and first answer one quote at 0 ms. Times run from sending",
    "the request to the end of its answer, in the bench process; the devchain's from its spawn, the listening line seen",
    "within one 25 ms poll of its log. Median (nearest rank), least and most over the bench's rounds.",
    "",
    timingTable,
    "",
    "## Targets",
    "",
    ...results.targets.map((t) => `- ${t.met ? "met" : "**missed**"}: ${t.name}: ${t.measured}`),
    "",
  ];
  if (results.failures.length + results.warnings.length > 0) {
    lines.push("## Failures and warnings", "", ...results.failures.map((f) => `- failure: ${f}`), ...results.warnings.map((w) => `- warning: ${w}`), "");
  }
  lines.push("Reproduce: `npm run bench` (full, about 9 minutes) or `npm run bench -- --quick` (under 2 minutes).", "");
  return lines.join("\n");
}

/**
 * Sections that other tools write into RESULTS.md between `<!-- name:start -->` and `<!-- name:end -->` (the load
 * test's, for one): a new bench run keeps them, after its own text.
 */
export function keptSections(previous: string): string[] {
  return [...previous.matchAll(/<!-- ([\w-]+):start -->[\s\S]*?<!-- \1:end -->\n?/g)].map((match) => match[0]);
}
