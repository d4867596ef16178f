// The HTTP application: Fastify with the quote route mounted under /quoter.
import { fastifySSE } from "@fastify/sse";
import fp from "fastify-plugin";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { SETTINGS, type CorsOrigins, type TrustProxy } from "../config.ts";
import { corsPlugin } from "./cors.ts";
import { badUrl, clientError, installErrorHandling } from "./errorHandling.ts";
import { explorerPlugin, type ExplorerOptions } from "./explorer/plugin.ts";
import { indexRoute } from "./indexRoute.ts";
import { docsPlugin } from "./openapi.ts";
import { DEFAULT_PROTECTION, protectionPlugin, type ProtectionOptions } from "./protection.ts";
import { batchRoute } from "./batchRoute.ts";
import { depthRoute } from "./depthRoute.ts";
import { liquidityRoute, positionRoute, quoteRoute } from "./quoteRoute.ts";
import type { ChainRegistry } from "../chain/rpc/client.ts";
import type { HeadStatus } from "../chain/head/follower.ts";
import { createMetrics, type Metrics } from "../observability/metrics.ts";
import { createReadinessCheck } from "../observability/readiness.ts";
import { observabilityPlugin, requestIdFor } from "./observability.ts";
import { BASE_PATH, EXPLORER_PATH } from "./paths.ts";
import type { ChainFollow, Quoter } from "../service/api.ts";
import { createLiveQuotes } from "../service/liveQuotes.ts";
import { DEFAULT_STREAM_LIMITS, LiveStreams, type StreamLimits } from "./liveStreams.ts";
import type { Replica } from "../service/replicas/replicas.ts";
import { registerReplicaMetrics } from "../observability/replicaMetrics.ts";
import { replicatedRateLimitStore } from "./rateLimitStore.ts";

export interface AppOptions {
  readonly quoter: Quoter;
  /** A pino logger; none by default (tests). */
  readonly logger?: FastifyBaseLogger;
  /** Rate limit and URL bound; {@link DEFAULT_PROTECTION} by default. */
  readonly protection?: Partial<ProtectionOptions>;
  /** Served at /metrics; a fresh registry by default. Pass the one whose observeRpc the chain clients report to. */
  readonly metrics?: Metrics;
  /** The chains /ready checks (each must answer eth_blockNumber within readyTimeoutMs) and /quoter lists; none by default. */
  readonly chains?: ChainRegistry;
  readonly readyTimeoutMs?: number;
  /** Each chain's head and how it is followed, for /health, /ready and /metrics (the quoter service's `heads`). */
  readonly heads?: () => readonly HeadStatus[];
  /** Origins browser apps may call from (CORS_ORIGINS); `*` by default. */
  readonly corsOrigins?: CorsOrigins;
  /** Whose X-Forwarded-For names the client (TRUST_PROXY); none by default. */
  readonly trustProxy?: TrustProxy;
  /** The most quotes of one batch (BATCH_MAX_QUOTES). */
  readonly batchMaxQuotes?: number;
  /** Live streams: STREAMS_MAX, STREAMS_PER_CLIENT and the keep-alive interval ({@link DEFAULT_STREAM_LIMITS}). */
  readonly streams?: Partial<StreamLimits>;
  /** Replicas sharing Redis (REDIS_URL): the rate limit counts through it, /health and /metrics say its state. */
  readonly replica?: Replica;
  /** Where the explorer reads the client package's modules ({@link ExplorerOptions}); by default the build's. */
  readonly explorer?: ExplorerOptions;
}

