// The bench's positions workload (semantics §13): quotes of the demo's held positions (a long and a short on market 1,
// the USDC group's long), both directions, budgets that bind and a budget of 0, with the bisection and the exact
// search, through the single-call service (the position searcher at the owner's address) and the sequential one, at
// one proxy delay. Each quote is checked alike on both, then timed one at a time, round after round: latency p50 per
// strategy, JSON-RPC requests per quote, and the candidates of each exact answer.
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../src/devchain/demoMarkets.ts";
import { summarize, type LatencySummary } from "./stats.ts";

type Proxy = { setDelay(ms: number): Promise<void>; reset(): Promise<void>; counters(): Promise<{ rpcRequests: number }> };
type Strategy = "single-call" | "sequential";

const E18 = 10n ** 18n;

/** position, expectedPrice, budget: each with both searches. */
const ASKS: readonly [group: string, positionId: number, expectedPrice: string, budget: bigint][] = [
  [DEMO_MARKET_GROUP_ADDRESS, 1, "0.55", 100n * E18],
  [DEMO_MARKET_GROUP_ADDRESS, 1, "0.45", 0n],
  [DEMO_MARKET_GROUP_ADDRESS, 2, "0.55", 50n * E18],
  [DEMO_MARKET_GROUP_ADDRESS, 2, "0.4999", 20n * E18],
  [DEMO_USDC_MARKET_GROUP_ADDRESS, 1, "0.5004", 1000n * E18],
  [DEMO_USDC_MARKET_GROUP_ADDRESS, 1, "0.49", 5n * E18],
];

/** The workload's paths, each budget `extra` wei larger: a search of its own, never an answer the service kept. */
export const positionPaths = (extra: bigint): readonly string[] =>
  ASKS.flatMap(([group, positionId, expectedPrice, budget]) =>
    ["bisection", "exact"].map((search) => `/quoter/31337/${group}/positions/${positionId}?${new URLSearchParams({ expectedPrice, collateralAvailable: (budget + extra).toString(), search })}`),
  );

export interface PositionsResult {
  readonly delayMs: number;
  readonly quotes: number;
  readonly rounds: number;
  readonly latency: Record<Strategy, LatencySummary>;
  /** JSON-RPC requests per quote once each position's owner is known, mean over the timed quotes. */
  readonly rpcRequestsPerQuote: Record<Strategy, number>;
  /** Candidates of each exact answer (its `iterations`). */
  readonly exactCandidates: { readonly median: number; readonly max: number; readonly each: readonly number[] };
}

/** The workload against `urls` at `delayMs`; a difference between the strategies, or a single call of more than one request, is a failure. */
export async function positionsWorkload(proxy: Proxy, urls: Record<Strategy, string>, delayMs: number, rounds: number, failures: string[]): Promise<PositionsResult> {
  await proxy.setDelay(0);
  const exactCandidates: number[] = [];
  for (const path of positionPaths(0n)) {
    const [single, sequential] = await Promise.all([fetch(`${urls["single-call"]}${path}`), fetch(`${urls.sequential}${path}`)]);
    const [a, b] = [await single.text(), await sequential.text()];
    if (single.status !== 200 || a !== b) failures.push(`positions: ${path} answered ${single.status} (single-call) and ${sequential.status}, ${a === b ? "alike" : "differently"}`);
    if (path.endsWith("search=exact") && single.status === 200) exactCandidates.push((JSON.parse(a) as { iterations: number }).iterations);
  }
  await proxy.setDelay(delayMs);
  const latency = {} as Record<Strategy, LatencySummary>;
  const rpcRequestsPerQuote = {} as Record<Strategy, number>;
  for (const strategy of ["single-call", "sequential"] as const) {
    const samples: number[] = [];
    await proxy.reset();
    for (let round = 1; round <= rounds; round++) {
      for (const path of positionPaths(BigInt(round))) {
        const started = performance.now();
        const response = await fetch(`${urls[strategy]}${path}`);
        await response.text();
        samples.push(performance.now() - started);
      }
    }
    latency[strategy] = summarize(samples);
    rpcRequestsPerQuote[strategy] = (await proxy.counters()).rpcRequests / samples.length;
  }
  await proxy.setDelay(0);
  if (rpcRequestsPerQuote["single-call"] !== 1) failures.push(`positions: single-call ${rpcRequestsPerQuote["single-call"]} RPC requests per quote, not 1`);
  const sorted = [...exactCandidates].sort((x, y) => x - y);
  return {
    delayMs,
    quotes: positionPaths(0n).length,
    rounds,
    latency,
    rpcRequestsPerQuote,
    exactCandidates: { median: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, max: sorted.at(-1) ?? 0, each: exactCandidates },
  };
}

/** The workload's lines for the console and RESULTS.md. */
export function renderPositionsLines(result: PositionsResult | undefined): string {
  if (result === undefined) return "";
  const cell = (strategy: Strategy) =>
    `${strategy} p50 ${result.latency[strategy].p50.toFixed(1)} ms (p99 ${result.latency[strategy].p99.toFixed(1)}), ${result.rpcRequestsPerQuote[strategy].toFixed(2)} RPC requests per quote`;
  return [
    `### Held positions (${result.quotes} quotes of the demo's positions, both searches, ${result.rounds} rounds, ${result.delayMs} ms per RPC request)`,
    "",
    `- ${cell("single-call")}`,
    `- ${cell("sequential")}`,
    `- candidates per exact answer: median ${result.exactCandidates.median}, max ${result.exactCandidates.max} (${result.exactCandidates.each.join(", ")})`,
  ].join("\n");
}
