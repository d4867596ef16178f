// POST /quoter/:chainId/batch: many quotes of one chain in one request, all answered at one block. Each result is
// `{status, body}`, the body exactly what a GET of that quote answers at that block; a bad item is its own 400 and
// the others are answered; a body that is not a batch is one 400 for the request.
import { liquidityResponseSchema, liquidityRouteSchema } from "./liquiditySchemas.ts";
import type { FastifyPluginAsync } from "fastify";
import { QUOTE_PARAMS } from "../quote/params.ts";
import { parseBatchBody, unreadableBody } from "../quote/batchRequest.ts";
import { invalidPathParameters } from "../quote/quoteErrors.ts";
import type { Quoter } from "../service/api.ts";
import { BATCH_BODY_MAX_BYTES } from "../quote/limits.ts";
import { errorResponse, errorResponseSchema, example, quoteErrorResponses, routeErrorResponses } from "./errorSchemas.ts";
import { bodyTooLarge, unsupportedMediaType } from "./httpErrors.ts";
import { batchJson } from "./batchAnswer.ts";
import type { LiveStreams } from "./liveStreams.ts";
import { asksNoCache } from "./quoteRoute.ts";
import { BATCH_PATH } from "./paths.ts";
import { quoteCharge } from "./protection.ts";
import { positionParamsSchema, quoteParamsSchema, quoteQuerySchema, quoteResponseSchema } from "./schemas.ts";
import { positionResponseSchema } from "./positionSchemas.ts";

export interface BatchRouteOptions {
  readonly quoter: Quoter;
  /** The live streams, for a batch asked with `Accept: text/event-stream`. */
  readonly streams?: LiveStreams | undefined;
  /** Told of each batch answered, with its number of quotes and the gas of their searches' candidates. */
  readonly observe?: (quotes: number, searchGas?: bigint) => void;
  /** BATCH_MAX_QUOTES. */
  readonly maxQuotes: number;
}

const itemSchema = {
  type: "object",
  description:
    "One quote: the GET's parameters but chainId (the path's), each a string; a held position's quote has positionId " +
    "in place of marketId (its route's parameters: collateralAvailable may be 0); a liquidity quote has \"kind\": " +
    "\"liquidity\" and its route's parameters (lowerPrice, upperPrice; no expectedPrice)",
  required: ["marketAddress", "collateralAvailable"],
  additionalProperties: false,
  properties: {
    marketAddress: quoteParamsSchema.properties.marketAddress,
    marketId: quoteParamsSchema.properties.marketId,
    positionId: positionParamsSchema.properties.positionId,
    ...quoteQuerySchema.properties,
    kind: { type: "string", enum: ["liquidity"], description: "liquidity: the liquidity route's question (semantics §14); absent: a trader's quote" },
    lowerPrice: liquidityRouteSchema.querystring.properties.lowerPrice,
    upperPrice: liquidityRouteSchema.querystring.properties.upperPrice,
  },
} as const;

const batchResponseSchema = {
  type: "object",
  description: "Every quote's answer at one block, in the order asked",
  required: ["blockNumber", "blockHash", "results"],
  properties: {
    blockNumber: { type: "string", description: "The block every result is about" },
    blockHash: { type: "string", description: "Its hash" },
    results: {
      type: "array",
      items: {
        type: "object",
        required: ["status", "body"],
        properties: {
          status: { type: "integer", description: "The status a GET of this quote answers at that block" },
          body: { description: "That GET's body, byte for byte", oneOf: [quoteResponseSchema, positionResponseSchema, liquidityResponseSchema, errorResponseSchema] },
        },
      },
    },
  },
} as const;

/** What a batch answers besides a 200: the quote's errors of the request as a whole, and those of its body. */
const batchErrorResponses = {
  400: errorResponse(
    "A body that is not a batch (details name where: `body` with the line and column where its JSON breaks, `quotes`, " +
      "`quotes[3].expectedPrice`), or a malformed chain id",
    {
      notJson: example(unreadableBody('{"quotes": [1,]}').toBody(), 'the body {"quotes": [1,]}'),
    },
  ),
  404: quoteErrorResponses[404],
  413: errorResponse("A body over the route's limit of bytes", { bodyTooLarge: example(bodyTooLarge(BATCH_BODY_MAX_BYTES).toBody()) }),
  415: errorResponse("A body that is not application/json", { unsupportedMediaType: example(unsupportedMediaType("text/plain").toBody()) }),
  503: quoteErrorResponses[503],
  ...routeErrorResponses,
} as const;

