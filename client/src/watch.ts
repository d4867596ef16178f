// A live stream read over fetch (EventSource cannot POST a batch, send headers, or exist on Node): the response's
// body fed to eventsource-parser, its `quote`, `error` and `end` events yielded in order, and the connection
// opened again after a drop, a shutdown or a 429/5xx, with backoff. The service sends the answer at its current
// head first on every new connection, so nothing that changed while disconnected goes unseen. Whatever goes wrong
// is a QuoterError or a QuoterNetworkError (the abort of the caller's own signal aside, which rejects with its
// reason): anything else that escapes a step (a request that cannot be made, a malformed event, a fetch that answers
// something else than a Response) is wrapped in a QuoterNetworkError and thrown, never retried.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { QuoterError, QuoterNetworkError, errorOf } from "./errors.js";
import { abortable, finalError, isFinal, send, sleep, type Connection, type Sent } from "./http.js";
import type { LiveEvent, WatchOptions } from "./types.js";

const DEFAULT_INITIAL_DELAY_MS = 1_000;
const DEFAULT_MAX_DELAY_MS = 30_000;
/** Two keep-alive comments (one every 15 s of silence) missed, and some slack. */
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

type Reconnect = Omit<Extract<LiveEvent<unknown>, { type: "reconnecting" }>, "type" | "attempt" | "delayMs"> & { retryAfter?: number };

/** Statuses worth trying again: the limit of streams (429) and the service or its chain being unavailable. */
const retriable = (status: number) => status === 429 || status === 502 || status === 503 || status === 504;

/**
 * The events of the stream `request()` asks for (made at the first `next()`, so that a request that cannot be made
 * rejects it too), reconnecting until it ends or `options.signal` aborts.
 */
export async function* watchStream<Answer>(connection: Connection, request: () => Omit<Sent, "accept">, options: WatchOptions): AsyncGenerator<LiveEvent<Answer>, void, undefined> {
  let sent: Omit<Sent, "accept">;
  try {
    sent = request();
  } catch (error) {
    throw finalError(new QuoterNetworkError(`${connection.base}/quoter`, "the request could not be made", error));
  }
  const { signal, retry = {} } = options;
  const initialDelayMs = retry.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  const maxDelayMs = retry.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const state = { attempt: 0, serverRetryMs: undefined as number | undefined };
  for (;;) {
    let reconnect: Reconnect;
    try {
      const response = await open(connection, sent, options);
      const stream = readEvents<Answer>(response, sent.url, options, state);
      let outcome: "ended" | "shutdown" | "dropped";
      try {
        for (;;) {
          const next = await stream.next();
          if (next.done) {
            outcome = next.value;
            break;
          }
          yield next.value;
        }
      } finally {
        // A `return()` of this generator (a `break` of its reader) closes the connection too.
        await stream.return("dropped");
      }
      if (outcome === "ended") return;
      reconnect = { reason: outcome };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof QuoterError && retriable(error.status)) reconnect = { reason: "unavailable", error, ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }) };
      else if (error instanceof QuoterNetworkError && !isFinal(error)) reconnect = { reason: "network", error };
      else if (error instanceof QuoterError || error instanceof QuoterNetworkError) throw error;
      else throw new QuoterNetworkError(sent.url, "the stream could not be read", error);
    }
    state.attempt++;
    if (retry.maxAttempts !== undefined && state.attempt > retry.maxAttempts) throw reconnect.error ?? new QuoterNetworkError(sent.url, "the stream kept dropping");
    // Doubling from the server's hint (or ours), within the bound; never sooner than a Retry-After asks.
    const base = state.serverRetryMs ?? initialDelayMs;
    const backoff = Math.min(maxDelayMs, base * 2 ** Math.min(state.attempt - 1, 30));
    const delayMs = Math.max(backoff, (reconnect.retryAfter ?? 0) * 1000);
    const { retryAfter: _retryAfter, ...said } = reconnect;
    yield { type: "reconnecting", attempt: state.attempt, delayMs, ...said };
    await sleep(delayMs, signal);
  }
}

/** The stream's response: a 2xx event stream, else the QuoterError of its status. */
async function open(connection: Connection, sent: Omit<Sent, "accept">, options: WatchOptions): Promise<Response> {
  const response = await send(connection, { ...sent, accept: "text/event-stream" }, options);
  if (response.ok) {
    const type = response.headers.get("content-type") ?? "";
    if (type.startsWith("text/event-stream")) return response;
    // A service that does not follow this chain's head answers the plain JSON: asking again would not change it.
    void response.body?.cancel().catch(() => undefined);
    throw finalError(new QuoterNetworkError(sent.url, `no live stream: the service answered ${type || "no content type"}`));
  }
  const text = await abortable(response.text(), options.signal).catch((error: unknown) => {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new QuoterNetworkError(sent.url, "the answer broke off", error);
  });
  throw errorOf(response, text);
}

/**
 * The events of one connection; returns `ended` after an `end` (settled, expired), `shutdown` after the service's
 * own end, `dropped` when the connection closed or stayed silent past the idle timeout.
 */
async function* readEvents<Answer>(
  response: Response,
  url: string,
  options: WatchOptions,
  state: { attempt: number; serverRetryMs: number | undefined },
): AsyncGenerator<LiveEvent<Answer>, "ended" | "shutdown" | "dropped", undefined> {
  const { signal, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS } = options;
  if (response.body === null) return "dropped";
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => queue.push(message), onRetry: (ms) => (state.serverRetryMs = ms) });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const read = await abortable(withinIdle(reader.read(), idleTimeoutMs), signal).catch((error: unknown) => {
        if (signal?.aborted) throw signal.reason;
        return { done: true as const, value: undefined, error };
      });
      if (read.done) return "dropped";
      parser.feed(decoder.decode(read.value, { stream: true }));
      while (queue.length > 0) {
        const event = toEvent<Answer>(queue.shift()!, url);
        if (event === undefined) continue;
        state.attempt = 0;
        if (event.type === "end" && event.reason === "shutdown") return "shutdown";
        yield event as LiveEvent<Answer>;
        if (event.type === "end") return "ended";
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** `read`, or a rejection once the connection has been silent for `ms`. */
function withinIdle<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no byte for ${ms} ms`)), ms)));
  return Promise.race([read, silent]).finally(() => clearTimeout(timer));
}

type WireEvent<Answer> = Exclude<LiveEvent<Answer>, { type: "end" | "reconnecting" }> | { type: "end"; reason: string };

/** A message as the event it is; undefined for an event type this client does not know (a newer service's). */
function toEvent<Answer>(message: EventSourceMessage, url: string): WireEvent<Answer> | undefined {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (error) {
    throw new QuoterNetworkError(url, `a ${message.event ?? "message"} event whose data is not JSON`, error);
  }
  switch (message.event) {
    case "quote":
      return { type: "quote", answer: data as Answer, blockNumber: message.id };
    case "error":
      return { type: "error", answer: data as Extract<LiveEvent<Answer>, { type: "error" }>["answer"], blockNumber: message.id };
    case "end": {
      const reason = (data as { reason?: unknown } | null)?.reason;
      if (typeof reason !== "string") throw new QuoterNetworkError(url, "an end event without a reason");
      return { type: "end", reason };
    }
    default:
      return undefined;
  }
}
