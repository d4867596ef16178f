// Identical requests about the same block share one search (semantics §11): the key names the block by its hash.
// The search runs for as long as one of the quotes that share it still waits: once every one of them has given up
// (its deadline passed), its signal aborts and it makes no further call. Once it is answered, the next identical
// request is a new search (or the answer cache's).
import type { QuoteRequest } from "../quote/request.ts";

export interface Coalescer<T> {
  /**
   * The answer of the search `key` in flight, or else of `start(signal)`, which later callers with that key share.
   * The caller stops waiting when its own `signal` aborts (rejected with its reason).
   */
  run(key: string, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T>;
}

type Search<T> = { answer: Promise<T>; abandon: AbortController; waiting: number };

export function createCoalescer<T>(): Coalescer<T> {
  const inFlight = new Map<string, Search<T>>();
  return {
    run(key, start, signal) {
      signal.throwIfAborted();
      let search = inFlight.get(key);
      if (search === undefined) {
        const abandon = new AbortController();
        const started: Search<T> = { answer: start(abandon.signal), abandon, waiting: 0 };
        started.answer
          .finally(() => {
            if (inFlight.get(key) === started) inFlight.delete(key);
          })
          .catch(() => undefined);
        inFlight.set(key, started);
        search = started;
      }
      const shared = search;
      shared.waiting++;
      return new Promise<T>((resolve, reject) => {
        let done = false;
        const leave = () => {
          if (done) return;
          done = true;
          signal.removeEventListener("abort", gaveUp);
          if (--shared.waiting === 0) shared.abandon.abort();
        };
        const gaveUp = () => {
          leave();
          reject(signal.reason);
        };
        signal.addEventListener("abort", gaveUp, { once: true });
        /** The search ended while this caller still waited: its answer or its failure. */
        const settle = (outcome: () => void) => {
          if (done) return;
          done = true;
          signal.removeEventListener("abort", gaveUp);
          outcome();
        };
        shared.answer.then(
          (answer) => settle(() => resolve(answer)),
          (error: unknown) => settle(() => reject(error)),
        );
      });
    },
  };
}

/**
 * Requests are identical when every parsed parameter that shapes the answer is: `minBlock` only says which blocks
 * may answer, and the block is the other half of the key.
 */
export function quoteKey(request: QuoteRequest): string {
  return JSON.stringify(request, (key, value: unknown) => (key === "minBlock" ? undefined : typeof value === "bigint" ? value.toString() : value));
}
