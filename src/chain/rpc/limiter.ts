// Back-pressure for one chain: at most `concurrency` JSON-RPC requests in flight and at most `queueLimit`
// waiting. A request that finds the queue full is refused at once rather than piling up, and a waiting request
// whose quote has given up (its deadline passed) leaves the queue unsent: a slow endpoint is not made slower by
// work nobody waits for.
import { QuoterError } from "../../quote/quoterError.ts";

export class ChainOverloadedError extends QuoterError {
  constructor(readonly chainId: number) {
    super("chain-overloaded", `chain ${chainId}: too many RPC requests waiting`);
  }
}

/** The quote a queued request belonged to gave up before a slot was free: the request was never sent. */
export class RequestAbandonedError extends QuoterError {
  constructor() {
    super("request-abandoned", "the quote gave up before its RPC request could be sent");
  }
}

export interface Limiter {
  /**
   * Runs `task` when a slot is free; throws {@link ChainOverloadedError} at once if the queue is full, and
   * {@link RequestAbandonedError} (without running it) if `signal` aborts while it waits.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly inFlight: number;
  readonly queued: number;
}

export function createLimiter(chainId: number, concurrency: number, queueLimit: number): Limiter {
  let inFlight = 0;
  const waiting = new Set<() => void>();
  const release = () => {
    const next = waiting.values().next();
    if (next.done) {
      inFlight--;
      return;
    }
    waiting.delete(next.value);
    next.value();
  };
  /** Waits for a slot handed over by `release` (so inFlight stays counted), or leaves the queue on abort. */
  const slot = (signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      const granted = () => {
        signal?.removeEventListener("abort", abandoned);
        resolve();
      };
      const abandoned = () => {
        waiting.delete(granted);
        reject(new RequestAbandonedError());
      };
      waiting.add(granted);
      signal?.addEventListener("abort", abandoned, { once: true });
    });
  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.size;
    },
    async run(task, signal) {
      if (signal?.aborted) throw new RequestAbandonedError();
      if (inFlight >= concurrency) {
        if (waiting.size >= queueLimit) throw new ChainOverloadedError(chainId);
        await slot(signal);
      } else {
        inFlight++;
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
