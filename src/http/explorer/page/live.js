// The explorer's Live switch: the quote's live stream through the client's `watch` (fetch with Accept:
// text/event-stream, read by eventsource-parser), each `quote` or `error` event handed on as an answer with the block
// it is at, until the server ends the stream or the page stops it: at the next quote, or when the switch is turned
// off. The client reconnects by itself after a drop or a restart of the service, and says so.
import { outcome, quoter } from "./api.js";
import { $ } from "./dom.js";

/** How to stop the stream running; nothing to stop before the first. */
let stopRunning = () => {};

/** Stops the stream running, if any: the last answer it showed stays. */
export function stopLive() {
  stopRunning();
}

/** Turning the switch off stops the stream. */
export function followLiveSwitch() {
  $("live").addEventListener("change", () => {
    if (!$("live").checked) stopLive();
  });
}

/** Streams `request` (its `quote` and `options`) in place of the stream running, if any: see {@link watchLive}. */
export function startLive(request, handlers) {
  stopRunning();
  stopRunning = watchLive(request, handlers);
}

/**
 * Watches the quote: `onAnswer({ status, ok, body, block })` on each event (and for a stream the service refused,
 * its error), `onReconnecting({ attempt, delayMs, reason })` while the connection is made again, `onEnd(reason)`
 * once the server ended the stream (`settled`, `expired`) or it failed. Returns the way to stop.
 */
function watchLive({ quote, options }, { onAnswer, onReconnecting, onEnd }) {
  const controller = new AbortController();
  const follow = async () => {
    for await (const event of quoter.watch(quote, { ...options, signal: controller.signal })) {
      if (event.type === "quote") onAnswer({ status: 200, ok: true, body: event.answer, block: event.blockNumber });
      else if (event.type === "error") {
        const { status, ...body } = event.answer;
        onAnswer({ status, ok: false, body, block: event.blockNumber });
      } else if (event.type === "reconnecting") onReconnecting(event);
      else onEnd(event.reason);
    }
  };
  void outcome(follow).then((ended) => {
    if (ended.ok || controller.signal.aborted) return;
    // Refused before it started (a bad parameter: the GET's 4xx) or given up: the refusal is the answer to show.
    if (ended.status !== "network") onAnswer({ ...ended, block: undefined });
    onEnd(ended.status === "network" ? "connection" : "refused");
  });
  return () => controller.abort();
}