export function buildApp(options: AppOptions): FastifyInstance {
  const { quoter, logger, protection, metrics, chains, readyTimeoutMs, heads, corsOrigins = "*", trustProxy = false } = options;
  const app = Fastify({
    trustProxy: fastifyTrustProxy(trustProxy),
    // Errors before routing answer in the API's error shape too: a URL that is not percent-encoded, a request
    // the HTTP parser refused (its headers too large: 431).
    frameworkErrors: badUrl,
    clientErrorHandler: clientError,
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // A caller's sane x-request-id is kept (and echoed); the hooks of observability.ts log one line per answer.
    requestIdHeader: false,
    genReqId: requestIdFor,
    logController: new LogController({ disableRequestLogging: true }),
    // Existing clients send a trailing slash (semantics §2).
    // Parameters longer than 100 characters are the parser's to reject with 400 (semantics §2), not a 404;
    // the URL as a whole is bounded by the protection hook.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
  });
  installErrorHandling(app);
  const isClosing = closeConnectionsWhenDone(app);
  const { replica } = options;
  const protect = { ...DEFAULT_PROTECTION, ...protection };
  const rateLimitStore = replica === undefined ? {} : { rateLimitStore: replicatedRateLimitStore(replica.link, protect.rateLimitClients) };
  void app.register(protectionPlugin, { ...protect, ...rateLimitStore });
  void app.register(corsPlugin, { origins: corsOrigins });
  const appMetrics = metrics ?? createMetrics();
  if (heads) appMetrics.observeHeads(heads);
  if (replica) replica.observe(registerReplicaMetrics(appMetrics.registry, replica.status).shared);
  void app.register(observabilityPlugin, {
    metrics: appMetrics,
    isClosing,
    ...(heads ? { heads } : {}),
    ...(replica ? { redis: replica.status } : {}),
    ...(chains ? { readiness: createReadinessCheck(chains, readyTimeoutMs === undefined ? {} : { timeoutMs: readyTimeoutMs }) } : {}),
  });
  void app.register(docsPlugin); // before the routes it documents
  // Before the quote route, whose GET it streams. Its named export (the one its types describe for ES modules) is
  // the plugin unwrapped: wrapped here, as the package's own default export is, to reach the routes of the app.
  void app.register(fp(fastifySSE, { name: "@fastify/sse" }), { heartbeatInterval: 0 });
  const streams = liveStreams(app, quoter, appMetrics, options.streams);
  void app.register(quoteRoute, { prefix: BASE_PATH, quoter, streams });
  void app.register(positionRoute, { prefix: BASE_PATH, quoter, streams });
  void app.register(liquidityRoute, { prefix: BASE_PATH, quoter, streams });
  const maxQuotes = options.batchMaxQuotes ?? SETTINGS.BATCH_MAX_QUOTES.default;
  const observed = (count: (n: number) => void, route: "batch" | "depth") => (n: number, gas?: bigint) => {
    count(n);
    if (gas !== undefined) appMetrics.observeSearchGas(route, gas);
  };
  void app.register(batchRoute, { prefix: BASE_PATH, quoter, maxQuotes, observe: observed(appMetrics.observeBatch, "batch"), streams });
  void app.register(depthRoute, { prefix: BASE_PATH, quoter, observe: observed(appMetrics.observeDepth, "depth") });
  void app.register(explorerPlugin, { prefix: BASE_PATH, ...options.explorer });
  void app.register(indexRoute, { prefix: BASE_PATH, chainIds: [...(chains?.keys() ?? [])] });
  // The root is where a newcomer types the service's address: the explorer.
  app.get("/", { schema: { hide: true } }, async (_request, reply) => reply.redirect(EXPLORER_PATH, 302));
  return app;
}

/**
 * The live streams of a quoter that follows its chains' heads (a stand-in in tests may not): every stream gets
 * `end` (`shutdown`) as the app closes, before the server stops.
 */
function liveStreams(app: FastifyInstance, quoter: Quoter, metrics: Metrics, limits: Partial<StreamLimits> = {}): LiveStreams | undefined {
  if (!follows(quoter)) return undefined;
  const live = createLiveQuotes({ quoter, observe: { search: metrics.streams.search, head: metrics.streams.head } });
  const streams = new LiveStreams(live, { ...DEFAULT_STREAM_LIMITS, ...limits }, metrics.streams);
  app.addHook("preClose", () => streams.endAll());
  app.addHook("onClose", async () => live.close());
  return streams;
}

const follows = (quoter: Quoter): quoter is Quoter & { follow(chainId: number): ChainFollow | undefined } =>
  typeof (quoter as { follow?: unknown }).follow === "function";

/** TRUST_PROXY as Fastify takes it: a hop count is "the nearest n addresses are proxies". */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return typeof trust === "boolean" ? trust : [...trust];
}

/**
 * Graceful shutdown: once closing, every answer says `Connection: close`, so that keep-alive sockets end
 * with the in-flight request they carry instead of holding the server open until their idle timeout.
 * Returns whether the server is closing, which /ready reports too.
 */
function closeConnectionsWhenDone(app: FastifyInstance): () => boolean {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
  return () => closing;
}
