// `npm run devchain`: the embedded chain and demo deployment as a standalone JSON-RPC node; anvil listens on
// the requested address itself, and stops with this process.
import { parseArgs } from "node:util";
import { formatUnits } from "viem";
import { SETTINGS, loadDevchainConfig, loadOrExit } from "../config.ts";
import { DOCS_PATH, EXPLORER_PATH } from "../http/paths.ts";
import { DEVCHAIN_ID } from "./chain.ts";
import { DEMO_MARKET_GROUPS, DEMO_MARKETS, DEMO_UNISWAP_FACTORY_ADDRESS, type DemoMarket } from "./demo.ts";
import { startDevchain } from "./devchain.ts";
import { DemoStateError } from "./demoState.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", short: "p" },
    host: { type: "string" },
    deploy: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log(`Usage: npm run devchain -- [--port N] [--host H] [--deploy]   (or: quoter devchain [--port N] [--host H] [--deploy])

Serves a local EVM node (anvil, chain id ${DEVCHAIN_ID}) with the demo market group over JSON-RPC.
  --port N   port to listen on (default: DEVCHAIN_PORT or ${SETTINGS.DEVCHAIN_PORT.default})
  --host H   address to bind (default: DEVCHAIN_HOST or ${SETTINGS.DEVCHAIN_HOST.default})
  --deploy   deploy the demo from scratch instead of loading the state the build saved (default: DEMO_CHAIN=${SETTINGS.DEMO_CHAIN.default})`);
  process.exit(0);
}

const config = loadOrExit("devchain", () => loadDevchainConfig());
const port = values.port === undefined ? config.port : SETTINGS.DEVCHAIN_PORT.parse(values.port);
if (port === undefined) {
  console.error(`devchain: the port must be ${SETTINGS.DEVCHAIN_PORT.accepts}, got "${values.port}"`);
  process.exit(2);
}
const host = values.host ?? config.host;

/** Each range's liquidity L and its prices, e.g. "10^24 in [0.01, 0.99]". */
function liquidityText(market: DemoMarket): string {
  return market.ranges.map((r) => `${r.liquidity} in [${formatUnits(r.minPriceD18, 18)}, ${formatUnits(r.maxPriceD18, 18)}]`).join(" + ");
}

const deploy = values.deploy === true || config.demoChain === "deploy";
const devchain = await startDevchain({ host, port, deploy }).catch((error: unknown) => {
  if (!(error instanceof DemoStateError)) throw error;
  console.error(`devchain: ${error.message}`);
  process.exit(1);
});
console.log(`Devchain (chain id ${DEVCHAIN_ID}) listening on ${devchain.endpoint.url}`);
for (const group of DEMO_MARKET_GROUPS) {
  console.log(`Market group: ${group.address}, ${group.role}`);
  for (const market of DEMO_MARKETS.filter((m) => m.group === group.address)) {
    const range = `[${formatUnits(market.minPriceD18, 18)}, ${formatUnits(market.maxPriceD18, 18)}]`;
    // A settled or ended market has no price a trade could move: say what it is instead.
    const state =
      market.settlementPriceD18 !== undefined
        ? `settled at ${formatUnits(market.settlementPriceD18, 18)}, not tradeable`
        : market.ended
          ? "ended, not settled, not tradeable"
          : `price ${formatUnits(market.priceD18, 18)} in ${range}, liquidity ${liquidityText(market)}, fee ${market.feeRate / 10_000}%`;
    console.log(`  market ${market.id}: ${state}; ${market.role}`);
  }
}
console.log(`Uniswap v3 factory (v3-core 1.0.1): ${DEMO_UNISWAP_FACTORY_ADDRESS}`);
// A node alone answers JSON-RPC only: say how to put the quoter, its docs and its explorer in front of it.
console.log(`Quote on it: RPC_URL_${DEVCHAIN_ID}=${devchain.endpoint.url} npm start, then open ${DOCS_PATH} or ${EXPLORER_PATH} on the port it prints`);

// The node is a child process: this one lives as long as it does, and says so if it ends on its own.
let closing = false;
devchain.chain.hold();
void devchain.chain.exited.then((how) => {
  if (closing) return;
  console.error(`devchain: the chain node stopped (${how})`);
  process.exit(1);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    closing = true;
    void devchain.close().finally(() => process.exit(0));
  });
}
