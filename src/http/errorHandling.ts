// One error shape for every answer that is not a 200: `{ error, details? }` (semantics §6), those Fastify and
// Node's HTTP parser give before any route runs included.
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { QuoteError, errorBody, internalError } from "../quote/quoteErrors.ts";
import { HTTP_MESSAGES, HttpError, toHttpError } from "./httpErrors.ts";
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
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (a malformed request, a body where none belongs): their message is safe.
      return sendQuoteError(reply, new HttpError(status, error.message));
    }
    request.log.error({ err: error }, "unhandled error");
    return sendQuoteError(reply, internalError());
  });
}

/** Fastify's errors before routing: a URL whose percent-encoding does not decode (and the like) is a 400. */
export function badUrl(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const malformed = error.code === "FST_ERR_BAD_URL";
  const body = malformed
    ? errorBody(HTTP_MESSAGES.badRequest, [
        { param: "url", message: "the URL is not valid percent-encoding: write each reserved or non-ASCII character as %XX (UTF-8 bytes)" },
      ])
    : errorBody(HTTP_MESSAGES.badRequest);
  void reply.code(400).type("application/json; charset=utf-8").send(body);
}

/**
 * A request Node's HTTP parser refused, answered on the socket (no route, no hooks): headers over Node's limit
 * are a 431, a timed-out request a 408, anything else a 400, each in the API's error shape.
 */
export function clientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, body] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, errorBody(HTTP_MESSAGES.headersTooLarge, [{ param: "headers", message: "the request's headers are over 16 KiB: send fewer or shorter headers (cookies, tokens)" }])]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, errorBody(HTTP_MESSAGES.requestTimeout)]
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
