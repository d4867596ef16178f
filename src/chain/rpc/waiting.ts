// The waits of the head follower and of the quotes on it. Each ends at the first of what it waits for (a wake-up, a
// delay, an abort) and then leaves nothing behind, whichever side ended it: its timer cleared, its abort listener
// removed, its wake-up forgotten. A quote races such waits in loops against one signal, and a service runs for
// weeks: a wait that left its listener on the signal, or a reaction on a long-lived promise, would add one at each
// turn.

/** Waiters to wake at once (the head moved): each is forgotten as soon as its wait ends, woken or not. */
export class Wakers {
  private readonly waiting = new Set<() => void>();

  /** `wake` is called at the next {@link wakeAll}; returns the way to forget it before. */
  add(wake: () => void): () => void {
    this.waiting.add(wake);
    return () => this.waiting.delete(wake);
  }

  wakeAll(): void {
    const woken = [...this.waiting];
    this.waiting.clear();
    for (const wake of woken) wake();
  }

  /** Waiters now: none once every wait ended. */
  get size(): number {
    return this.waiting.size;
  }
}

export interface WaitOptions {
  /** Ends the wait (resolved) after this many ms. */
  readonly ms?: number;
  /** Ends the wait (resolved) when they are woken. */
  readonly wakers?: Wakers;
  /** Ends the wait when it aborts (at once if it already has): rejected with its reason, or resolved with `onAbort: "resolve"`. */
  readonly signal?: AbortSignal | undefined;
  readonly onAbort?: "reject" | "resolve";
}

/** Resolves at the first of `ms` passing or `wakers` waking; an abort of `signal` ends it too (see {@link WaitOptions}). */
export function wait({ ms, wakers, signal, onAbort = "reject" }: WaitOptions): Promise<void> {
  if (signal?.aborted) return onAbort === "reject" ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const end = (aborted: boolean) => {
      clearTimeout(timer);
      forget?.();
      signal?.removeEventListener("abort", abort);
      if (aborted && onAbort === "reject") reject(signal!.reason);
      else resolve();
    };
    const abort = () => end(true);
    const done = () => end(false);
    const forget = wakers?.add(done);
    signal?.addEventListener("abort", abort, { once: true });
    if (ms !== undefined) {
      timer = setTimeout(done, ms);
      timer.unref(); // a wait never keeps the process alive
    }
  });
}

/**
 * Settles as `promise` does, or rejects with the signal's reason as soon as it aborts (at once if it already has);
 * its abort listener is removed either way. For a shared read that a quote may stop waiting for.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined); // its own outcome, after the abort, is no one's news
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/**
 * One signal per task of a batch, each aborted with `signal`, through a single listener on it: a batch of many quotes
 * puts one listener on its request's signal, not one per quote (and each quote's own waits listen to its own).
 * `done` removes that listener and aborts the tasks' signals: once the batch is answered (or failed), a task still
 * running stops as at its deadline.
 */
export function signalsFor(signal: AbortSignal, count: number): { readonly signals: AbortSignal[]; done(): void } {
  const controllers = Array.from({ length: count }, () => new AbortController());
  const abort = () => {
    for (const controller of controllers) controller.abort(signal.reason);
  };
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  return {
    signals: controllers.map((controller) => controller.signal),
    done() {
      signal.removeEventListener("abort", abort);
      for (const controller of controllers) controller.abort();
    },
  };
}
