// `npm start`: the quoter over HTTP. With no RPC_URL_<chainId> set, it brings up the embedded demo chain.
import { pino } from "pino";
import { createChainRegistry } from "./chain/client.ts";
import { ConfigError, loadConfig, redactUrl } from "./config.ts";
import { DEVCHAIN_ID } from "./devchain/chain.ts";
import { DEMO_MARKETS } from "./devchain/demo.ts";
import { startDevchain, type Devchain } from "./devchain/devchain.ts";
import { buildApp } from "./http/app.ts";
import { createQuoter } from "./service/quoter.ts";

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`quoter: invalid configuration: ${error.message}`);
  process.exit(1);
}

let devchain: Devchain | undefined;
let rpcUrls = config.rpcUrls;
if (rpcUrls.size === 0) {
  devchain = await startDevchain();
  rpcUrls = new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]);
}

const chains = createChainRegistry(rpcUrls, {
  timeoutMs: config.rpcTimeoutMs,
  maxInFlight: config.rpcMaxInFlight,
  maxQueued: config.rpcMaxQueued,
});
const logger = pino({ level: config.logLevel });
const quoter = createQuoter({
  chains,
  strategy: config.searchStrategy,
  searchGasCap: config.searchGasCap,
  deadlineMs: config.quoteDeadlineMs,
  logger,
});
await quoter.probe();
const app = buildApp({
  quoter,
  logger,
  protection: { rateLimitMax: config.rateLimitMax, rateLimitWindowMs: config.rateLimitWindowMs, maxUrlLength: config.maxUrlLength },
});
const address = await app.listen({ host: config.host, port: config.port });

console.log(`Quoter listening on ${address}/quoter (${config.searchStrategy} search)`);
for (const [chainId, urls] of rpcUrls) {
  console.log(`  chain ${chainId}: ${devchain ? "embedded demo chain" : urls.map(redactUrl).join(", ")}`);
}
if (devchain) {
  console.log(`Demo market group ${devchain.marketGroup} on chain ${DEVCHAIN_ID}. Try:`);
  for (const market of DEMO_MARKETS) {
    const query = `expectedPrice=${market.example.expectedPrice}&collateralAvailable=${market.example.collateralAvailable}`;
    console.log(`  curl '${address}/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${market.id}?${query}'   # ${market.role}`);
  }
}

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
