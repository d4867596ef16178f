// The operational routes, /health, /ready and /metrics: at the root, outside the quote API, and exempt from the
// rate limit, since probes and scrapers call them all the time.
import type { FastifyPluginAsync } from "fastify";
import type { HeadStatus } from "../chain/head/follower.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { Readiness } from "../observability/readiness.ts";
import type { RedisStatus } from "../service/replicas/redisLink.ts";
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from "./paths.ts";

export interface OperationsOptions {
  readonly metrics: Metrics;
  /** Whether each configured chain answers; none configured: always ready. */
  readonly readiness?: () => Promise<Readiness>;
  /** Whether the server is shutting down: then /ready says so, whatever the chains. */
  readonly isClosing: () => boolean;
  /** Each chain's head and how it is followed; none configured: /health says only that the process is up. */
  readonly heads?: () => readonly HeadStatus[];
  /** Redis's state, when replicas share it (REDIS_URL): /health says whether this replica shares or works alone. */
  readonly redis?: () => RedisStatus;
}

/** What /health says of Redis: up (sharing) or down (alone), since when, and why it is down. */
function redisOf(status: RedisStatus) {
  return { state: status.state, since: new Date(status.since).toISOString(), ...(status.reason === undefined ? {} : { reason: status.reason }) };
}

/** What /health and /ready say of a chain's head: its block, how old it is, and how it is followed. */
function headOf(status: HeadStatus) {
  return {
    followedBy: status.followedBy,
    ...(status.webSocket ? { webSocket: status.webSocket } : {}),
    ...(status.head ? { head: status.head } : {}),
  };
}

export const operationsRoutes: FastifyPluginAsync<OperationsOptions> = async (routes, { metrics, readiness, isClosing, heads, redis }) => {
  const exempt = { rateLimit: false } as const;
  routes.get(HEALTH_PATH, { config: exempt, schema: healthSchema }, async () => ({
    status: "ok",
    ...(heads === undefined ? {} : { chains: heads().map((status) => ({ chainId: status.chainId, ...headOf(status) })) }),
    ...(redis === undefined ? {} : { redis: redisOf(redis()) }),
  }));
  routes.get(READY_PATH, { config: exempt, schema: readySchema }, async (_request, reply) => {
    if (isClosing()) return reply.code(503).send({ error: "Not ready", details: [{ param: "server", message: "shutting down" }] });
    const report = (await readiness?.()) ?? { ready: true, chains: [] };
    const followed = new Map((heads?.() ?? []).map((status) => [status.chainId, headOf(status)]));
    const chains = report.chains.map((chain) => ({ ...chain, ...followed.get(chain.chainId) }));
    if (report.ready) return { status: "ready", chains };
    const details = report.chains
      .filter((chain) => !chain.ready)
      .map((chain) => ({ param: "chainId", message: `chain ${chain.chainId} does not answer` }));
    return reply.code(503).send({ error: "Not ready", details, chains });
  });
  routes.get(METRICS_PATH, { config: exempt, schema: metricsSchema }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
};

const tags = ["operations"];

/** A chain's head as /health and /ready show it. */
const followedProperties = {
  followedBy: {
    type: "string",
    enum: ["subscription", "polling", "idle"],
    description:
      "How the chain's head is followed now: subscription (new heads pushed over RPC_WS_URL_<chainId>), polling " +
      "(the latest block read at most HEAD_POLL_MS apart while the chain is asked about), idle (nobody asked lately)",
  },
  webSocket: { type: "string", enum: ["connected", "connecting", "wrong-chain"], description: "RPC_WS_URL_<chainId>'s state, when set" },
  head: {
    type: "object",
    required: ["blockNumber", "blockHash", "ageMs"],
    additionalProperties: false,
    description: "The newest block seen: new quotes are answered at it (semantics §11)",
    properties: {
      blockNumber: { type: "string" },
      blockHash: { type: "string", pattern: "^0x[0-9a-f]{64}$" },
      ageMs: { type: "integer", description: "Milliseconds since it was last seen (pushed, polled or read)" },
    },
  },
} as const;

const healthSchema = {
  tags,
  summary: "Liveness: the process is up; each chain's head and how it is followed",
  response: {
    200: {
      description: "Always, while the process serves HTTP",
      type: "object",
      required: ["status"],
      additionalProperties: false,
      properties: {
        status: { type: "string", enum: ["ok"] },
        chains: {
          type: "array",
          items: { type: "object", required: ["chainId", "followedBy"], additionalProperties: false, properties: { chainId: { type: "integer" }, ...followedProperties } },
        },
        redis: {
          type: "object",
          description: "With REDIS_URL set: whether this replica shares answers, searches and rate-limit counts through Redis (up) or works alone (down)",
          required: ["state", "since"],
          additionalProperties: false,
          properties: {
            state: { type: "string", enum: ["up", "down"] },
            since: { type: "string", format: "date-time", description: "When it entered that state" },
            reason: { type: "string", description: "Why Redis is counted down: its last error" },
          },
        },
      },
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
    ...followedProperties,
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
