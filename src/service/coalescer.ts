// Identical requests in flight together share one search, and so its block (the latest when that search
// started, at most one round trip earlier). Once it is answered, the next identical request is a new search.
import { adoptSearchFacts, currentQuoteStats, type QuoteStats } from "../observability/quoteStats.ts";
import type { QuoteRequest } from "../quote/request.ts";

export interface Coalescer<T> {
  /** The answer of the request `key` in flight, or else of `start()`, which other requests with that key then share. */
  run(key: string, start: () => Promise<T>): Promise<T>;
}

export function createCoalescer<T>(): Coalescer<T> {
  // The stats are those of the quote that started the search: joiners take its search facts from them.
  const inFlight = new Map<string, { answer: Promise<T>; stats: QuoteStats | undefined }>();
  return {
    run(key, start) {
      const running = inFlight.get(key);
      if (running) {
        const stats = currentQuoteStats();
        if (stats === undefined) return running.answer;
        // A joiner made no RPC request: its record says so, and takes the direction, candidates and block.
        stats.coalesced = true;
        return running.answer.finally(() => running.stats && adoptSearchFacts(stats, running.stats));
      }
      const answer = start().finally(() => inFlight.delete(key));
      inFlight.set(key, { answer, stats: currentQuoteStats() });
      return answer;
    },
  };
}

/** Requests are identical when every parsed parameter is. */
export function quoteKey(request: QuoteRequest): string {
  return JSON.stringify(request, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}
