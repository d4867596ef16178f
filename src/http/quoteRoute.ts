// GET /quoter/:chainId/:marketAddress/:marketId — the one operation of the interface.
import type { FastifyPluginAsync } from "fastify";
import { methodNotAllowed } from "../quote/errors.ts";
import { parseQuoteRequest, type QuoteRequest } from "../quote/request.ts";
import { errorResponseSchema, quoteParamsSchema, quoteQuerySchema, quoteResponseSchema } from "./schemas.ts";
import { sendQuoteError } from "./errors.ts";

export interface Quoter {
  /** The 200 body, or a thrown QuoteError. */
  quote(request: QuoteRequest): Promise<Record<string, unknown>>;
}

const QUOTE_PATH = "/:chainId/:marketAddress/:marketId";

export const quoteRoute: FastifyPluginAsync<{ quoter: Quoter }> = async (app, { quoter }) => {
  app.get(QUOTE_PATH, {
    schema: {
      summary: "Largest position size within a collateral budget and price constraints",
      params: quoteParamsSchema,
      querystring: quoteQuerySchema,
      response: {
        200: quoteResponseSchema,
        "4xx": errorResponseSchema,
        "5xx": errorResponseSchema,
      },
    },
    handler: async (request, reply) => {
      const parsed = parseQuoteRequest(request.params as Record<string, unknown>, request.query as Record<string, unknown>);
      if (!parsed.ok) return sendQuoteError(reply, parsed.error);
      return reply.send(await quoter.quote(parsed.value));
    },
  });
  app.route({
    method: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"],
    url: QUOTE_PATH,
    handler: async (_request, reply) => sendQuoteError(reply, methodNotAllowed()),
  });
};
