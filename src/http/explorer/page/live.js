// The explorer's Live switch: the quote's live stream (the same URL asked with Accept: text/event-stream, which
// EventSource sends), each `quote` or `error` event handed on as an answer with the block it is at, until the
// server ends the stream or the page stops it: at the next quote, or when the switch is turned off. EventSource
// tells its own connection errors on the `error` listener too: only the server's `error` events carry data.
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

/** Streams `url` in place of the stream running, if any: see {@link watchLive}. */
export function startLive(url, onAnswer, onEnd) {
  stopRunning();
  stopRunning = watchLive(url, onAnswer, onEnd);
}

/**
 * Watches `url`: `onAnswer({ status, ok, body, block })` on each event, `onEnd(reason)` once the server ended
 * the stream (`settled`, `expired`, `shutdown`) or it failed (`connection`). Returns the way to stop.
 */
function watchLive(url, onAnswer, onEnd) {
  const source = new EventSource(url);
  source.addEventListener("quote", (event) => onAnswer({ status: 200, ok: true, body: JSON.parse(event.data), block: event.lastEventId }));
  source.addEventListener("error", (event) => {
    if (event.data === undefined) {
      // The connection: EventSource retries by itself unless the server refused the stream (a 4xx, a 429).
      if (source.readyState === EventSource.CLOSED) onEnd("connection");
      return;
    }
    const { status, ...body } = JSON.parse(event.data);
    onAnswer({ status, ok: false, body, block: event.lastEventId });
  });
  source.addEventListener("end", (event) => {
    source.close();
    onEnd(JSON.parse(event.data).reason);
  });
  return () => source.close();
}
