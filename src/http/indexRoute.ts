// GET /quoter: where to start. A newcomer who opens the base URL the banner prints gets the links to the docs,
// the explorer and the operations endpoints, the version, the chains served and the quote path, not a 404.
import type { FastifyPluginAsync } from "fastify";
import { routeErrorResponses } from "./errorSchemas.ts";
import { PACKAGE_VERSION } from "./openapi.ts";
import { BASE_PATH, DOCS_PATH, EXPLORER_PATH, HEALTH_PATH, METRICS_PATH, OPENAPI_PATH, READY_PATH } from "./paths.ts";

export const QUOTE_PATH_TEMPLATE =
  `${BASE_PATH}/{chainId}/{marketAddress}/{marketId}?expectedPrice={decimal}&collateralAvailable={wei}` +
  "[&maxIterations={1-10}][&priceLimit={decimal}][&search=exact][&trace=true][&minBlock={block}]" +
  "[&taker={address}][&slippageBps={0-5000}][&deadlineSeconds={1-86400}]";

const LINKS = {
  docs: DOCS_PATH,
  explorer: EXPLORER_PATH,
  openapi: OPENAPI_PATH,
  health: HEALTH_PATH,
  ready: READY_PATH,
  metrics: METRICS_PATH,
} as const;

const indexSchema = {
  type: "object",
  required: ["name", "version", "quote", "chains", "links"],
  additionalProperties: false,
  properties: {
    name: { type: "string", const: "quoter" },
    version: { type: "string", description: "The service's package version" },
    quote: { type: "string", description: "The quote operation's path, with its query parameters" },
    chains: {
      type: "array",
      items: { type: "integer" },
      description: "The chain ids this service has an RPC endpoint for (never the endpoints themselves)",
    },
    links: {
      type: "object",
      required: Object.keys(LINKS),
      additionalProperties: false,
      properties: Object.fromEntries(Object.keys(LINKS).map((name) => [name, { type: "string" }])),
    },
  },
} as const;

/** Register with the BASE_PATH prefix; `chainIds` are the configured chains, in any order. */
export const indexRoute: FastifyPluginAsync<{ chainIds: readonly number[] }> = async (app, { chainIds }) => {
  const body = {
    name: "quoter",
    version: PACKAGE_VERSION,
    quote: QUOTE_PATH_TEMPLATE,
    chains: [...chainIds].sort((a, b) => a - b),
    links: LINKS,
  };
  app.get("/", {
    schema: {
      operationId: "getIndex",
      tags: ["service"],
      summary: "Where to start: links, version, configured chains and the quote path",
      description: "Also served at /quoter/ (a trailing slash is accepted everywhere).",
      response: {
        200: { ...indexSchema, description: "The index", "x-examples": { demo: { summary: "On the embedded demo chain", value: { ...body, chains: [31337] } } } },
        ...routeErrorResponses,
      },
    },
    // A browser that opens the base URL is shown the explorer; a client that asks for JSON gets the index.
    handler: async (request, reply) => (prefersHtml(request.headers.accept) ? reply.redirect(EXPLORER_PATH, 302) : body),
  });
};

/** Whether an Accept header ranks text/html above JSON, as a browser's navigation does (q-values honoured). */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const quality = (type: string) => {
    let best = 0;
    for (const part of accept.split(",")) {
      const [range = "", ...params] = part.trim().toLowerCase().split(";");
      const q = Number(params.map((param) => param.trim()).find((param) => param.startsWith("q="))?.slice(2) ?? "1");
      const matches = range === type || range === `${type.split("/")[0]}/*`;
      if (matches && Number.isFinite(q)) best = Math.max(best, q);
    }
    return best;
  };
  return quality("text/html") > quality("application/json");
}
