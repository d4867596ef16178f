// `npm start`: the quoter over HTTP. With no RPC_URL_<chainId> set, it brings up the embedded demo chain.
import * as nodeModule from "node:module";
import type { Devchain } from "./devchain/devchain.ts";

// The compiled code of every module kept on disk (Node 22.1+; in the system's temp dir, or NODE_COMPILE_CACHE): the
// next start loads it instead of compiling the service's code again.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { forEmbeddedChain, loadConfig, loadOrExit, redactUrl } = await import("./config.ts");
const config = loadOrExit("quoter", () => loadConfig());

// The embedded chain (a child process) starts first, and loads its state while this process loads the service's code.
const starting = config.rpcUrls.size === 0 ? startEmbeddedDemo(config.demoChain === "deploy") : undefined;
const [{ bannerLines }, { DEVCHAIN_ID }, { buildApp }, { createLogger }, { createMetrics }, { checkEndpoints, wrongChainLine }, { createQuoterFromConfig }, { startReplica }] =
  await Promise.all([
    import("./banner.ts"),
    import("./devchain/devchainId.ts"),
    import("./http/app.ts"),
    import("./observability/logger.ts"),
    import("./observability/metrics.ts"),
    import("./service/endpointCheck.ts"),
    import("./service/fromConfig.ts"),
    import("./service/replicas/replicas.ts"),
  ]);

/** The demo chain, or the process's end with one line saying why (a saved state that is missing or stale). */
async function startEmbeddedDemo(deploy: boolean): Promise<Devchain> {
  // Loaded only when used: a service on real RPCs has no use for the chain's code or its child process.
  const [{ startDevchain }, { DemoStateError }] = await Promise.all([import("./devchain/devchain.ts"), import("./devchain/demoState.ts")]);
  return startDevchain({ deploy }).catch((error: unknown) => {
    if (!(error instanceof DemoStateError)) throw error;
    console.error(`quoter: ${error.message}`);
    process.exit(1);
  });
}

const devchain = await starting;
const rpcUrls = devchain ? new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]) : config.rpcUrls;

const metrics = createMetrics({ processMetrics: true });
const logger = createLogger({ level: config.logLevel, format: config.logFormat });
// Replicas share answers, searches and rate-limit counts through Redis; it need not answer for the service to start.
const replica =
  config.redisUrl === undefined
    ? undefined
    : startReplica({ redisUrl: config.redisUrl, timeoutMs: config.redisTimeoutMs, claimMs: config.redisClaimMs, answerTtlMs: config.redisAnswerTtlMs, logger });
const { chains, quoter } = createQuoterFromConfig(devchain ? forEmbeddedChain(config) : config, rpcUrls, {
  observer: metrics.observeRpc,
  logger,
  ...(replica ? { sharing: replica.sharing } : {}),
  // The embedded chain's node serves JSON-RPC over WebSocket on its HTTP port: its new heads are pushed.
  ...(devchain ? { webSocketUrls: new Map([[DEVCHAIN_ID, devchain.endpoint.webSocketUrl]]) } : {}),
});

// Every endpoint must serve the chain it is configured for: a node of another chain would answer for it.
const checks = await checkEndpoints(chains);
await quoter.start();
const wrong = [
  ...checks.flatMap((check) => (check.kind === "wrong-chain" ? [wrongChainLine(check)] : [])),
  ...quoter.heads().flatMap((head) =>
    head.webSocket === "wrong-chain" && head.webSocketChainId !== undefined
      ? [wrongChainLine({ chainId: head.chainId, source: `RPC_WS_URL_${head.chainId}`, other: head.webSocketChainId })]
      : [],
  ),
];
if (wrong.length > 0) {
  for (const line of wrong) console.error(`quoter: ${line}`);
  await quoter.close();
  await devchain?.close();
  process.exit(1);
}
for (const check of checks) {
  if (check.kind === "unreachable") {
    logger.warn(
      { chainId: check.chainId, endpoint: check.label, reason: check.reason },
      `${check.source} did not answer eth_chainId at start-up: quotes on chain ${check.chainId} fail over to the next URL or answer 503 until it does`,
    );
  }
}
await quoter.probe();
const app = buildApp({
  quoter,
  logger,
  protection: { rateLimitMax: config.rateLimitMax, rateLimitWindowMs: config.rateLimitWindowMs, rateLimitClients: config.rateLimitClients, maxUrlLength: config.maxUrlLength },
  metrics,
  chains,
  readyTimeoutMs: config.readyTimeoutMs,
  heads: () => quoter.heads(),
  corsOrigins: config.corsOrigins,
  trustProxy: config.trustProxy,
  streams: { max: config.streamsMax, perClient: config.streamsPerClient },
  batchMaxQuotes: config.batchMaxQuotes,
  ...(replica ? { replica } : {}),
});
const address = await app.listen({ host: config.host, port: config.port }).catch(async (error: NodeJS.ErrnoException) => {
  // A port taken or refused is a set-up mistake: one line that says what to change, not a stack trace.
  const why =
    error.code === "EADDRINUSE"
      ? `port ${config.port} on ${config.host} is in use: stop what listens there, or set PORT to another port (PORT=0 takes any free one)`
      : error.code === "EACCES"
        ? `port ${config.port} on ${config.host} needs privileges: set PORT to 1024 or above`
        : error.code === "EADDRNOTAVAIL"
          ? `${config.host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all)`
          : undefined;
  if (why === undefined) throw error;
  console.error(`quoter: ${why}`);
  await quoter.close();
  await devchain?.close();
  process.exit(1);
});

const demoMarkets = devchain ? (await import("./devchain/demo.ts")).DEMO_MARKETS : undefined;
const checked = (chainId: number) => checks.filter((check) => check.chainId === chainId && check.kind === "ok").length;
const banner = bannerLines({
  address,
  strategy: config.searchStrategy,
  chains: [...rpcUrls].map(([chainId, urls]) => {
    const endpoints = devchain ? "embedded demo chain" : urls.map(redactUrl).join(", ");
    const ws = chains.get(chainId)?.webSocket;
    const polled = `new heads polled (at most ${config.headPollMs} ms apart while asked)`;
    // What the follower does now, not what is configured: a WebSocket that did not connect is retried meanwhile.
    const subscribed = quoter.heads().find((head) => head.chainId === chainId)?.webSocket === "connected";
    const where = devchain ? "its WebSocket" : ws?.label;
    const heads = !ws ? polled : subscribed ? `new heads pushed over ${where}` : `${polled}: ${where} did not connect yet, retried in the background`;
    return [chainId, `${endpoints}; chain id checked on ${checked(chainId)} of ${urls.length}; ${heads}`] as const;
  }),
  ...(demoMarkets ? { demoMarkets } : {}),
  ...(replica && config.redisUrl ? { redis: { url: redactUrl(config.redisUrl), up: await replica.link.ready(1000) } } : {}),
});
for (const line of banner) console.log(line);

// Graceful shutdown: stop accepting, let in-flight quotes finish (each is bounded by its deadline), exit 0.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "shutting down: finishing in-flight quotes");
    app
      .close()
      .then(() => quoter.close())
      .then(() => replica?.close())
      .then(() => devchain?.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  });
}
