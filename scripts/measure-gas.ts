// `npm run gas`: the gas of a 10-candidate single-call search on each demo market (issue 4), by
// eth_estimateGas of the same deployless call the service makes, on a fresh embedded chain.
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKETS } from "../src/devchain/demo.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { encodeSearch } from "../src/chain/singleCall.ts";
import { parseQuoteRequest } from "../src/quote/request.ts";

export async function measureSearchGas(): Promise<{ group: string; marketId: bigint; request: string; gas: bigint }[]> {
  const devchain = await startDevchain();
  try {
    const rows = [];
    for (const market of DEMO_MARKETS) {
      const query = { ...market.example, maxIterations: "10" };
      const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress: market.group, marketId: String(market.id) }, query);
      if (!parsed.ok) throw parsed.error;
      const gas = await devchain.chain.publicClient.estimateGas({ data: encodeSearch(parsed.value) });
      rows.push({ group: market.group, marketId: market.id, request: new URLSearchParams(query).toString(), gas });
    }
    return rows;
  } finally {
    await devchain.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await measureSearchGas()) console.log(`group ${row.group} market ${row.marketId}: ${row.gas} gas  (${row.request})`);
}
