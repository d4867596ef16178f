// The errors a quote can end in, with the statuses and messages of the interface's error table
// and semantics §6. Every body is `{ error, details? }`, plus extra fields such as `trace` (§7).

export type ErrorDetail = { param: string; message: string };

export type ErrorBody = { error: string; details?: ErrorDetail[] } & Record<string, unknown>;

export type QuoteErrorOptions = {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  /** Further body fields after `error` and `details`, e.g. `trace` on a search failure (§7). */
  extra?: Record<string, unknown>;
};

export const MESSAGES = {
  invalidQuery: "Invalid query parameters",
  invalidPath: "Invalid path parameters",
  expectedPriceNotPositive: "Expected price must be greater than 0",
  expectedPriceEqualsCurrent: "Expected price must be different from current price",
  noValidSize: "Could not find a valid position size that satisfies the price constraints",
  insufficientLiquidity: "Insufficient liquidity. Try a smaller size.",
  marketNotFound: "Market not found",
  currentPriceNotFound: "Current price not found",
  marketSettled: "Market is settled",
  rpcUnavailable: "Chain RPC unavailable",
  internal: "Internal server error",
  notFound: "Not found",
  methodNotAllowed: "Method not allowed",
  tooManyRequests: "Too many requests",
  uriTooLong: "URI too long",
} as const;

/** Seconds a client is asked to wait after a 503 when the caller names no other value. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

export class QuoteError extends Error {
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(status: number, message: string, options: QuoteErrorOptions = {}) {
    super(message);
    this.name = "QuoteError";
    this.status = status;
    // An empty list says nothing: the body then has no details at all.
    if (options.details !== undefined && options.details.length > 0) this.details = options.details;
    if (options.headers !== undefined) this.headers = options.headers;
    if (options.extra !== undefined) this.extra = options.extra;
  }

  /** The JSON body: `error`, then `details` when present, then any extra fields. */
  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.message };
    if (this.details !== undefined) body.details = this.details.map((d) => ({ param: d.param, message: d.message }));
    for (const [key, value] of Object.entries(this.extra ?? {})) {
      if (key !== "error" && key !== "details") body[key] = value;
    }
    return body;
  }
}

export function invalidPathParameters(details: ErrorDetail[]): QuoteError {
  return new QuoteError(400, MESSAGES.invalidPath, { details });
}

export function invalidQueryParameters(details: ErrorDetail[]): QuoteError {
  return new QuoteError(400, MESSAGES.invalidQuery, { details });
}

export function expectedPriceNotPositive(): QuoteError {
  return new QuoteError(400, MESSAGES.expectedPriceNotPositive);
}

export function expectedPriceEqualsCurrent(details?: ErrorDetail[]): QuoteError {
  return new QuoteError(400, MESSAGES.expectedPriceEqualsCurrent, { details });
}

export function noValidSize(options: Pick<QuoteErrorOptions, "details" | "extra"> = {}): QuoteError {
  return new QuoteError(400, MESSAGES.noValidSize, options);
}

export function insufficientLiquidity(options: Pick<QuoteErrorOptions, "details" | "extra"> = {}): QuoteError {
  return new QuoteError(400, MESSAGES.insufficientLiquidity, options);
}

export function marketNotFound(details?: ErrorDetail[]): QuoteError {
  return new QuoteError(404, MESSAGES.marketNotFound, { details });
}

export function currentPriceNotFound(details?: ErrorDetail[]): QuoteError {
  return new QuoteError(404, MESSAGES.currentPriceNotFound, { details });
}

export function marketSettled(): QuoteError {
  return new QuoteError(400, MESSAGES.marketSettled);
}

export function rpcUnavailable(retryAfterSeconds: number = DEFAULT_RETRY_AFTER_SECONDS, details?: ErrorDetail[]): QuoteError {
  return new QuoteError(503, MESSAGES.rpcUnavailable, { headers: { "Retry-After": String(retryAfterSeconds) }, details });
}

export function internalError(): QuoteError {
  return new QuoteError(500, MESSAGES.internal);
}

export function routeNotFound(): QuoteError {
  return new QuoteError(404, MESSAGES.notFound);
}

export function methodNotAllowed(allow: string = "GET, HEAD"): QuoteError {
  return new QuoteError(405, MESSAGES.methodNotAllowed, { headers: { Allow: allow } });
}

export function tooManyRequests(retryAfterSeconds: number): QuoteError {
  return new QuoteError(429, MESSAGES.tooManyRequests, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

export function uriTooLong(): QuoteError {
  return new QuoteError(414, MESSAGES.uriTooLong);
}
