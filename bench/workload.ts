// What the bench asks: a fixed mix of demo-market quotes that all succeed (200), both directions, deep and
// shallow markets, budgets that bind and price targets that bind; and, for the baseline, the very same
// searches as bare JSON-RPC `eth_call` bodies, exactly as the service's client sends them.
import { numberToHex } from "viem";
import { DEFAULT_SEARCH_GAS_CAP, encodeSearch } from "../src/chain/searcher.ts";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { parseQuoteRequest } from "../src/quote/request.ts";

export interface MixEntry {
  readonly marketId: number;
  readonly expectedPrice: string;
  readonly collateralAvailable: string;
  /** What the entry shows. */
  readonly note: string;
}

const E = (exponent: number) => `1${"0".repeat(exponent)}`;

/** Markets 1 (deep yes/no at 0.5) and 2 (shallow numeric at 1000) of the demo; every entry answers 200. */
export const MIX: readonly MixEntry[] = [
  { marketId: 1, expectedPrice: "0.55", collateralAvailable: E(21), note: "deep, LONG, budget binds" },
  { marketId: 1, expectedPrice: "0.45", collateralAvailable: E(21), note: "deep, SHORT, budget binds" },
  { marketId: 1, expectedPrice: "0.6", collateralAvailable: E(20), note: "deep, LONG, small budget" },
  { marketId: 1, expectedPrice: "0.4", collateralAvailable: E(19), note: "deep, SHORT, small budget" },
  { marketId: 2, expectedPrice: "1030", collateralAvailable: E(21), note: "shallow, LONG, price binds" },
  { marketId: 2, expectedPrice: "970", collateralAvailable: E(21), note: "shallow, SHORT, price binds" },
  { marketId: 2, expectedPrice: "1100", collateralAvailable: E(19), note: "shallow, LONG, budget binds" },
  { marketId: 2, expectedPrice: "900", collateralAvailable: E(23), note: "shallow, SHORT, large budget" },
];

/**
 * The service path of an entry: `/quoter/31337/<market group>/<id>?expectedPrice=&collateralAvailable=`.
 * `extraWei` is added to the budget: the bench makes every quote distinct this way, so that the service's
 * coalescing of identical in-flight requests never answers two quotes with one search.
 */
export function quotePath(entry: MixEntry, extraWei = 0): string {
  const collateralAvailable = (BigInt(entry.collateralAvailable) + BigInt(extraWei)).toString();
  const query = new URLSearchParams({ expectedPrice: entry.expectedPrice, collateralAvailable });
  return `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/${entry.marketId}?${query}`;
}

/**
 * The JSON-RPC body of the single-call search of an entry, as the service's viem client sends it: the
 * deployless calldata of `encodeSearch`, the default gas cap, at the latest block.
 */
export function bareSearchBody(entry: MixEntry, id = 0): string {
  const parsed = parseQuoteRequest(
    { chainId: String(DEVCHAIN_ID), marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: String(entry.marketId) },
    { expectedPrice: entry.expectedPrice, collateralAvailable: entry.collateralAvailable },
  );
  if (!parsed.ok) throw new Error(`bench mix entry does not parse: ${JSON.stringify(entry)}`);
  const call = { data: encodeSearch(parsed.value), gas: numberToHex(DEFAULT_SEARCH_GAS_CAP) };
  return JSON.stringify({ jsonrpc: "2.0", id, method: "eth_call", params: [call, "latest"] });
}
