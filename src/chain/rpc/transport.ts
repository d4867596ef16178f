// JSON-RPC over HTTP for every request the quoter sends: one JSON-RPC 2.0 request per POST, through undici's
// keep-alive connection pool (its `request` API), the answer read whole as JSON. A quote is one to a few POSTs to
// the same node, so what matters is the CPU of each round trip. viem's http transport, on fetch or on the same pool,
// cost about two and a half times as much (its fetch Response and web streams, and an error object printing the
// whole request for every reverting call, which the searcher always is): bench/transport.ts measures them.
import { QuoterError } from "../../quote/quoterError.ts";
import { EventEmitter } from "node:events";
import { Agent, interceptors, request, type Dispatcher } from "undici";

/** Bytes of one JSON-RPC answer past which it is not read unless configured otherwise (a searcher's facts are a few KB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Redirects followed per request: a provider that moved its endpoint answers 307 or 308, as fetch would follow. */
const MAX_REDIRECTIONS = 3;

/** One pool of keep-alive connections per origin, shared by every endpoint of the process. */
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256 }).compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));

/** How long an endpoint rests after a rate-limit answer that names no time (`Retry-After`), in ms. */
export const DEFAULT_REST_MS = 1_000;
/** The longest rest an endpoint's `Retry-After` can ask for, in ms: a wrong header must not silence it for days. */
export const MAX_REST_MS = 10 * 60_000;

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
export class RpcTransportError extends QuoterError {
  /** The endpoint said it is rate limiting us (HTTP 429, or a JSON-RPC rate-limit error): rest it this long, in ms. */
  readonly restMs: number | undefined;
  constructor(
    readonly reason: string,
    options?: { cause?: unknown; restMs?: number },
  ) {
    super("rpc-transport", reason, options?.cause === undefined ? {} : { cause: options.cause });
    this.restMs = options?.restMs;
  }
}

/** Where one endpoint's requests go: the URL without credentials, and the headers that carry them. */
export interface RpcTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The most one request may take, answer read included, in milliseconds. */
  readonly timeoutMs: number;
  /** The most bytes one answer may have: beyond, it is cut off unread and the request has failed. */
  readonly maxResponseBytes: number;
}

/**
 * The headers of every request, a user agent among them as fetch (under viem's transport) sent one: bot filters in
 * front of an endpoint may refuse a request without it.
 */
const HEADERS = { "content-type": "application/json", accept: "application/json", "user-agent": "quoter" } as const;

/** A URL's `user:password@`, if any, becomes HTTP Basic authentication, as browsers and viem send it. */
export function rpcTarget(url: string, timeoutMs: number, maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES): RpcTarget {
  const headers: Record<string, string> = { ...HEADERS };
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed?.username) return { url, headers, timeoutMs, maxResponseBytes };
  headers.authorization = `Basic ${btoa(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`)}`;
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.toString(), headers, timeoutMs, maxResponseBytes };
}

let lastId = 0;

/**
 * Sends one JSON-RPC request; an answered `error` is returned, every failure to get an answer throws
 * {@link RpcTransportError}. `signal`: the request is abandoned when it aborts (the quote's deadline passed).
 */
export async function postJsonRpc(target: RpcTarget, method: string, params: readonly unknown[], signal?: AbortSignal): Promise<JsonRpcAnswer> {
  // undici takes an EventEmitter as the abort signal (documented): with a plain timer it costs about 0.5 µs of
  // CPU per request, where AbortSignal.timeout and its listener cost 13-16 µs (measured side by side).
  const abort = new EventEmitter();
  let why: "timeout" | "abandoned" | undefined;
  const stop = (reason: "timeout" | "abandoned") => {
    why ??= reason;
    abort.emit("abort");
  };
  const timer = setTimeout(() => stop("timeout"), target.timeoutMs);
  const abandon = () => stop("abandoned");
  signal?.addEventListener("abort", abandon, { once: true });
  let status: number;
  let text: string;
  let retryAfter: string | undefined;
  try {
    if (signal?.aborted) throw new RpcTransportError("abandoned: the quote's deadline passed");
    const answer = await request(target.url, {
      method: "POST",
      headers: target.headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++lastId, method, params }),
      signal: abort,
      dispatcher: agent,
    });
    status = answer.statusCode;
    retryAfter = headerText(answer.headers["retry-after"]);
    text = await readBounded(answer.body, answer.headers["content-length"], target.maxResponseBytes);
  } catch (error) {
    if (error instanceof RpcTransportError) throw error;
    const reason =
      why === "timeout"
        ? `timed out after ${target.timeoutMs} ms`
        : why === "abandoned"
          ? "abandoned: the quote's deadline passed"
          : `request failed (${failureCode(error)})`;
    throw new RpcTransportError(reason, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abandon);
  }
  return readAnswer(status, text, retryAfter);
}

/** A response body as text, read chunk by chunk and cut off (the connection dropped) past `maxBytes`. */
async function readBounded(body: Dispatcher.ResponseData["body"], contentLength: string | string[] | undefined, maxBytes: number): Promise<string> {
  const tooLarge = () => new RpcTransportError(`the answer is larger than ${maxBytes} bytes (RPC_MAX_RESPONSE_BYTES)`);
  const declared = Number(headerText(contentLength));
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, bytes).toString("utf8");
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * How long an endpoint asks to be left alone, from its `Retry-After` (delay-seconds or an HTTP date), in ms;
 * {@link DEFAULT_REST_MS} when it names none or nothing readable, at most {@link MAX_REST_MS}.
 */
export function restFromRetryAfter(value: string | undefined, now: number = Date.now()): number {
  const text = value?.trim() ?? "";
  let ms: number | undefined;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (text !== "") {
    const at = Date.parse(text);
    if (Number.isFinite(at)) ms = Math.max(0, at - now);
  }
  return Math.min(ms ?? DEFAULT_REST_MS, MAX_REST_MS);
}

/**
 * JSON-RPC errors that say "too many requests": EIP-1474's -32005 (limit exceeded), the 429 some providers put in
 * the code, and their words for it.
 */
const RATE_LIMIT_CODES = new Set([-32005, 429, -32029, -32090]);
const RATE_LIMIT_WORDS = /rate.?limit|too many requests|request limit|exceeded .*(capacity|limit|per second)|limit exceeded/i;

export function isRateLimitError(error: JsonRpcError): boolean {
  return (error.code !== undefined && RATE_LIMIT_CODES.has(error.code)) || RATE_LIMIT_WORDS.test(error.message);
}

/**
 * The answer of a 2xx response whose body is one JSON-RPC answer; anything else is the transport's failure. An
 * HTTP 429 or a JSON-RPC rate-limit error is a failure that rests the endpoint (`Retry-After`, or a default).
 */
function readAnswer(status: number, text: string, retryAfter: string | undefined): JsonRpcAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const error = errorMember(body);
  const rateLimited = status === 429 || (error !== undefined && isRateLimitError(error));
  const rest = rateLimited ? { restMs: restFromRetryAfter(retryAfter) } : {};
  if (status < 200 || status > 299) {
    throw new RpcTransportError(error ? `JSON-RPC error ${error.code} (HTTP ${status})` : `HTTP ${status}`, rest);
  }
  if (error && rateLimited) throw new RpcTransportError(`JSON-RPC error ${error.code} (rate limited)`, rest);
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
