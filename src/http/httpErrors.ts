// How errors are said over HTTP: the status and headers of each kind of quote error, and the errors only the
// HTTP layer has (an unknown path, a method, the rate limit, the URL's length, a body). Every one answers the
// interface's error body, with details that say what to change. No Fastify here: the CLI maps a quote error's
// status to its exit status through it.
import { QuoterError } from "../quote/quoterError.ts";
import { QuoteError, errorBody, internalError, type ErrorBody, type ErrorDetail, type QuoteErrorKind } from "../quote/quoteErrors.ts";
import { BASE_PATH, BATCH_PATH, DOCS_PATH, QUOTE_ROUTE } from "./paths.ts";

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
  bodyTooLarge: "Request body too large",
  unsupportedMediaType: "Unsupported media type",
  explorerUnavailable: "Explorer unavailable",
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
  positionNotFound: 404,
  notTraderPosition: 400,
  insufficientCollateralForRange: 400,
  liquidityNotMinted: 400,
  takerNotOwner: 400,
  currentPriceNotFound: 404,
  internal: 500,
  rpcUnavailable: 503,
};

/** An error answer: its status, headers and body. */
export class HttpError extends QuoterError {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: ErrorBody;

  /** `details` say what to change, at least one: every error body has them (semantics §6). */
  constructor(status: number, message: string, details: readonly [ErrorDetail, ...ErrorDetail[]], options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
    super(`http-${status}`, message, { details });
    this.status = status;
    if (options.headers !== undefined) this.headers = options.headers;
    this.body = errorBody(message, details, options.extra);
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
  return new HttpError(STATUS[error.kind], error.message, error.details, { ...(headers ? { headers } : {}), ...(error.extra ? { extra: error.extra } : {}) });
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

/** Where a client who asked for a path that does not exist can go: the quote route, the index and the docs. */
const ROUTES_HINT =
  `quotes are at GET ${QUOTE_ROUTE.replace(/:(\w+)/g, "{$1}")}?expectedPrice=…&collateralAvailable=…, batches at ` +
  `POST ${BASE_PATH}${BATCH_PATH.replace(/:(\w+)/g, "{$1}")}; ${BASE_PATH} lists the routes and ${DOCS_PATH} describes each`;

/** No route at `path` for any method. */
export function routeNotFound(method: string, path: string): HttpError {
  return new HttpError(404, HTTP_MESSAGES.notFound, [{ param: "url", message: `no route ${method} ${path}: ${ROUTES_HINT}` }]);
}

/** A route at `path`, but not for `method`: the methods it takes, in `Allow` and in words. */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): HttpError {
  const preflight = method === "OPTIONS" ? " (a CORS preflight is an OPTIONS with Origin and Access-Control-Request-Method headers)" : "";
  return new HttpError(405, HTTP_MESSAGES.methodNotAllowed, [{ param: "method", message: `${path} takes ${allowed.join(", ")}, not ${method}${preflight}` }], {
    headers: { Allow: allowed.join(", ") },
  });
}

/** The client passed its rate limit of `max` requests a window. */
export function tooManyRequests(retryAfterSeconds: number, max: number): HttpError {
  const message =
    `this client passed its limit of ${max} requests a window (RATE_LIMIT_MAX; each quote of a batch and each level of a ` +
    `ladder counts as one): ask again after ${retryAfterSeconds} s (Retry-After)`;
  return new HttpError(429, HTTP_MESSAGES.tooManyRequests, [{ param: "requests", message }], { headers: retryAfter(retryAfterSeconds) });
}

/** A live stream past a limit of open streams (the details say which, and what to do). */
export function tooManyStreams(retryAfterSeconds: number, details: readonly [ErrorDetail, ...ErrorDetail[]]): HttpError {
  return new HttpError(429, HTTP_MESSAGES.tooManyRequests, details, { headers: retryAfter(retryAfterSeconds) });
}

/** A request target of `length` characters, over `max` (MAX_URL_LENGTH). */
export function uriTooLong(length: number, max: number): HttpError {
  const message =
    `is ${length} characters, over the ${max} the service reads (MAX_URL_LENGTH): send only the parameters the route takes, ` +
    `or many quotes as one POST ${BASE_PATH}/{chainId}/batch`;
  return new HttpError(414, HTTP_MESSAGES.uriTooLong, [{ param: "url", message }]);
}

/** A body on a method that takes none. */
export function bodyNotAccepted(method: string): HttpError {
  return new HttpError(413, HTTP_MESSAGES.bodyNotAccepted, [{ param: "body", message: `a ${method} takes no body: send the parameters in the URL's query` }]);
}

/** A body over the route's limit of `limitBytes`: only a batch takes a body. */
export function bodyTooLarge(limitBytes: number): HttpError {
  const message = `is over ${limitBytes} bytes, the most a request body may be: split the quotes over several smaller batches`;
  return new HttpError(413, HTTP_MESSAGES.bodyTooLarge, [{ param: "body", message }]);
}

/** A body of a type no parser of the route reads (`contentType` as sent, or none). */
export function unsupportedMediaType(contentType: string | undefined): HttpError {
  const sent = contentType === undefined ? "missing" : `${contentType}`;
  return new HttpError(415, HTTP_MESSAGES.unsupportedMediaType, [
    { param: "content-type", message: `is ${sent}: the body must be JSON, sent with Content-Type: application/json` },
  ]);
}

/** A URL whose percent-encoding does not decode. */
export function malformedUrl(): HttpError {
  const message = "the URL is not valid percent-encoding: write each reserved or non-ASCII character as %XX (UTF-8 bytes)";
  return new HttpError(400, HTTP_MESSAGES.badRequest, [{ param: "url", message }]);
}

/** Headers over Node's limit, which its HTTP parser refuses before any route. */
export function headersTooLarge(): HttpError {
  return new HttpError(431, HTTP_MESSAGES.headersTooLarge, [
    { param: "headers", message: "the request's headers are over 16 KiB: send fewer or shorter headers (cookies, tokens)" },
  ]);
}

/** The explorer's page cannot be served: `missing` (the client package's build) is not there. Quotes are. */
export function explorerUnavailable(missing: string, build: string): HttpError {
  const message = `the explorer's client modules are missing (${missing}): run \`${build}\` and start the service again; the quote API is served meanwhile`;
  return new HttpError(503, HTTP_MESSAGES.explorerUnavailable, [{ param: "explorer", message }]);
}
