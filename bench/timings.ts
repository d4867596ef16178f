// Four timings that tests once bounded (the devchain's start, the 503 at a quote's deadline, the 503 of a full
// queue, /ready against a node that never answers), measured here and reported, never a failure: how long they
// take depends on the machine and on what else runs on it, and a test that fails on a slow machine says nothing
// of the code. The tests keep the outcomes (test/e2e/commands, test/reliability/faults and pressure,
// test/ops/health); these are the same set-ups, each on a service of its own, a child process on 127.0.0.1.
import { createPublicClient, http, numberToHex } from "viem";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { marketGroupAbi } from "../src/generated/contracts.ts";
import type { Timed, Timings } from "./report.ts";
import { MIX, quotePath } from "./workload.ts";

/** The quote every timing asks for (market 1, LONG, budget binds), as the tests did; one more wei each time. */
const QUOTE = MIX[0]!;

/** The per-quote deadline against an endpoint that holds each request: the sequential search needs far longer. */
export const DEADLINE = { deadlineMs: 400, delayMs: 150 } as const;
/** One JSON-RPC request in flight and one waiting, a slow endpoint, and more quotes at once than that. */
export const QUEUE = { maxInFlight: 1, maxQueued: 1, delayMs: 200, quotesAtOnce: 4 } as const;
export const READY = { readyTimeoutMs: 500 } as const;
/** /ready answers again from its last check younger than this (src/observability/readiness.ts): never timed. */
const READY_REUSE_MS = 1_000;

/**
 * The environment of each timing's service, over the bench's own. The readiness service's only chain is the
 * silent node (chain 5, as the test): it must not ask the proxy anything. Its RPC_TIMEOUT_MS is short because at
 * start the service probes each endpoint for the searcher and waits that long on a silent one; /ready races its
 * own READY_TIMEOUT_MS, shorter still, so the probe's timeout changes nothing it measures.
 */
export function timingServiceEnvs(proxyUrl: string, silentUrl: string): Record<"deadline" | "queue" | "ready", Record<string, string>> {
  return {
    deadline: { RPC_URL_31337: proxyUrl, SEARCH_STRATEGY: "sequential", QUOTE_DEADLINE_MS: String(DEADLINE.deadlineMs) },
    queue: {
      RPC_URL_31337: proxyUrl,
      SEARCH_STRATEGY: "single-call",
      RPC_MAX_IN_FLIGHT: String(QUEUE.maxInFlight),
      RPC_MAX_QUEUED: String(QUEUE.maxQueued),
    },
    ready: { RPC_URL_5: silentUrl, READY_TIMEOUT_MS: String(READY.readyTimeoutMs), RPC_TIMEOUT_MS: "1000" },
  };
}

/** What the timings need of the bench's proxy (bench/run.ts's ProxyControl). */
export interface DelayControl {
  setDelay(ms: number): Promise<void>;
  /** Waits until nothing is held or at the node for `quietMs`. */
  drain(maxSeconds?: number, quietMs?: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One GET, timed to the end of its body. */
async function timedGet(url: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

/**
 * The devchain's first answers, asked as soon as its listening line is seen (its port is known only then):
 * eth_chainId, then getMarket(1) on the demo group; each as ms from the spawn.
 */
export async function devchainAnswers(nodeUrl: string, spawnedAt: number): Promise<{ chainIdMs: number; getMarketMs: number }> {
  const response = await fetch(nodeUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  const { result } = (await response.json()) as { result?: string };
  const chainIdMs = performance.now() - spawnedAt;
  if (result !== numberToHex(DEVCHAIN_ID)) throw new Error(`the devchain answered eth_chainId ${result}`);
  const client = createPublicClient({ transport: http(nodeUrl) });
  const [market] = await client.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getMarket", args: [1n] });
  const getMarketMs = performance.now() - spawnedAt;
  if (market.marketId !== 1n) throw new Error(`the devchain's getMarket(1) answered market ${market.marketId}`);
  return { chainIdMs, getMarketMs };
}

/**
 * The three service timings, `rounds` times each, interleaved: the time the quotes take between two /ready
 * checks covers most of the second that /ready reuses its last answer for. Each quoting service first answers
 * one quote at 0 ms, so that no round times its first quote's start-up. Leaves the proxy at 0 ms.
 */
export async function measureServiceTimings(
  proxy: DelayControl,
  urls: { deadline: string; queue: string; ready: string },
  rounds: number,
  nextExtraWei: () => number,
): Promise<Omit<Timings, "devchain">> {
  const quote = (base: string) => `${base}${quotePath(QUOTE, nextExtraWei())}`;
  await proxy.setDelay(0);
  for (const base of [urls.deadline, urls.queue]) await timedGet(quote(base));
  const deadline: Timed[] = [];
  const queue: Timed[] = [];
  const ready: Timed[] = [];
  let lastReadyAt = -Infinity;
  for (let round = 0; round < rounds; round++) {
    await sleep(Math.max(0, lastReadyAt + READY_REUSE_MS + 100 - performance.now()));
    ready.push(await timedGet(`${urls.ready}/ready`));
    lastReadyAt = performance.now();

    await proxy.setDelay(DEADLINE.delayMs);
    deadline.push(await timedGet(quote(urls.deadline)));
    // The search stops at the deadline, but a request it had sent is still held: none may run into the next.
    await proxy.drain(10, 50);

    await proxy.setDelay(QUEUE.delayMs);
    const atOnce = Array.from({ length: QUEUE.quotesAtOnce }, () => quote(urls.queue));
    queue.push(...(await Promise.all(atOnce.map(timedGet))));
    await proxy.drain(10, 50);
  }
  await proxy.setDelay(0);
  return {
    deadline: { ...DEADLINE, samples: deadline },
    queue: { ...QUEUE, samples: queue },
    ready: { ...READY, samples: ready },
  };
}
