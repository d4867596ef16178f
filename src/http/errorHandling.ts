// One error shape for every answer that is not a 200: `{ error, details }` (semantics §6), those Fastify and
// Node's HTTP parser give before any route runs included, and a request no route takes (404, or 405 when its
// path takes other methods).
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { QuoteError, errorBody, internalError } from "../quote/quoteErrors.ts";
import { HTTP_MESSAGES, HttpError, bodyTooLarge, headersTooLarge, malformedUrl, methodNotAllowed, routeNotFound, toHttpError, unsupportedMediaType } from "./httpErrors.ts";
import { noteOutcome } from "./observability.ts";

export function sendQuoteError(reply: FastifyReply, error: QuoteError | HttpError): FastifyReply {
  const answer = toHttpError(error);
  noteOutcome(reply.request, answer.message);
  if (answer.headers) reply.headers(answer.headers);
  return reply.code(answer.status).type("application/json; charset=utf-8").send(answer.toBody());
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof QuoteError || error instanceof HttpError) return sendQuoteError(reply, error);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendQuoteError(reply, fastifyClientError(error, request));
    request.log.error({ err: error }, "unhandled error");
    return sendQuoteError(reply, internalError());
  });
}

/**
 * Fastify's own client errors, which it words for a developer: a body over the route's limit (413), of a type the
 * route does not read (415), anything else a 400 whose detail is Fastify's message, which is safe to show.
 */
function fastifyClientError(error: FastifyError, request: FastifyRequest): HttpError {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return bodyTooLarge(request.routeOptions.bodyLimit);
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return unsupportedMediaType(request.headers["content-type"]);
  const status = error.statusCode ?? 400;
  const message = status === 400 ? HTTP_MESSAGES.badRequest : (STATUS_CODES[status] ?? HTTP_MESSAGES.badRequest);
  return new HttpError(status, message, [{ param: "request", message: error.message }]);
}

/** The methods a route may take; OPTIONS is CORS's preflight, answered for every path (cors.ts). */
const ROUTED_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"] as const;

/** A request no route takes: 405 with the methods its path takes, when it takes any (Fastify's router says); else 404. */
export function noRouteFor(request: FastifyRequest): HttpError {
  const url = request.raw.url ?? "/";
  const path = url.split("?")[0] ?? "/";
  const allowed = ROUTED_METHODS.filter((method) => method !== request.method && request.server.findRoute({ method, url }) !== null);
  return allowed.length > 0 ? methodNotAllowed(request.method, path, allowed) : routeNotFound(request.method, path);
}

/** Fastify's errors before routing: a URL whose percent-encoding does not decode (and the like) is a 400. */
export function badUrl(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const answer =
    error.code === "FST_ERR_BAD_URL"
      ? malformedUrl()
      : new HttpError(400, HTTP_MESSAGES.badRequest, [{ param: "url", message: `the URL could not be routed (${error.message}): check its path` }]);
  void reply.code(400).type("application/json; charset=utf-8").send(answer.toBody());
}

/**
 * A request Node's HTTP parser refused, answered on the socket (no route, no hooks): headers over Node's limit
 * are a 431, a timed-out request a 408, anything else a 400, each in the API's error shape.
 */
export function clientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, body] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, headersTooLarge().toBody()]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, errorBody(HTTP_MESSAGES.requestTimeout, [{ param: "request", message: "the request did not arrive whole in time: send it again, in one go" }])]
        : [400, errorBody(HTTP_MESSAGES.badRequest, [{ param: "request", message: "not a valid HTTP/1.1 request" }])];
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
