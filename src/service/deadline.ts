// The most one quote may take, every endpoint included: past it the quote is answered (a 503), and the search
// it abandons stops making calls.
import { QuoterError } from "../quote/quoterError.ts";

/** The deadline of a quote passed: the chain did not answer in time. */
export class QuoteDeadlineError extends QuoterError {
  constructor(ms: number) {
    super("quote-deadline", `the quote's deadline of ${ms} ms passed`);
  }
}

/**
 * `task`'s answer, or {@link QuoteDeadlineError} once `ms` have passed. At the deadline `task`'s signal aborts,
 * so that the abandoned work makes no further call; its own outcome is then ignored.
 */
export async function withDeadline<T>(ms: number, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const abandon = new AbortController();
  const deadline = new Promise<never>((_, reject) => {
    // Rejected before the abort: a task that fails on the abort at once must not answer in the deadline's place.
    timer = setTimeout(() => {
      reject(new QuoteDeadlineError(ms));
      abandon.abort();
    }, ms);
  });
  try {
    const answer = task(abandon.signal);
    answer.catch(() => {}); // its rejection after the deadline is expected and already answered
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
