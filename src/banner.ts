// What `npm start` prints once it listens: where to go first (the docs and the explorer), the operations
// endpoints, the chains served and, on the embedded demo chain, a ready-to-run quote of each demo market.
import { DEVCHAIN_ID } from "./devchain/devchainId.ts";
import type { DemoMarket } from "./devchain/demo.ts";
import { QUOTE_PATH_TEMPLATE } from "./http/indexRoute.ts";
import { BASE_PATH, DOCS_PATH, EXPLORER_PATH, HEALTH_PATH, METRICS_PATH, READY_PATH } from "./http/paths.ts";

export interface BannerInput {
  /** The listening origin, e.g. http://127.0.0.1:3000 */
  readonly address: string;
  readonly strategy: string;
  /** Each configured chain with how to name its endpoints (never a full RPC URL). */
  readonly chains: ReadonlyArray<readonly [number, string]>;
  /** The embedded chain's demo markets, when it runs. */
  readonly demoMarkets?: readonly DemoMarket[];
  /** With REDIS_URL: where replicas share work (never a password), and whether it answers now. */
  readonly redis?: { readonly url: string; readonly up: boolean };
}

/** The template's optional parameters, as names, on as many lines as a terminal's width allows (the trade's apart). */
function optionalLines(): string[] {
  const names = [...QUOTE_PATH_TEMPLATE.matchAll(/\[&([^\]]+)\]/g)].map((match) => match[1]!);
  const trade = names.filter((name) => /^(taker|slippageBps|deadlineSeconds)=/.test(name));
  const search = names.filter((name) => !trade.includes(name));
  return [`              optional: ${search.join(", ")}`, ...(trade.length > 0 ? [`              to trade: ${trade.join(", ")}`] : [])];
}

export function bannerLines({ address, strategy, chains, demoMarkets, redis }: BannerInput): string[] {
  const lines = [
    `Quoter listening on ${address}${BASE_PATH} (${strategy} search)`,
    `  docs:       ${address}${DOCS_PATH}`,
    `  explorer:   ${address}${EXPLORER_PATH}`,
    // The template's optional parameters on a line of their own, as names: the line stays readable.
    `  quote:      ${address}${QUOTE_PATH_TEMPLATE.slice(0, QUOTE_PATH_TEMPLATE.indexOf("["))}`,
    ...optionalLines(),
    `  operations: ${[HEALTH_PATH, READY_PATH, METRICS_PATH].map((path) => address + path).join(", ")}`,
  ];
  for (const [chainId, endpoints] of chains) lines.push(`  chain ${chainId}: ${endpoints}`);
  if (redis !== undefined) {
    const state = redis.up ? "up" : "not answering yet: this replica works alone until it does";
    lines.push(`  replicas:   answers, searches and rate-limit counts shared through ${redis.url} (${state})`);
  }
  if (demoMarkets !== undefined && demoMarkets.length > 0) {
    lines.push(`Demo markets on chain ${DEVCHAIN_ID}. Try:`);
    for (const market of demoMarkets) {
      const query = `expectedPrice=${market.example.expectedPrice}&collateralAvailable=${market.example.collateralAvailable}`;
      // The note on a line of its own: the curl line alone is as wide as a terminal allows.
      lines.push(`  # market ${market.id} of ${shortAddress(market.group)}: ${market.role}`);
      lines.push(`  curl '${address}${BASE_PATH}/${DEVCHAIN_ID}/${market.group}/${market.id}?${query}'`);
    }
  }
  return lines;
}

/** 0x5FbD…0aa3: enough to tell the demo groups apart in a note. */
function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
