// A real quoter on a real chain: the embedded devchain served over JSON-RPC on loopback, the service's
// chain layer speaking HTTP to it, and the Fastify app answering through inject() or a socket. quoterApp() is
// the one place a test wires the service (chain clients, quoter, app), the way src/main.ts does.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { createChainRegistry, type ChainClientOptions } from "../../src/chain/rpc/client.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { buildApp, type AppOptions } from "../../src/http/app.ts";
import type { ProtectionOptions } from "../../src/http/protection.ts";
import type { Quoter } from "../../src/service/api.ts";
import { createMetrics } from "../../src/observability/metrics.ts";
import { createQuoter, type QuoterOptions } from "../../src/service/quoter.ts";
import { checkEndpoints } from "../../src/service/endpointCheck.ts";

export interface QuoterAppOptions extends Partial<Omit<ChainClientOptions, "observer">>, Omit<QuoterOptions, "chains" | "logger"> {
  /** The endpoints of each chain; a string or a list is chain 31337's endpoints, in order. */
  readonly rpc?: string | readonly string[] | ReadonlyMap<number, readonly string[]>;
  /** A stand-in for the service, for what acts before any quote (then `rpc` and the quoter's options are unused). */
  readonly quoter?: Quoter;
  /** The app's and the quoter's logger; none by default. */
  readonly logger?: FastifyBaseLogger;
  /** No rate limit by default: tests send many quotes from one address. */
  readonly protection?: Partial<ProtectionOptions>;
  readonly readyTimeoutMs?: number;
  /** CORS_ORIGINS and TRUST_PROXY as the app takes them (defaults: `*`, none). */
  readonly corsOrigins?: AppOptions["corsOrigins"];
  readonly trustProxy?: AppOptions["trustProxy"];
  /** STREAMS_MAX, STREAMS_PER_CLIENT and the keep-alive interval of live streams (defaults: the settings', 15 s). */
  readonly streams?: AppOptions["streams"];
  readonly batchMaxQuotes?: number;
  /** Where the explorer reads the client package's modules (default: the build's). */
  readonly explorer?: AppOptions["explorer"];
  /**
   * Checks each endpoint's chain id and probes it for deployless calls before the app answers, as `npm start` does
   * (default: both at the first quote).
   */
  readonly probe?: boolean;
}

/**
 * An app quoting through chain clients that report to its /metrics, each request within `timeoutMs` (default
 * 5,000 ms); /ready and /quoter know the chains. Ready to inject() into.
 */
export async function quoterApp(options: QuoterAppOptions): Promise<FastifyInstance> {
  const {
    rpc,
    quoter: standIn,
    logger,
    protection,
    readyTimeoutMs,
    corsOrigins,
    trustProxy,
    streams,
    batchMaxQuotes,
    explorer,
    probe,
    timeoutMs = 5_000,
    maxInFlight,
    maxQueued,
    maxResponseBytes,
    webSocketUrls,
    log: _log, // the logger's, when there is one
    ...quoterOptions
  } = options;
  const metrics = createMetrics();
  const rpcUrls = rpc === undefined ? new Map() : typeof rpc === "string" ? new Map([[DEVCHAIN_ID, [rpc]]]) : "get" in rpc ? rpc : new Map([[DEVCHAIN_ID, rpc]]);
  const chains = createChainRegistry(rpcUrls, {
    timeoutMs,
    maxInFlight,
    maxQueued,
    observer: metrics.observeRpc,
    ...(logger ? { log: logger } : {}),
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
    ...(webSocketUrls === undefined ? {} : { webSocketUrls }),
  });
  const service = standIn ? undefined : createQuoter({ ...quoterOptions, chains, ...(logger ? { logger } : {}) });
  await service?.start();
  if (probe && service) {
    await checkEndpoints(chains);
    await service.probe();
  }
  const app = buildApp({
    quoter: standIn ?? service!,
    metrics,
    ...(standIn ? {} : { chains }),
    ...(logger ? { logger } : {}),
    protection: { rateLimitMax: 0, ...protection },
    ...(readyTimeoutMs === undefined ? {} : { readyTimeoutMs }),
    ...(service ? { heads: () => service.heads() } : {}),
    ...(corsOrigins === undefined ? {} : { corsOrigins }),
    ...(trustProxy === undefined ? {} : { trustProxy }),
    ...(streams === undefined ? {} : { streams }),
    ...(batchMaxQuotes === undefined ? {} : { batchMaxQuotes }),
    ...(explorer === undefined ? {} : { explorer }),
  });
  // The head followers stop with the app (their sockets and timers).
  if (service) app.addHook("onClose", () => service.close());
  await app.ready();
  return app;
}

export interface QuoterHarness {
  readonly devchain: Devchain;
  readonly app: FastifyInstance;
  /** GET a path and return the status and the parsed JSON body. */
  get(path: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** `/quoter/31337/<market group>/<id>?<query>` */
  quotePath(marketId: bigint | number | string, query: Record<string, string>): string;
  close(): Promise<void>;
}

/** A fresh devchain and an app on it (or on `rpcUrls`). */
export async function startQuoterHarness(options: { rpcUrls?: Map<number, string[]> } = {}): Promise<QuoterHarness> {
  const devchain = await startDevchain();
  const app = await quoterApp({ rpc: options.rpcUrls ?? devchain.endpoint.url });
  return {
    devchain,
    app,
    async get(path) {
      const response = await app.inject({ method: "GET", url: path });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    },
    quotePath(marketId, query) {
      return `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;
    },
    async close() {
      await app.close();
      await devchain.close();
    },
  };
}
