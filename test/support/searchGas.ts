// The gas of one search as the service's single call makes it, measured on the chain: tests that need a gas cap
// holding "a few searches" size it by this, so that the cap follows what a candidate costs on the demo markets.
import { encodeSearch } from "../../src/chain/searchers/searcher.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { parseQuoteRequest } from "../../src/quote/request.ts";
import { meterDeployless, rpcClient } from "../../scripts/measure-gas.ts";

/** The gas of the deployless call searching `query` on market `marketId` of `group`, at the chain's head. */
export async function searchGas(url: string, group: string, marketId: string, query: Record<string, string>): Promise<bigint> {
  const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress: group, marketId }, query);
  if (!parsed.ok) throw parsed.error;
  return (await meterDeployless(rpcClient(url), encodeSearch(parsed.value))).gas;
}
