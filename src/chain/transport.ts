// JSON-RPC over HTTP for every request the quoter sends: one JSON-RPC 2.0 request per POST, through undici's
// keep-alive connection pool (its `request` API), the answer read whole as JSON. A quote is one to a few POSTs to
// the same node, so what matters is the CPU of each round trip. viem's http transport, on fetch or on the same pool,
// cost about two and a half times as much (its fetch Response and web streams, and an error object printing the
// whole request for every reverting call, which the searcher always is): bench/transport.ts measures them.
import { EventEmitter } from "node:events";
import { Agent, interceptors, request } from "undici";

/** Bytes of one JSON-RPC answer past which it is not read (a searcher's facts are a few KB). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Redirects followed per request: a provider that moved its endpoint answers 307 or 308, as fetch would follow. */
const MAX_REDIRECTIONS = 3;

/** One pool of keep-alive connections per origin, shared by every endpoint of the process. */
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256, maxResponseSize: MAX_RESPONSE_BYTES }).compose(
  interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }),
);

/** The `error` member of a JSON-RPC answer: the node answered, and said no. */
export interface JsonRpcError {
  /** Absent when the node sent none (JSON-RPC requires one; some nodes still omit it). */
  readonly code: number | undefined;
  readonly message: string;
  readonly data?: unknown;
}

/** A JSON-RPC answer: its `result`, or its `error`. */
export type JsonRpcAnswer = { readonly result: unknown; readonly error?: undefined } | { readonly error: JsonRpcError };

/**
 * The request got no JSON-RPC answer: the connection failed or timed out, the HTTP status was not 2xx, or the body
 * was not a JSON-RPC answer. `reason` names which and is safe to log: it never holds the URL.
 */
export class RpcTransportError extends Error {
  override name = "RpcTransportError";
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

/** Where one endpoint's requests go: the URL without credentials, and the headers that carry them. */
export interface RpcTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The most one request may take, answer read included, in milliseconds. */
  readonly timeoutMs: number;
}

/**
 * The headers of every request, a user agent among them as fetch (under viem's transport) sent one: bot filters in
 * front of an endpoint may refuse a request without it.
 */
const HEADERS = { "content-type": "application/json", accept: "application/json", "user-agent": "quoter" } as const;

/** A URL's `user:password@`, if any, becomes HTTP Basic authentication, as browsers and viem send it. */
export function rpcTarget(url: string, timeoutMs: number): RpcTarget {
  const headers: Record<string, string> = { ...HEADERS };
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed?.username) return { url, headers, timeoutMs };
  headers.authorization = `Basic ${btoa(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`)}`;
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.toString(), headers, timeoutMs };
}

let lastId = 0;

/** Sends one JSON-RPC request; an answered `error` is returned, every failure to get an answer throws {@link RpcTransportError}. */
export async function postJsonRpc(target: RpcTarget, method: string, params: readonly unknown[]): Promise<JsonRpcAnswer> {
  // undici takes an EventEmitter as the abort signal (documented): with a plain timer it costs about 0.5 µs of
  // CPU per request, where AbortSignal.timeout and its listener cost 13-16 µs (measured side by side).
  const abort = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.emit("abort");
  }, target.timeoutMs);
  let status: number;
  let text: string;
  try {
    const answer = await request(target.url, {
      method: "POST",
      headers: target.headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++lastId, method, params }),
      signal: abort,
      dispatcher: agent,
    });
    status = answer.statusCode;
    text = await answer.body.text();
  } catch (error) {
    const reason = timedOut ? `timed out after ${target.timeoutMs} ms` : `request failed (${failureCode(error)})`;
    throw new RpcTransportError(reason, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return readAnswer(status, text);
}

/** The answer of a 2xx response whose body is one JSON-RPC answer; anything else is the transport's failure. */
function readAnswer(status: number, text: string): JsonRpcAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const error = errorMember(body);
  if (status < 200 || status > 299) {
    throw new RpcTransportError(error ? `JSON-RPC error ${error.code} (HTTP ${status})` : `HTTP ${status}`);
  }
  if (error) return { error };
  if (body !== null && typeof body === "object" && "result" in body) return { result: body.result };
  throw new RpcTransportError(body === undefined ? "the answer is not JSON" : "the answer is not a JSON-RPC answer");
}

function errorMember(body: unknown): JsonRpcError | undefined {
  if (body === null || typeof body !== "object" || !("error" in body)) return undefined;
  const error = body.error;
  if (error === null || typeof error !== "object") return undefined;
  const { code, message, data } = error as Record<string, unknown>;
  return { code: typeof code === "number" ? code : undefined, message: typeof message === "string" ? message : "", data };
}

/** undici's error code (`ECONNREFUSED`, `UND_ERR_SOCKET`…) or the error's name: never its message, which may hold the URL. */
function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.name : "unknown failure";
}
