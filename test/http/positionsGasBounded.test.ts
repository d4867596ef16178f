// Semantics §7 and §13: gas never decides a held position's answer either. Under a gas cap too small for a whole
// search, the position searcher's call continues at the same block in further calls, each run again at the owner's
// address, from the position's market, size and offset the first call read; the answer is byte for byte the
// sequential strategy's, and the test's own search agrees with it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Address } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_DEPLOYER, DEMO_MARKET_GROUP_ADDRESS, DEMO_TRADER, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { gasBoundedPairForFile } from "../support/liveService.ts";
import { quoteRequests } from "../support/rpcProxy.ts";
import { bisectionOfPosition, maximumOfPosition } from "../support/positionBruteForce.ts";
import { d18 } from "../support/verify.ts";

/** A cap of a few of the demo's candidates per call (below SEARCH_GAS_CAP's least, which holds a whole exact search). */
const CAP = 300_000n;
const E18 = 10n ** 18n;

/** [single-call under CAP behind the proxy, sequential on the node]. */
const pair = gasBoundedPairForFile(CAP);

/** Each position's asks: one adds to it, the other trades through it with no new collateral (turning it around). */
const LONG_ASKS = [
  { expectedPrice: "0.5004", budget: 1000n * E18 },
  { expectedPrice: "0.45", budget: 0n },
] as const;
const SHORT_ASKS = [
  { expectedPrice: "0.4998", budget: 1000n * E18 },
  { expectedPrice: "0.55", budget: 0n },
] as const;
const POSITIONS = [
  { what: "the trader's long (18 decimals)", group: DEMO_MARKET_GROUP_ADDRESS, positionId: 1n, owner: DEMO_TRADER, asks: LONG_ASKS },
  { what: "the deployer's short (18 decimals)", group: DEMO_MARKET_GROUP_ADDRESS, positionId: 2n, owner: DEMO_DEPLOYER, asks: SHORT_ASKS },
  { what: "the trader's long (6 decimals)", group: DEMO_USDC_MARKET_GROUP_ADDRESS, positionId: 1n, owner: DEMO_TRADER, asks: LONG_ASKS },
] as const;

const magnitude = (value: bigint) => (value < 0n ? -value : value);

describe(`a held position under SEARCH_GAS_CAP=${CAP}: the search continues in further calls as the owner`, () => {
  for (const position of POSITIONS) {
    for (const { expectedPrice, budget } of position.asks) {
      for (const search of ["bisection", "exact"] as const) {
        test(`${position.what}, expectedPrice ${expectedPrice}, budget ${budget}, ${search}`, { timeout: 120_000 }, async () => {
          const url = `/quoter/${DEVCHAIN_ID}/${position.group}/positions/${position.positionId}?${new URLSearchParams({ expectedPrice, collateralAvailable: budget.toString(), search, trace: "true" })}`;
          await pair.apps()[0].inject({ url: url.replace("trace=true", "trace=false") }); // the owner known: every call below is the searcher's
          pair.setup().proxy.clear();
          const single = await pair.apps()[0].inject({ url });
          const searcherCalls = pair.setup().proxy.requests.filter((request) => request.method === "eth_call");
          const requests = quoteRequests(pair.setup().proxy.methods);
          const sequential = await pair.apps()[1].inject({ url });
          assert.equal(single.body, sequential.body, "byte for byte the sequential answer");
          assert.equal(single.statusCode, 200, single.body);
          const body = single.json();

          assert.ok(requests.length > 1, `${requests.length} calls: the search did not fit one`);
          assert.ok(requests.every((method) => method === "eth_call"), `${requests}`);
          // Each call is the searcher at the owner's address (its code there by a state override), or a candidate no
          // whole call can fund, quoted alone from the owner: never the searcher anywhere else.
          let searcherRuns = 0;
          for (const call of searcherCalls) {
            const [object, , override] = call.params as [{ from?: string; to: string }, unknown, Record<string, { code: string }> | undefined];
            if (override === undefined) {
              assert.deepEqual([object.from?.toLowerCase(), object.to.toLowerCase()], [position.owner.toLowerCase(), position.group.toLowerCase()], "a quote alone, from the owner");
              continue;
            }
            searcherRuns++;
            assert.equal(object.to.toLowerCase(), position.owner.toLowerCase(), "the searcher runs at the owner's address");
            assert.deepEqual(Object.keys(override).map((key) => key.toLowerCase()), [position.owner.toLowerCase()]);
          }
          assert.ok(searcherRuns >= 1, "the searcher ran");

          const held = { group: position.group as Address, positionId: position.positionId, expectedPrice: d18(expectedPrice), budget, blockNumber: BigInt(body.blockNumber) };
          const expected = search === "exact" ? await maximumOfPosition(pair.setup().devchain.chain, held) : await bisectionOfPosition(pair.setup().devchain.chain, held);
          assert.equal(magnitude(BigInt(body.maxSize)), expected, "the test's own search finds the same trade");
          if (search === "exact") assert.equal(body.exact, true);
        });
      }
    }
  }
});
