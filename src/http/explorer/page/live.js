// The explorer's Live switch: the quote's live stream (the same URL asked with Accept: text/event-stream, which
// EventSource sends), each `quote` or `error` event handed on as an answer with the block it is at, until the
// server ends the stream or the page stops it. EventSource tells its own connection errors on the `error`
// listener too: only the server's `error` events carry data.

/**
 * Watches `url`: `onAnswer({ status, ok, body, block })` on each event, `onEnd(reason)` once the server ended
 * the stream (`settled`, `expired`, `shutdown`) or it failed (`connection`). Returns the way to stop.
 */
export function watchLive(url, onAnswer, onEnd) {
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
