// One request to the service over fetch: its URL, its headers, and its answer read as JSON, a QuoterError or a
// QuoterNetworkError; every wait raced against the call's signal, so that an abort rejects at once.
import { errorOf, QuoterNetworkError } from "./errors.js";
import type { CallOptions } from "./types.js";

/** What a client holds: where the service is, how to fetch, the headers of every request. */
export interface Connection {
  /** The service's address with no trailing slash; the routes are under its /quoter. */
  readonly base: string;
  readonly fetch: typeof fetch;
  readonly headers: Readonly<Record<string, string>>;
}

type Params = Readonly<Record<string, string | undefined>>;

/**
 * Network errors that asking again cannot mend (a request that cannot be made, a 2xx that is not what was asked
 * for): a live stream throws them instead of reconnecting.
 */
const final = new WeakSet<QuoterNetworkError>();

/** `error`, marked as one a live stream does not retry. */
export function finalError(error: QuoterNetworkError): QuoterNetworkError {
  final.add(error);
  return error;
}

export const isFinal = (error: QuoterNetworkError): boolean => final.has(error);

/** A lone surrogate (no character at all) as U+FFFD, as URLSearchParams writes it: encodeURIComponent would throw. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

/**
 * `/quoter/<path segments>?<query>` on the service: each segment percent-encoded, the query in the order given
 * (a value of undefined left out), `minBlock` last.
 */
export function urlOf(connection: Connection, segments: readonly string[], query: Params, minBlock?: string | bigint): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, value);
  if (minBlock !== undefined) search.set("minBlock", String(minBlock));
  const text = search.toString();
  return `${connection.base}/quoter/${segments.map((segment) => encodeURIComponent(wellFormed(segment))).join("/")}${text === "" ? "" : `?${text}`}`;
}

/** Settles as `promise` does, or rejects with the signal's reason as soon as it aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined); // its own failure, after the abort, is no news
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(signal.aborted ? signal.reason : error)),
    );
  });
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return abortable(waited, signal).finally(() => clearTimeout(timer));
}

export interface Sent {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly accept: "application/json" | "text/event-stream";
  readonly body?: unknown;
}

/**
 * Sends a request; its response whatever the status. A fetch that fails is a QuoterNetworkError; so is a request
 * that cannot be made (a header value fetch refuses, a body JSON cannot write), marked {@link finalError}.
 */
export async function send(connection: Connection, sent: Sent, options: CallOptions): Promise<Response> {
  const { signal } = options;
  signal?.throwIfAborted();
  let init: RequestInit;
  try {
    const headers = new Headers(connection.headers);
    headers.set("accept", sent.accept);
    if (options.noCache) headers.set("cache-control", "no-cache");
    if (sent.body !== undefined) headers.set("content-type", "application/json");
    init = { method: sent.method, headers, ...(signal ? { signal } : {}) };
    if (sent.body !== undefined) init.body = JSON.stringify(sent.body);
  } catch (error) {
    throw finalError(new QuoterNetworkError(sent.url, "the request could not be made", error));
  }
  try {
    return await abortable(connection.fetch(sent.url, init), signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new QuoterNetworkError(sent.url, "the service could not be reached", error);
  }
}

/** A JSON call: the 2xx answer's body, or the QuoterError of any other status. */
export async function callJson<T>(connection: Connection, sent: Omit<Sent, "accept">, options: CallOptions): Promise<T> {
  const response = await send(connection, { ...sent, accept: "application/json" }, options);
  let text: string;
  try {
    text = await abortable(response.text(), options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new QuoterNetworkError(sent.url, "the answer broke off", error);
  }
  if (!response.ok) throw errorOf(response, text);
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new QuoterNetworkError(sent.url, `a ${response.status} answer that is not JSON`, error);
  }
}
