// GET /quoter/:chainId/:marketAddress/:marketId — the one operation of the interface — and the same question of a
// held position, GET /quoter/:chainId/:marketAddress/positions/:positionId (semantics §13).
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { parsePathParams, parseQueryParams, type QuoteRequest } from "../quote/request.ts";
import { checkAnyRequest, parsePositionPath, parsePositionQuery, type AnyQuoteRequest, type PositionRequest } from "../quote/positionRequest.ts";
import type { QuoteError } from "../quote/quoteErrors.ts";
import type { Result } from "../quote/result.ts";
import type { Quoter, QuoteOptions } from "../service/api.ts";
import { positionErrorResponses, positionResponseSchema } from "./positionSchemas.ts";
import type { LiveStreams } from "./liveStreams.ts";
import { positionParamsSchema, positionQuerySchema, quoteErrorResponses, quoteParamsSchema, quoteQuerySchema, quoteResponseSchema } from "./schemas.ts";
import { quoteRecordOf } from "./observability.ts";
import { LIQUIDITY_PATH, POSITION_PATH, QUOTE_PATH } from "./paths.ts";
import { parseLiquidityQuery, type LiquidityRequest } from "../quote/liquidityRequest.ts";
import { liquidityRouteSchema } from "./liquiditySchemas.ts";

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

/** What a quote route answers: its path, its documented schema, how its path and query are read, and the answer. */
type AnswerRoute = {
  readonly path: string;
  readonly schema: Record<string, unknown>;
  readonly parsePath: (params: Record<string, unknown>) => Result<object, QuoteError>;
  readonly parseQuery: (query: Record<string, unknown>) => Result<object, QuoteError>;
  readonly answer: (quoter: Quoter, request: AnyQuoteRequest, options: QuoteOptions) => Promise<unknown>;
};

/** A quote route: GET and HEAD answer JSON, or with `Accept: text/event-stream` a live stream of the same answer. */
function answerRoute(route: AnswerRoute): FastifyPluginAsync<{ quoter: Quoter; streams?: LiveStreams | undefined }> {
  return async (app, { quoter, streams }) => {
    app.get(route.path, {
      schema: route.schema,
      // The schemas document the parameters; the table's parsers judge and convert them (exact decimals, checksums,
      // did-you-mean), once, as the route's validators: the handler receives typed values, a bad part is the 400
      // the parser words (the path's before the query's, as Fastify validates them in that order).
      validatorCompiler: ({ httpPart }) => (data) => {
        const parse = httpPart === "params" ? route.parsePath : httpPart === "querystring" ? route.parseQuery : undefined;
        if (parse === undefined) return { value: data };
        const parsed = parse(data as Record<string, unknown>);
        return parsed.ok ? { value: parsed.value } : { error: parsed.error };
      },
      // With `Accept: text/event-stream` the same request is a live stream (liveStreams.ts): its parameters are
      // judged alike, and a bad one is the same 4xx before any stream starts.
      // Its events carry JSON already serialized (once per answer, for every stream that sends it): sent as it is.
      sse: { kind: "dual", heartbeat: false, serializer: String },
      handler: async (request, reply) => {
        const quote = { ...(request.params as object), ...(request.query as object) } as AnyQuoteRequest;
        if (streams !== undefined && request.method === "GET" && asksStream(reply) && streams.serves(quote.chainId)) {
          const refused = checkAnyRequest(quote) ?? streams.refusal(request.ip);
          if (refused) throw refused;
          return streams.start(request, reply, quote);
        }
        const noCache = asksNoCache(request.headers["cache-control"]);
        varyOnAccept(reply);
        return reply.send(await route.answer(quoter, quote, { noCache, record: quoteRecordOf(request), log: request.log }));
      },
    });
  };
}

/** GET /quoter/:chainId/:marketAddress/:marketId — the one operation of the interface. */
export const quoteRoute = answerRoute({
  path: QUOTE_PATH,
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
    response: { 200: quoteResponseSchema, ...quoteErrorResponses },
  },
  parsePath: parsePathParams,
  parseQuery: parseQueryParams,
  answer: (quoter, request, options) => quoter.quote(request as QuoteRequest, options),
});

/** GET /quoter/:chainId/:marketAddress/:marketId/liquidity — semantics §14: the largest liquidity a budget mints in a range. */
export const liquidityRoute = answerRoute({
  path: LIQUIDITY_PATH,
  schema: liquidityRouteSchema,
  parsePath: parsePathParams,
  parseQuery: parseLiquidityQuery,
  answer: (quoter, request, options) => {
    if (quoter.quoteLiquidity === undefined) throw new Error("this quoter answers no liquidity");
    return quoter.quoteLiquidity(request as LiquidityRequest, options);
  },
});

/** GET /quoter/:chainId/:marketAddress/positions/:positionId — semantics §13: the same question of a held position. */
export const positionRoute = answerRoute({
  path: POSITION_PATH,
  schema: {
    operationId: "getPositionQuote",
    tags: ["quote"],
    summary: "Largest trade on a held position: add to it, reduce it, close it or turn it around",
    description:
      "Reads the position (its owner, kind, market and size) and its market's reference price at the latest block, " +
      "infers LONG (buy: expectedPrice above the price) or SHORT (sell: below), and searches trades t as the quote of " +
      "a new position searches sizes: the range adds the position's size when the trade is against it (a sell of a " +
      "long, a buy of a short: reducing returns collateral before a flip needs any), each candidate simulated with " +
      "quoteModifyTraderPosition(positionId, currentSize + t) from the owner at that block, its signed collateral " +
      "delta compared with collateralAvailable (which may be 0: only trades that need no new collateral). " +
      "Parameters as the quote's (search=exact, trace, minBlock, taker, ...); the taker must own the position. " +
      "HEAD answers like GET without a body; other methods answer 405.",
    params: positionParamsSchema,
    querystring: positionQuerySchema,
    response: { 200: positionResponseSchema, ...positionErrorResponses },
  },
  parsePath: parsePositionPath,
  parseQuery: parsePositionQuery,
  answer: (quoter, request, options) => {
    if (quoter.quotePosition === undefined) throw new Error("this quoter answers no position");
    return quoter.quotePosition(request as PositionRequest, options);
  },
});
