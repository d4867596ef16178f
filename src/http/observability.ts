// Operability: a request id on every request and answer, one log line per answer (for a quote: chain, market,
// direction, candidates, RPC requests, time and outcome), Prometheus metrics at /metrics, /health and /ready.
// The three operational routes are exempt from the rate limit: probes and scrapers call them all the time.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Metrics } from "../observability/metrics.ts";
import { newQuoteStats, runWithQuoteStats, type QuoteStats } from "../observability/quoteStats.ts";
import type { Readiness } from "../observability/readiness.ts";
import { HEALTH_PATH, METRICS_PATH, QUOTE_ROUTE, READY_PATH } from "./paths.ts";

export { QUOTE_ROUTE };

const OPERATIONAL_ROUTES = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);

export const REQUEST_ID_HEADER = "x-request-id";
/** An incoming request id is kept when it looks like one (UUIDs, ULIDs, hex or base64url tokens); else a new UUID. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the caller's `x-request-id` when sane, else a random UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === "string" && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export interface ObservabilityOptions {
  readonly metrics: Metrics;
  /** Whether each configured chain answers; none configured: always ready. */
  readonly readiness?: () => Promise<Readiness>;
}

const isQuote = (request: FastifyRequest) =>
  request.routeOptions.url === QUOTE_ROUTE && (request.method === "GET" || request.method === "HEAD");

/** Installs hooks on `app` itself (so they see every route) and registers the operational routes. */
export function installObservability(app: FastifyInstance, { metrics, readiness }: ObservabilityOptions): void {
  const quoteStats = new WeakMap<FastifyRequest, QuoteStats>();
  const errorMessages = new WeakMap<FastifyRequest, string>();
  let closing = false;

  app.addHook("onRequest", async (request) => {
    request.log.debug({ req: request }, "incoming request");
  });
  // The quote runs inside its own record, which the service and the RPC observer fill in (quoteStats.ts).
  app.addHook("preHandler", (request, _reply, done) => {
    if (!isQuote(request)) return done();
    const stats = newQuoteStats(request.log);
    quoteStats.set(request, stats);
    runWithQuoteStats(stats, done);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (isQuote(request) && reply.statusCode !== 200 && typeof payload === "string") {
      errorMessages.set(request, errorMessageOf(payload));
    }
  });
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    metrics.observeRequest({ method: request.method, route, status });
    if (!isQuote(request)) {
      const line = { method: request.method, url: request.url, statusCode: status, ms };
      if (OPERATIONAL_ROUTES.has(route)) request.log.debug(line, "request completed");
      else request.log.info(line, "request completed");
      return;
    }
    const stats = quoteStats.get(request);
    metrics.observeQuote({ status, seconds: reply.elapsedTime / 1000, candidates: stats?.coalesced ? undefined : stats?.candidates });
    const params = request.params as Record<string, string | undefined>;
    request.log.info(
      {
        chainId: params.chainId,
        market: params.marketAddress,
        marketId: params.marketId,
        direction: stats?.direction ?? null,
        candidates: stats?.candidates ?? 0,
        rpcRequests: stats?.rpcRequests ?? 0,
        ...(stats?.blockNumber === undefined ? {} : { blockNumber: stats.blockNumber.toString() }),
        ...(stats?.coalesced ? { coalesced: true } : {}),
        ms,
        status,
        outcome: status === 200 ? "ok" : (errorMessages.get(request) ?? "unknown"),
      },
      "quote",
    );
  });
  app.addHook("preClose", async () => {
    closing = true;
  });

  void app.register(async (routes) => {
    const exempt = { rateLimit: false } as const;
    routes.get(HEALTH_PATH, { config: exempt, schema: healthSchema }, async () => ({ status: "ok" }));
    routes.get(READY_PATH, { config: exempt, schema: readySchema }, async (_request, reply) => {
      if (closing) return reply.code(503).send({ error: "Not ready", details: [{ param: "server", message: "shutting down" }] });
      const report = (await readiness?.()) ?? { ready: true, chains: [] };
      if (report.ready) return { status: "ready", chains: report.chains };
      const details = report.chains
        .filter((chain) => !chain.ready)
        .map((chain) => ({ param: "chainId", message: `chain ${chain.chainId} does not answer` }));
      return reply.code(503).send({ error: "Not ready", details, chains: report.chains });
    });
    routes.get(METRICS_PATH, { config: exempt, schema: metricsSchema }, async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    });
  });
}

/** The `error` of a JSON error body, for the log line. */
function errorMessageOf(payload: string): string {
  try {
    const { error } = JSON.parse(payload) as { error?: unknown };
    return typeof error === "string" ? error : "unknown";
  } catch {
    return "unknown";
  }
}

const tags = ["operations"];

const healthSchema = {
  tags,
  summary: "Liveness: the process is up",
  response: {
    200: {
      description: "Always, while the process serves HTTP",
      type: "object",
      required: ["status"],
      additionalProperties: false,
      properties: { status: { type: "string", enum: ["ok"] } },
    },
  },
} as const;

const chainReadinessSchema = {
  type: "object",
  required: ["chainId", "ready", "endpoints", "answering"],
  additionalProperties: false,
  properties: {
    chainId: { type: "integer" },
    ready: { type: "boolean", description: "At least one endpoint answered eth_blockNumber in time" },
    endpoints: { type: "integer", description: "RPC endpoints configured for the chain (never their URLs)" },
    answering: { type: "integer", description: "Endpoints that answered in time" },
    blockNumber: { type: "string", description: "The highest latest block among them" },
  },
} as const;

const readySchema = {
  tags,
  summary: "Readiness: every configured chain answers eth_blockNumber within READY_TIMEOUT_MS",
  response: {
    200: {
      description: "Every chain has an endpoint that answers",
      type: "object",
      required: ["status", "chains"],
      additionalProperties: false,
      properties: { status: { type: "string", enum: ["ready"] }, chains: { type: "array", items: chainReadinessSchema } },
    },
    503: {
      description: "A chain does not answer (details name each chain id), or the server is shutting down",
      type: "object",
      required: ["error", "details"],
      additionalProperties: false,
      properties: {
        error: { type: "string", enum: ["Not ready"] },
        details: {
          type: "array",
          items: {
            type: "object",
            required: ["param", "message"],
            additionalProperties: false,
            properties: { param: { type: "string" }, message: { type: "string" } },
          },
        },
        chains: { type: "array", items: chainReadinessSchema },
      },
    },
  },
} as const;

const metricsSchema = {
  tags,
  summary: "Prometheus metrics (text exposition format)",
  description:
    "quoter_http_requests_total, quoter_quote_duration_seconds, quoter_quote_candidates, quoter_rpc_requests_total, " +
    "and the process and Node.js metrics of prom-client.",
  response: {
    200: { description: "The metrics, in Prometheus text format", content: { "text/plain": { schema: { type: "string" } } } },
  },
} as const;
