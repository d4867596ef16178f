// `npm start`: the quoter over HTTP. With no RPC_URL_<chainId> set, it brings up the embedded demo chain.
import { bannerLines } from "./banner.ts";
import { loadConfig, loadOrExit, redactUrl } from "./config.ts";
import { DEVCHAIN_ID } from "./devchain/chainId.ts";
import type { Devchain } from "./devchain/devchain.ts";
import { buildApp } from "./http/app.ts";
import { createLogger } from "./observability/logger.ts";
import { createMetrics } from "./observability/metrics.ts";
import { createQuoterFromConfig } from "./service/fromConfig.ts";

const config = loadOrExit("quoter", () => loadConfig());

let devchain: Devchain | undefined;
let rpcUrls = config.rpcUrls;
if (rpcUrls.size === 0) {
  // Loaded only when used: a service on real RPCs has no use for the chain's code or its child process.
  const { startDevchain } = await import("./devchain/devchain.ts");
  devchain = await startDevchain();
  rpcUrls = new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]);
}

const metrics = createMetrics({ processMetrics: true });
const logger = createLogger({ level: config.logLevel, format: config.logFormat });
const { chains, quoter } = createQuoterFromConfig(config, rpcUrls, { observer: metrics.observeRpc, logger });
await quoter.probe();
const app = buildApp({
  quoter,
  logger,
  protection: { rateLimitMax: config.rateLimitMax, rateLimitWindowMs: config.rateLimitWindowMs, maxUrlLength: config.maxUrlLength },
  metrics,
  chains,
  readyTimeoutMs: config.readyTimeoutMs,
});
const address = await app.listen({ host: config.host, port: config.port });

const demoMarkets = devchain ? (await import("./devchain/demo.ts")).DEMO_MARKETS : undefined;
const banner = bannerLines({
  address,
  strategy: config.searchStrategy,
  chains: [...rpcUrls].map(([chainId, urls]) => [chainId, devchain ? "embedded demo chain" : urls.map(redactUrl).join(", ")] as const),
  ...(demoMarkets ? { demoMarkets } : {}),
});
for (const line of banner) console.log(line);

// Graceful shutdown: stop accepting, let in-flight quotes finish (each is bounded by its deadline), exit 0.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "shutting down: finishing in-flight quotes");
    app
      .close()
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