export const batchRoute: FastifyPluginAsync<BatchRouteOptions> = async (app, { quoter, maxQuotes, observe, streams }) => {
  const charge = quoteCharge(app);
  // A batch is JSON and nothing else: a body of another type is Fastify's 415. JSON is parsed as Fastify parses it
  // (its defaults: a "__proto__" key, or a "constructor" holding a "prototype", refused); a body it refuses is the
  // batch's own 400, which says where the JSON breaks.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, text, done) => {
    parseJson(request, text as string, (error, value) => (error ? done(unreadableBody(text as string), undefined) : done(null, value)));
  });
  app.post(BATCH_PATH, {
    schema: {
      operationId: "quoteBatch",
      tags: ["quote"],
      summary: "Many quotes of one chain, all at one block",
      description:
        `Body: {"quotes": [{…}, …]}, 1 to BATCH_MAX_QUOTES (${maxQuotes} here) quotes, each the GET's parameters but ` +
        "chainId, every value a string, read by exactly the GET's rules. Answer: the block, and per quote, in the order " +
        "asked, {status, body}: what a GET of it answers at that block. A bad quote is its own 400; a body that is " +
        "not such an object (bad JSON, a wrong type, an unknown field, too many quotes) is one 400 for the request; " +
        `a body of another type than application/json is a 415, one over ${BATCH_BODY_MAX_BYTES} bytes a 413. ` +
        "Each quote counts in the rate limit, as a GET. " +
        "With `Accept: text/event-stream` the batch is a live stream: a `quote` event whose data is this whole answer " +
        "at once, then at each block that changes any result (as the GET's stream).",
      params: { type: "object", required: ["chainId"], properties: { chainId: quoteParamsSchema.properties.chainId } },
      body: { type: "object", required: ["quotes"], additionalProperties: false, properties: { quotes: { type: "array", minItems: 1, maxItems: maxQuotes, items: itemSchema } } },
      response: { 200: batchResponseSchema, ...batchErrorResponses },
    },
    bodyLimit: BATCH_BODY_MAX_BYTES,
    // The schemas document; the parsers judge, once: the chain id as the GET's, the body by the batch's rules.
    validatorCompiler: ({ httpPart }) => (data) => {
      if (httpPart !== "params") return { value: data };
      const text = String((data as Record<string, unknown>).chainId ?? "");
      const chainId = QUOTE_PARAMS.chainId.parse(text);
      return chainId.ok ? { value: { chainId: text } } : { error: invalidPathParameters([{ param: "chainId", message: chainId.error }]) };
    },
    // With `Accept: text/event-stream` the batch streams as a live quote does: a `quote` event with the whole answer.
    sse: { kind: "dual", heartbeat: false, serializer: String },
    handler: async (request, reply) => {
      const { chainId } = request.params as { chainId: string };
      const items = parseBatchBody(chainId, request.body, maxQuotes);
      if (!items.ok) throw items.error;
      const limited = await charge(request, items.value.length);
      if (limited) throw limited;
      if (streams !== undefined && (reply as { sse?: unknown }).sse !== undefined && streams.serves(Number(chainId))) {
        const refused = streams.refusal(request.ip);
        if (refused) throw refused;
        observe?.(items.value.length);
        return streams.startBatch(request, reply, Number(chainId), items.value);
      }
      const asked = items.value.flatMap((item) => (item.ok ? [item.value] : []));
      if (quoter.quoteBatch === undefined) throw new Error("this quoter answers no batch");
      const noCache = asksNoCache(request.headers["cache-control"]);
      const batch = await quoter.quoteBatch(asked, { noCache, log: request.log });
      observe?.(items.value.length, batch.searchGas);
      return reply.type("application/json; charset=utf-8").send(batchJson(items.value, batch));
    },
  });
};
