// GET /quoter/:chainId/:marketAddress/:marketId — the one operation of the interface.
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { parsePathParams, parseQueryParams, type PathParams, type QueryParams, type QuoteRequest } from "../quote/request.ts";
import type { Quoter } from "../service/api.ts";
import { checkExpectedPrice } from "../quote/quoteAnswer.ts";
import type { LiveStreams } from "./liveStreams.ts";
import { quoteErrorResponses, quoteParamsSchema, quoteQuerySchema, quoteResponseSchema } from "./schemas.ts";
import { quoteRecordOf } from "./observability.ts";
import { QUOTE_PATH } from "./paths.ts";

/** `Cache-Control: no-cache` (semantics §11): the answer is not a kept one, and the endpoint's latest block is read. */
export function asksNoCache(header: string | undefined): boolean {
  return header !== undefined && header.split(",").some((directive) => directive.trim().toLowerCase() === "no-cache");
}

/** The route answers JSON or a live stream by the request's Accept: a cache must keep one answer per Accept. */
function varyOnAccept(reply: FastifyReply): void {
  const vary = reply.getHeader("vary");
  const said = vary === undefined ? "" : String(vary);
  if (!/(^|,)\s*accept\s*(,|$)/i.test(said)) reply.header("vary", said === "" ? "Accept" : `${said}, Accept`);
}

/** Whether the client asked for the live stream (the SSE plugin set reply.sse: its Accept names text/event-stream). */
const asksStream = (reply: unknown) => (reply as { sse?: unknown }).sse !== undefined;

export const quoteRoute: FastifyPluginAsync<{ quoter: Quoter; streams?: LiveStreams | undefined }> = async (app, { quoter, streams }) => {
  app.get(QUOTE_PATH, {
    schema: {
      operationId: "getQuote",
      tags: ["quote"],
      summary: "Largest position size within a collateral budget and price constraints",
      description:
        "Reads the market's reference price at the latest block, infers LONG (expectedPrice above it) or SHORT " +
        "(below), and binary-searches sizes in [0, collateralAvailable / price] for at most maxIterations " +
        "candidates, each simulated with quoteCreateTraderPosition at that same block. Numbers are strings: " +
        "prices are exact decimals (18 places at most), sizes and collateral are wei. HEAD answers like GET " +
        "without a body; every other method (POST, PUT, DELETE, PATCH, OPTIONS) answers 405 `Method not allowed` " +
        "with `Allow: GET, HEAD`, in the error shape below.",
      params: quoteParamsSchema,
      querystring: quoteQuerySchema,
      response: {
        200: quoteResponseSchema,
        ...quoteErrorResponses,
      },
    },
    // The schemas document the parameters; the table's parsers judge and convert them (exact decimals, checksums,
    // did-you-mean), once, as the route's validators: the handler receives typed values, a bad part is the 400
    // the parser words (the path's before the query's, as Fastify validates them in that order).
    validatorCompiler: ({ httpPart }) => (data) => {
      const parsed = httpPart === "params" ? parsePathParams(data as Record<string, unknown>) : httpPart === "querystring" ? parseQueryParams(data as Record<string, unknown>) : undefined;
      if (parsed === undefined) return { value: data };
      return parsed.ok ? { value: parsed.value } : { error: parsed.error };
    },
    // With `Accept: text/event-stream` the same request is a live stream (liveStreams.ts): its parameters are
    // judged alike, and a bad one is the same 4xx before any stream starts.
    // Its events carry JSON already serialized (once per answer, for every stream that sends it): sent as it is.
    sse: { kind: "dual", heartbeat: false, serializer: String },
    handler: async (request, reply) => {
      const quote: QuoteRequest = { ...(request.params as PathParams), ...(request.query as QueryParams) };
      if (streams !== undefined && request.method === "GET" && asksStream(reply) && streams.serves(quote.chainId)) {
        const refused = checkExpectedPrice(quote.expectedPrice) ?? streams.refusal(request.ip);
        if (refused) throw refused;
        return streams.start(request, reply, quote);
      }
      const noCache = asksNoCache(request.headers["cache-control"]);
      varyOnAccept(reply);
      return reply.send(await quoter.quote(quote, { noCache, record: quoteRecordOf(request), log: request.log }));
    },
  });
};
