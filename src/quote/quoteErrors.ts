// The errors a quote can end in (interface §7, semantics §6): a stable kind, the interface's fixed message, and
// details that say what to do. Which status and headers each kind answers with is the HTTP layer's
// (src/http/httpErrors.ts): the domain knows what went wrong, not how a transport says it.
import { QuoterError, type ErrorDetail } from "./quoterError.ts";

export type { ErrorDetail };

export type ErrorBody = { error: string; details?: ErrorDetail[] } & Record<string, unknown>;

/** The interface's error strings, by kind: they never change. */
export const MESSAGES = {
  invalidQuery: "Invalid query parameters",
  invalidPath: "Invalid path parameters",
  invalidBody: "Invalid request body",
  expectedPriceNotPositive: "Expected price must be greater than 0",
  expectedPriceEqualsCurrent: "Expected price must be different from current price",
  noValidSize: "Could not find a valid position size that satisfies the price constraints",
  insufficientLiquidity: "Insufficient liquidity. Try a smaller size.",
  marketNotFound: "Market not found",
  currentPriceNotFound: "Current price not found",
  marketSettled: "Market is settled",
  rpcUnavailable: "Chain RPC unavailable",
  internal: "Internal server error",
} as const;

/** The stable name of each error a quote can end in. */
export type QuoteErrorKind = keyof typeof MESSAGES;

/** Seconds a client is asked to wait after the chain was unavailable, when the caller names no other value. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

type QuoteErrorOptions = {
  details?: ErrorDetail[];
  /** Further body fields after `error` and `details`, e.g. `trace` on a search failure (§7). */
  extra?: Record<string, unknown>;
  /** How long trying again is pointless: the chain's unavailability. */
  retryAfterSeconds?: number;
};

/** The one error body of the interface: `error`, then `details` when there are any, then any extra fields. */
export function errorBody(message: string, details?: readonly ErrorDetail[], extra?: Record<string, unknown>): ErrorBody {
  const body: ErrorBody = { error: message };
  if (details !== undefined) body.details = details.map((d) => ({ param: d.param, message: d.message }));
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (key !== "error" && key !== "details") body[key] = value;
  }
  return body;
}

export class QuoteError extends QuoterError {
  readonly kind: QuoteErrorKind;
  readonly extra?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(kind: QuoteErrorKind, options: QuoteErrorOptions = {}) {
    super(kind, MESSAGES[kind], options.details === undefined ? {} : { details: options.details });
    this.kind = kind;
    if (options.extra !== undefined) this.extra = options.extra;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The interface's body; an empty list of details says nothing, so the body then has none. */
  toBody(): ErrorBody {
    return errorBody(this.message, this.details.length > 0 ? this.details : undefined, this.extra);
  }
}

type SearchFailure = Pick<QuoteErrorOptions, "details" | "extra">;

export function invalidPathParameters(details: ErrorDetail[]): QuoteError {
  return new QuoteError("invalidPath", { details });
}

export function invalidRequestBody(details: ErrorDetail[]): QuoteError {
  return new QuoteError("invalidBody", { details });
}

export function invalidQueryParameters(details: ErrorDetail[]): QuoteError {
  return new QuoteError("invalidQuery", { details });
}

export function expectedPriceNotPositive(): QuoteError {
  return new QuoteError("expectedPriceNotPositive");
}

export function expectedPriceEqualsCurrent(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("expectedPriceEqualsCurrent", { details });
}

export function noValidSize(options: SearchFailure = {}): QuoteError {
  return new QuoteError("noValidSize", options);
}

export function insufficientLiquidity(options: SearchFailure = {}): QuoteError {
  return new QuoteError("insufficientLiquidity", options);
}

export function marketNotFound(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("marketNotFound", { details });
}

export function currentPriceNotFound(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("currentPriceNotFound", { details });
}

export function marketSettled(): QuoteError {
  return new QuoteError("marketSettled");
}

export function rpcUnavailable(retryAfterSeconds: number = DEFAULT_RETRY_AFTER_SECONDS, details?: ErrorDetail[]): QuoteError {
  return new QuoteError("rpcUnavailable", { retryAfterSeconds, details });
}

export function internalError(): QuoteError {
  return new QuoteError("internal");
}
