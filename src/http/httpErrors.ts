// How errors are said over HTTP: the status and headers of each kind of quote error, and the errors only the
// HTTP layer has (an unknown path, a method, the rate limit, the URL's length, a body). Every one answers the
// interface's error body. No Fastify here: the CLI maps a quote error's status to its exit status through it.
import { QuoterError } from "../quote/quoterError.ts";
import { QuoteError, errorBody, internalError, type ErrorBody, type QuoteErrorKind } from "../quote/quoteErrors.ts";

/** The interface's error strings of the HTTP layer's own errors: they never change. */
export const HTTP_MESSAGES = {
  notFound: "Not found",
  methodNotAllowed: "Method not allowed",
  tooManyRequests: "Too many requests",
  uriTooLong: "URI too long",
  bodyNotAccepted: "Request body not accepted",
  badRequest: "Bad request",
  headersTooLarge: "Request header fields too large",
  requestTimeout: "Request timeout",
} as const;

/** Interface §7: the status of each kind of quote error. */
const STATUS: Record<QuoteErrorKind, number> = {
  invalidQuery: 400,
  invalidPath: 400,
  invalidBody: 400,
  expectedPriceNotPositive: 400,
  expectedPriceEqualsCurrent: 400,
  noValidSize: 400,
  insufficientLiquidity: 400,
  marketSettled: 400,
  marketNotFound: 404,
  currentPriceNotFound: 404,
  internal: 500,
  rpcUnavailable: 503,
};

/** An error answer: its status, headers and body. */
export class HttpError extends QuoterError {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: ErrorBody;

  constructor(status: number, message: string, options: { headers?: Record<string, string>; body?: ErrorBody } = {}) {
    super(`http-${status}`, message, options.body?.details === undefined ? {} : { details: options.body.details });
    this.status = status;
    if (options.headers !== undefined) this.headers = options.headers;
    this.body = options.body ?? errorBody(message);
  }

  toBody(): ErrorBody {
    return this.body;
  }
}

const retryAfter = (seconds: number) => ({ "Retry-After": String(seconds) });

/** A quote error as an answer; an HTTP error as it is. */
export function toHttpError(error: QuoteError | HttpError): HttpError {
  if (error instanceof HttpError) return error;
  const headers = error.retryAfterSeconds === undefined ? undefined : retryAfter(error.retryAfterSeconds);
  return new HttpError(STATUS[error.kind], error.message, { body: error.toBody(), ...(headers ? { headers } : {}) });
}

/**
 * Any failure of a quote as its answer with the status first (a live stream's `error` event): a quote's or an
 * HTTP error as it is, anything else (a bug) as the 500 Internal server error.
 */
export function errorWithStatus(error: unknown): Record<string, unknown> {
  const answer = toHttpError(error instanceof QuoteError || error instanceof HttpError ? error : internalError());
  return { status: answer.status, ...answer.toBody() };
}

/** The status an error answers with. */
export function statusOf(error: QuoteError | HttpError): number {
  return toHttpError(error).status;
}

export function routeNotFound(): HttpError {
  return new HttpError(404, HTTP_MESSAGES.notFound);
}

export function methodNotAllowed(allow: string = "GET, HEAD"): HttpError {
  return new HttpError(405, HTTP_MESSAGES.methodNotAllowed, { headers: { Allow: allow } });
}

export function tooManyRequests(retryAfterSeconds: number): HttpError {
  return new HttpError(429, HTTP_MESSAGES.tooManyRequests, { headers: retryAfter(retryAfterSeconds) });
}

/** A live stream past a limit of open streams (the details say which, and what to do). */
export function tooManyStreams(retryAfterSeconds: number, details: readonly { param: string; message: string }[]): HttpError {
  const body = errorBody(HTTP_MESSAGES.tooManyRequests, details);
  return new HttpError(429, HTTP_MESSAGES.tooManyRequests, { headers: retryAfter(retryAfterSeconds), body });
}

export function uriTooLong(): HttpError {
  return new HttpError(414, HTTP_MESSAGES.uriTooLong);
}

export function bodyNotAccepted(): HttpError {
  return new HttpError(413, HTTP_MESSAGES.bodyNotAccepted);
}
