// One error shape for every answer that is not a 200: `{ error, details? }` (semantics §6).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { parseQuoteRequest } from "../quote/request.ts";
import { QuoteError, internalError, invalidPathParameters, invalidQueryParameters, routeNotFound } from "../quote/errors.ts";
import { noteOutcome } from "./observability.ts";

export function sendQuoteError(reply: FastifyReply, error: QuoteError): FastifyReply {
  noteOutcome(reply.request, error.message);
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.status).type("application/json; charset=utf-8").send(error.toBody());
}

/**
 * A schema failure is answered with the core parser's verdict, which names every failing parameter with
 * its rule; the schema's own words are the fallback should the two ever disagree.
 */
function validationError(error: FastifyError, request: FastifyRequest): QuoteError {
  const parsed = parseQuoteRequest(request.params as Record<string, unknown>, request.query as Record<string, unknown>);
  if (!parsed.ok) return parsed.error;
  const details = (error.validation ?? []).map((issue) => ({
    param: String(issue.params?.missingProperty ?? issue.instancePath.replace(/^\//, "")) || "request",
    message: issue.message ?? "is invalid",
  }));
  return error.validationContext === "params" ? invalidPathParameters(details) : invalidQueryParameters(details);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof QuoteError) return sendQuoteError(reply, error);
    if (error.validation) return sendQuoteError(reply, validationError(error, request));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (a malformed request, a body where none belongs): their message is safe.
      return sendQuoteError(reply, new QuoteError(status, error.message));
    }
    request.log.error({ err: error }, "unhandled error");
    return sendQuoteError(reply, internalError());
  });
  app.setNotFoundHandler((_request, reply) => sendQuoteError(reply, routeNotFound()));
}
