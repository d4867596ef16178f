// Back-pressure for one chain: at most `concurrency` JSON-RPC requests in flight and at most `queueLimit`
// waiting. A request that finds the queue full is refused at once rather than piling up.

export class ChainOverloadedError extends Error {
  override name = "ChainOverloadedError";
  constructor(readonly chainId: number) {
    super(`chain ${chainId}: too many RPC requests waiting`);
  }
}

export interface Limiter {
  /** Runs `task` when a slot is free; throws {@link ChainOverloadedError} at once if the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
  readonly queued: number;
}

export function createLimiter(chainId: number, concurrency: number, queueLimit: number): Limiter {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.length;
    },
    async run(task) {
      if (inFlight >= concurrency) {
        if (waiting.length >= queueLimit) throw new ChainOverloadedError(chainId);
        // The slot is handed over by `release`, so inFlight stays counted.
        await new Promise<void>((resolve) => waiting.push(resolve));
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
