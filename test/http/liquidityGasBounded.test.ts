// Semantics §7 and §14: gas never decides a liquidity answer. Under a gas cap too small for a whole search, the
// liquidity searcher's one call quotes the candidates it can fund and the search goes on at the same block by plain
// calls (each candidate's tokens, then its mint, to the market group): the answer is byte for byte the sequential
// strategy's, itself checked against the group's own requirement in liquidity.test.ts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { gasBoundedPairForFile } from "../support/liveService.ts";
import { quoteRequests } from "../support/rpcProxy.ts";

/** Room for the searcher's reads, the group's quote and its mint, and a couple of candidates: never a whole search. */
const CAP = 1_500_000n;
const E18 = 10n ** 18n;

/** [single-call under CAP behind the proxy, sequential on the node]. */
const pair = gasBoundedPairForFile(CAP);

const ASKS = [
  { what: "the whole market, 1000 tokens (18 decimals)", group: DEMO_MARKET_GROUP_ADDRESS, query: { collateralAvailable: (1000n * E18).toString() } },
  { what: "a narrow range around the price, 1 token (18 decimals)", group: DEMO_MARKET_GROUP_ADDRESS, query: { collateralAvailable: E18.toString(), lowerPrice: "0.49", upperPrice: "0.51" } },
  { what: "a range above the price, 100 tokens (6 decimals)", group: DEMO_USDC_MARKET_GROUP_ADDRESS, query: { collateralAvailable: (100n * E18).toString(), lowerPrice: "0.6", upperPrice: "0.8" } },
] as const;

describe(`a liquidity answer under SEARCH_GAS_CAP=${CAP}: the search goes on by plain calls at the same block`, () => {
  for (const { what, group, query } of ASKS) {
    test(what, { timeout: 120_000 }, async (t) => {
      const url = `/quoter/${DEVCHAIN_ID}/${group}/1/liquidity?${new URLSearchParams({ ...query, trace: "true" })}`;
      pair.setup().proxy.clear();
      const single = await pair.apps()[0].inject({ url });
      const calls = pair.setup().proxy.requests.filter((request) => request.method === "eth_call");
      const requests = quoteRequests(pair.setup().proxy.methods);
      const sequential = await pair.apps()[1].inject({ url });
      assert.equal(single.statusCode, 200, single.body);
      assert.equal(single.body, sequential.body, "byte for byte the sequential answer");
      assert.ok(requests.every((method) => method === "eth_call"), `${requests}`);
      const [first, ...rest] = calls.map((call) => (call.params as [{ to?: string }])[0]);
      assert.equal(first?.to, undefined, "the first call is the deployless searcher");
      assert.ok(rest.length > 0, "the search did not fit one call");
      assert.ok(rest.every((call) => call.to?.toLowerCase() === group.toLowerCase()), "the rest are plain calls to the market group");
      // The searcher quoted some candidates itself: fewer plain calls than the sequential strategy's two per candidate.
      const { candidates } = single.json() as { candidates: number };
      assert.ok(rest.length < 2 * candidates, `${rest.length} plain calls for ${candidates} candidates`);
      t.diagnostic(`${rest.length} plain calls after the searcher, ${candidates} candidates`);
    });
  }
});
