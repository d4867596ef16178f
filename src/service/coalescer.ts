// Identical requests about the same block share one search (semantics §11): the key names the block by its hash.
// The search runs for as long as one of the quotes that share it still waits: once every one of them has given up
// (its deadline passed), its signal aborts and it makes no further call. Once it is answered, the next identical
// request is a new search (or the answer cache's).
import type { AnyQuoteRequest } from "../quote/positionRequest.ts";
import { tradeParams } from "../quote/trade.ts";

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

/** What a search does not depend on: the block (the other half of every key) and the trade's parameters (§12). */
const NOT_SEARCHED: ReadonlySet<string> = new Set(["minBlock", "taker", "slippageBps", "deadlineSeconds"]);

/**
 * Searches are identical when every parsed parameter that shapes the search is: `minBlock` only says which blocks
 * may answer, and the block is the other half of the key; the trade (semantics §12) is made after the search, from
 * its answer, so a request with `taker` shares the search (and its kept answer) of the same request without it, and
 * a request without `taker` has the key it had before §12.
 */
export function quoteKey(request: AnyQuoteRequest): string {
  return JSON.stringify(request, (key, value: unknown) => (NOT_SEARCHED.has(key) ? undefined : typeof value === "bigint" ? value.toString() : value));
}

/**
 * Requests are identical when their answers are: the search's key, and with `taker` the trade's parameters (their
 * defaults filled in). Without `taker` it is the search's key.
 */
export function requestKey(request: AnyQuoteRequest): string {
  const trade = tradeParams(request);
  return trade === undefined ? quoteKey(request) : `${quoteKey(request)}\n${trade.taker}/${trade.slippageBps}/${trade.deadlineSeconds}`;
}
