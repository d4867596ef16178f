// What one quote did, for its log line and metrics: filled in while the quote runs, by the service (direction,
// candidates, block) and by the RPC observer (requests made), through the async context of the quote. The HTTP
// layer opens a context per request; outside one (the CLI, start-up probes) nothing is recorded.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Direction } from "../quote/search.ts";

/** All a quote logs is warnings: pino's loggers (a request's among them) have `warn`. */
export interface QuoteLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface QuoteStats {
  /** JSON-RPC requests sent for this quote, every endpoint tried included. */
  rpcRequests: number;
  /** Candidates quoted by the search that gave the answer; absent when no search ran. */
  candidates?: number;
  direction?: Direction;
  blockNumber?: bigint;
  /** The quote joined an identical one already running: its RPC requests were that one's. */
  coalesced?: boolean;
  /** Whether an identical request's answer at the chain's head was kept (semantics of the answer cache). */
  cache?: "hit" | "miss";
  /** The logger of the request that asked for the quote: warnings during the quote carry its request id. */
  log?: QuoteLogger;
}

const context = new AsyncLocalStorage<QuoteStats>();

export function newQuoteStats(log?: QuoteStats["log"]): QuoteStats {
  return log ? { rpcRequests: 0, log } : { rpcRequests: 0 };
}

/** Runs `fn` (and everything it starts) with `stats` as the current quote's record. */
export function runWithQuoteStats<T>(stats: QuoteStats, fn: () => T): T {
  return context.run(stats, fn);
}

/** The record of the quote running now, if any. */
export function currentQuoteStats(): QuoteStats | undefined {
  return context.getStore();
}

/** Counts one JSON-RPC request against the quote running now. */
export function countRpcRequest(): void {
  const stats = context.getStore();
  if (stats) stats.rpcRequests++;
}

/** A joining quote takes the search facts of the quote it joined (not its RPC requests: it made none). */
export function adoptSearchFacts(into: QuoteStats, from: QuoteStats): void {
  into.coalesced = true;
  if (from.direction !== undefined) into.direction = from.direction;
  if (from.candidates !== undefined) into.candidates = from.candidates;
  if (from.blockNumber !== undefined) into.blockNumber = from.blockNumber;
  if (from.cache !== undefined) into.cache = from.cache;
}

/** Runs `fn` (and everything it starts: timers, sockets) outside any quote's record: work of the service itself. */
export function outsideQuote<T>(fn: () => T): T {
  return context.exit(fn);
}
