// `quoter quote … --watch`: the live stream of one quote on the command line. Each event the API's stream sends
// (`quote`, `error`, `end`) is a line of JSON, `{"event", "id"?, "data"}`, with the same data; Ctrl-C ends it.
import { errorWithStatus } from "../http/httpErrors.ts";
import type { AnyQuoteRequest } from "../quote/positionRequest.ts";
import type { ChainFollow, Quoter } from "../service/api.ts";
import { createLiveQuotes, type LiveEvent } from "../service/liveQuotes.ts";

/** One line per event, in the stream's words. */
export function eventLine(event: LiveEvent): string {
  if (event.type === "end") return JSON.stringify({ event: "end", data: { reason: event.reason } });
  if (event.type === "batch") throw new TypeError("the command watches one quote, never a batch");
  const id = event.blockNumber === undefined ? {} : { id: event.blockNumber.toString() };
  const data = event.type === "quote" ? event.body : errorWithStatus(event.error);
  return JSON.stringify({ event: event.type, ...id, data });
}

/**
 * Prints the quote's events until its market ends the watch, or SIGINT / SIGTERM; resolves then (exit status 0:
 * an error event is an answer of the stream, not the command's failure).
 */
export function watchQuote(quoter: Quoter & { follow(chainId: number): ChainFollow | undefined }, request: AnyQuoteRequest, print: (line: string) => void): Promise<void> {
  const live = createLiveQuotes({ quoter });
  return new Promise((resolve) => {
    // The follower's timers do not hold a process open (a service closes them): the watch does, until it stops.
    const alive = setInterval(() => undefined, 2 ** 30);
    const stop = () => {
      clearInterval(alive);
      unwatch();
      live.close();
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, stop);
      resolve();
    };
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, stop);
    const unwatch = live.watch(request, (event) => {
      print(eventLine(event));
      if (event.type === "end") stop();
    });
  });
}
