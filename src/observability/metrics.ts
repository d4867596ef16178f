// Prometheus metrics of one app instance, in a registry of its own (never prom-client's global one, so that
// any number of apps can live in one process, as in the tests).
import { collectDefaultMetrics, Counter, Gauge, Histogram, linearBuckets, Registry } from "prom-client";
import type { RpcEvent, RpcObserver } from "../chain/rpc/client.ts";
import type { HeadStatus } from "../chain/head/follower.ts";
import { HEAD_METRIC_NAMES, registerHeadMetrics } from "./headMetrics.ts";

export interface Metrics {
  readonly registry: Registry;
  /** For ChainClientOptions.observer: counts each JSON-RPC request by chain, method and outcome. */
  readonly observeRpc: RpcObserver;
  /** One HTTP answer: `route` is the route's pattern (never the raw URL), "unmatched" when none matched. */
  observeRequest(request: { method: string; route: string; status: number }): void;
  /** One answered quote request: its latency, and the candidates it quoted when it ran a search itself. */
  observeQuote(quote: { status: number; seconds: number; candidates: number | undefined; cache?: "hit" | "miss" | undefined }): void;
  /** Where each chain's head is read from when the metrics are scraped: its number, age, how it is followed, reorgs. */
  observeHeads(heads: () => readonly HeadStatus[]): void;
  /** One batch answered: how many quotes it asked. */
  observeBatch(quotes: number): void;
  /** One depth ladder answered: how many levels it had. */
  observeDepth(levels: number): void;
  /** The gas a request's searches' candidates used, as the searchers measured it, by route (quote, batch, depth). */
  observeSearchGas(route: "quote" | "batch" | "depth", gas: bigint): void;
  /** Live quote streams: opened and closed, each event sent, each search for them, each head that started searches. */
  readonly streams: StreamObserver;
}

export interface StreamObserver {
  opened(): void;
  closed(): void;
  sent(event: "quote" | "error" | "end"): void;
  search(): void;
  head(): void;
}

export const METRIC_NAMES = {
  httpRequests: "quoter_http_requests_total",
  quoteDuration: "quoter_quote_duration_seconds",
  quoteCandidates: "quoter_quote_candidates",
  rpcRequests: "quoter_rpc_requests_total",
  answerCache: "quoter_answer_cache_total",
  streamsOpen: "quoter_streams_open",
  streamEvents: "quoter_stream_events_total",
  streamSearches: "quoter_stream_searches_total",
  streamHeads: "quoter_stream_heads_total",
  batchQuotes: "quoter_batch_quotes",
  depthLevels: "quoter_depth_levels",
  searchGas: "quoter_search_gas",
  ...HEAD_METRIC_NAMES,
} as const;

export interface MetricsOptions {
  /** Also collect prom-client's process and Node.js metrics (CPU, memory, event loop lag...). Default false. */
  readonly processMetrics?: boolean;
}

export function createMetrics({ processMetrics = false }: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequests = counterIn(registers, METRIC_NAMES.httpRequests, "HTTP requests answered, by method, route pattern and status code", ["method", "route", "status_code"]);
  const quoteDuration = histogramIn(
    registers,
    METRIC_NAMES.quoteDuration,
    "Time to answer a quote request (GET or HEAD on the quote route), by status code",
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    ["status_code"],
  );
  const quoteCandidates = histogramIn(
    registers,
    METRIC_NAMES.quoteCandidates,
    "Candidate sizes quoted per quote that ran a search (a quote that joined an identical running one is not counted)",
    linearBuckets(0, 1, 11),
  );
  const rpcRequests = counterIn(
    registers,
    METRIC_NAMES.rpcRequests,
    "JSON-RPC requests sent, by chain, method and outcome (ok, reverted, refused, transport_failure)",
    ["chain_id", "method", "outcome"],
  );
  const answerCache = counterIn(
    registers,
    METRIC_NAMES.answerCache,
    "Quotes that reached the chain stage, by whether an identical request's answer at the chain's head was kept (hit) or not (miss)",
    ["result"],
  );

  const heads = registerHeadMetrics(registry);
  const streams = streamMetrics(registers);

  return {
    registry,
    observeHeads: heads.observe,
    streams,
    ...manyQuoteMetrics(registers),
    observeRpc(event: RpcEvent) {
      rpcRequests.inc({ chain_id: String(event.chainId), method: event.method, outcome: event.outcome });
    },
    observeRequest({ method, route, status }) {
      httpRequests.inc({ method, route, status_code: String(status) });
    },
    observeQuote({ status, seconds, candidates, cache }) {
      quoteDuration.observe({ status_code: String(status) }, seconds);
      if (candidates !== undefined) quoteCandidates.observe(candidates);
      if (cache !== undefined) answerCache.inc({ result: cache });
    },
  };
}

function streamMetrics(registers: Registry[]): StreamObserver {
  const open = new Gauge({ name: METRIC_NAMES.streamsOpen, help: "Live quote streams open now", registers });
  const events = counterIn(registers, METRIC_NAMES.streamEvents, "Events sent on live quote streams, by event (quote, error, end)", ["event"]);
  const searches = counterIn(
    registers,
    METRIC_NAMES.streamSearches,
    "Searches for live quote streams: one per distinct watched quote and head, however many streams watch it",
  );
  const heads = counterIn(
    registers,
    METRIC_NAMES.streamHeads,
    "New heads that started the searches of live quote streams (searches per head: the ratio of the two)",
  );
  return {
    opened: () => open.inc(),
    closed: () => open.dec(),
    sent: (event) => events.inc({ event }),
    search: () => searches.inc(),
    head: () => heads.inc(),
  };
}

/** What requests of many quotes (a batch, a ladder) and the searches' gas are observed by. */
function manyQuoteMetrics(registers: Registry[]): Pick<Metrics, "observeBatch" | "observeDepth" | "observeSearchGas"> {
  return {
    observeBatch: countMetric(registers, METRIC_NAMES.batchQuotes, "Quotes asked per batch answered (POST /quoter/<chainId>/batch)"),
    observeDepth: countMetric(registers, METRIC_NAMES.depthLevels, "Levels per depth ladder answered (GET …/depth)"),
    observeSearchGas: searchGasMetric(registers),
  };
}

/** A histogram of counts per request (quotes per batch, levels per ladder). */
function countMetric(registers: Registry[], name: string, help: string): (count: number) => void {
  const histogram = histogramIn(registers, name, help, [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]);
  return (count) => histogram.observe(count);
}

/** Gas per request of the searchers' candidates: the chain's bill for a request, its call data and reads aside. */
function searchGasMetric(registers: Registry[]): Metrics["observeSearchGas"] {
  const histogram = histogramIn(
    registers,
    METRIC_NAMES.searchGas,
    "Gas the candidates of a request's searches used, as the deployless searchers measured it (call data and reads not included), by route",
    [1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7, 3e7, 1e8],
    ["route"],
  );
  // A gas figure, not a price or an amount: a Number is exact up to 2^53.
  return (route, gas) => histogram.observe({ route }, Number(gas));
}

/** A counter in `registers`, each count labelled by `labelNames`. */
export function counterIn<L extends string>(registers: Registry[], name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return new Counter({ name, help, labelNames, registers });
}

/** A histogram over `buckets` in `registers`, each observation labelled by `labelNames`. */
function histogramIn<L extends string>(registers: Registry[], name: string, help: string, buckets: number[], labelNames: readonly L[] = []): Histogram<L> {
  return new Histogram({ name, help, buckets, labelNames, registers });
}
