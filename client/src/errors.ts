// The two ways a call fails besides an abort (which rejects with the signal's reason): the service answered
// something else than a 2xx (QuoterError, with its body), or no answer could be had or read (QuoterNetworkError).
import type { ErrorBody, ErrorDetail } from "./types.js";

/** The service answered a status other than 2xx: its `{ error, details }` body, and Retry-After when it sent one. */
export class QuoterError extends Error {
  /** The HTTP status (400, 404, 429, 503, …). */
  readonly status: number;
  /** The service's fixed message (`Invalid query parameters`, `Chain RPC unavailable`, …): safe to match on. */
  readonly error: string;
  /** What to change, one entry per parameter at fault; empty when the body was not the service's JSON. */
  readonly details: readonly ErrorDetail[];
  /** Seconds to wait before trying again, from the Retry-After header (sent with 429 and 503); else undefined. */
  readonly retryAfter: number | undefined;
  /** The whole body as sent (a search failure asked with trace=true carries its `trace`); undefined if not JSON. */
  readonly body: ErrorBody | undefined;

  constructor(status: number, body: ErrorBody | undefined, retryAfter: number | undefined, statusText = "") {
    const error = body?.error ?? (statusText || `HTTP ${status}`);
    const first = body?.details[0];
    super(`${status} ${error}${first ? ` (${first.param}: ${first.message})` : ""}`);
    this.status = status;
    this.error = error;
    this.details = body?.details ?? [];
    this.retryAfter = retryAfter;
    this.body = body;
  }
}

/** No answer: the service could not be reached, the connection failed, or what came back could not be read. */
export class QuoterNetworkError extends Error {
  /** The URL asked. */
  readonly url: string;

  constructor(url: string, message: string, cause?: unknown) {
    super(`${message}: ${url}`, cause === undefined ? undefined : { cause });
    this.url = url;
  }
}

// On the prototypes, so that a stack trace's first line names the class too (a field is set after it is taken).
for (const [kind, name] of [[QuoterError, "QuoterError"], [QuoterNetworkError, "QuoterNetworkError"]] as const) {
  Object.defineProperty(kind.prototype, "name", { value: name, configurable: true, writable: true });
}

/** A Retry-After header as seconds: a number of seconds, or an HTTP date from now (never below 0). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The QuoterError of a non-2xx answer whose body is `text`. */
export function errorOf(response: Response, text: string): QuoterError {
  let body: ErrorBody | undefined;
  try {
    const parsed = JSON.parse(text) as Partial<ErrorBody> | null;
    if (parsed !== null && typeof parsed.error === "string" && Array.isArray(parsed.details)) body = parsed as ErrorBody;
  } catch {
    // Not the service's JSON (a proxy's page): the status alone.
  }
  return new QuoterError(response.status, body, retryAfterSeconds(response.headers.get("retry-after")), response.statusText);
}
