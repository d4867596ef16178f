// GET /quoter/:chainId/:marketAddress/:marketId/depth: the depth ladder of one market, the exact quote at each of
// several prices (listed, or spaced from the current price to `to`), all answered at one block.
import type { FastifyPluginAsync } from "fastify";
import { DEPTH_MAX_LEVELS, parseDepthRequest } from "../quote/depthRequest.ts";
import { MAX_PARAMETER_LENGTH } from "../quote/params.ts";
import type { Quoter } from "../service/api.ts";
import { quoteDepth } from "../service/depthLadder.ts";
import { depthJson } from "./batchAnswer.ts";
import { errorResponseSchema, quoteErrorResponses } from "./errorSchemas.ts";
import { DEPTH_PATH } from "./paths.ts";
import { quoteCharge } from "./protection.ts";
import { asksNoCache } from "./quoteRoute.ts";
import { quoteParamsSchema, quoteQuerySchema, quoteResponseSchema } from "./schemas.ts";

export interface DepthRouteOptions {
  readonly quoter: Quoter;
  /** Told of each ladder answered, with its number of levels and the gas of their searches' candidates. */
  readonly observe?: (levels: number, searchGas?: bigint) => void;
}

const PRICE_PATTERN = "^[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$";

const depthQuerySchema = {
  type: "object",
  required: ["collateralAvailable"],
  properties: {
    collateralAvailable: quoteQuerySchema.properties.collateralAvailable,
    prices: {
      type: "string",
      pattern: `^\\s*[0-9][^,]*(,\\s*[0-9][^,]*){0,${DEPTH_MAX_LEVELS - 1}}$`,
      description:
        `The levels' prices: 1 to ${DEPTH_MAX_LEVELS} decimals (each at most ${MAX_PARAMETER_LENGTH} characters, greater than 0) ` +
        "separated by commas, all on one side of the current price. Or give to and levels instead",
      examples: ["0.55,0.6,0.65"],
    },
    to: {
      type: "string",
      maxLength: MAX_PARAMETER_LENGTH,
      pattern: PRICE_PATTERN,
      description:
        "With levels: the farthest level's price. The levels are current + (to - current) * i / levels for i = 1 to " +
        "levels, at 18 decimals, each rounded toward the current price (so the last is exactly to)",
      examples: ["0.9"],
    },
    levels: { type: "string", pattern: "^[0-9]+$", description: `With to: how many levels, 1 to ${DEPTH_MAX_LEVELS}`, examples: ["10"] },
    minBlock: quoteQuerySchema.properties.minBlock,
    taker: quoteQuerySchema.properties.taker,
    slippageBps: quoteQuerySchema.properties.slippageBps,
    deadlineSeconds: quoteQuerySchema.properties.deadlineSeconds,
  },
} as const;

const depthResponseSchema = {
  type: "object",
  description: "The exact quote at each level, all at one block, in the order of the prices",
  required: ["direction", "currentPrice", "collateralAvailable", "blockNumber", "blockHash", "levels"],
  properties: {
    direction: { type: "string", enum: ["LONG", "SHORT"], description: "LONG when the levels are above the current price, SHORT below" },
    currentPrice: { type: "string", description: "The market's reference price at the block (D18 decimal)" },
    collateralAvailable: { type: "string", description: "The budget asked, wei" },
    blockNumber: { type: "string", description: "The block every level is about" },
    blockHash: { type: "string", description: "Its hash" },
    levels: {
      type: "array",
      description:
        "Per price, what the GET with search=exact at that expectedPrice answers at that block: its 200 body, or " +
        "its error body with its `status` first",
      items: { oneOf: [quoteResponseSchema, { ...errorResponseSchema, required: ["status", "error"], properties: { status: { type: "integer" }, ...errorResponseSchema.properties } }] },
    },
  },
} as const;

export const depthRoute: FastifyPluginAsync<DepthRouteOptions> = async (app, { quoter, observe }) => {
  const charge = quoteCharge(app);
  app.get(DEPTH_PATH, {
    schema: {
      operationId: "getDepth",
      tags: ["quote"],
      summary: "The depth ladder of one market: the largest size at each of several prices, all at one block",
      description:
        "Each level is the exact quote (search=exact) at that expectedPrice with the same budget, as the quote GET " +
        "answers it at the same block. Give the prices (`prices=0.55,0.6,0.65`, all on one side of the current " +
        "price), or `to` and `levels` (that many prices evenly spaced from the current price, excluded, to `to`, " +
        "included). Either is searched in one eth_call where the endpoint runs the searcher (spaced levels are " +
        "placed from the current price in that same call). A market that cannot be quoted (not found, settled, no price) is the " +
        "request's error, as on the GET; a level that fails on its own is that level's error. Each level counts " +
        "in the rate limit, as a GET.",
      params: quoteParamsSchema,
      querystring: depthQuerySchema,
      response: { 200: depthResponseSchema, ...quoteErrorResponses },
    },
    // The schemas document; the parser judges, once, in the handler (the path's rules before the query's).
    validatorCompiler: () => (data) => ({ value: data }),
    handler: async (request, reply) => {
      const asked = parseDepthRequest(request.params as Record<string, unknown>, request.query as Record<string, unknown>);
      if (!asked.ok) throw asked.error;
      const { ladder } = asked.value;
      const limited = await charge(request, "prices" in ladder ? ladder.prices.length : ladder.levels);
      if (limited) throw limited;
      const noCache = asksNoCache(request.headers["cache-control"]);
      const depth = await quoteDepth(quoter, asked.value, { noCache, log: request.log });
      observe?.(depth.answers.length, depth.searchGas);
      return reply.type("application/json; charset=utf-8").send(depthJson(depth));
    },
  });
};
