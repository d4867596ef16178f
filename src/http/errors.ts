// One error shape for every answer that is not a 200: `{ error, details? }` (semantics §6).
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { QuoteError, internalError } from "../quote/errors.ts";
import { HttpError, routeNotFound, toHttpError } from "./httpErrors.ts";
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
  app.setNotFoundHandler((_request, reply) => sendQuoteError(reply, routeNotFound()));
}
