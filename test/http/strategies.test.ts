// Semantics §5, §7: the single-call strategy answers byte for byte as the sequential one at the
// same block, in one JSON-RPC request per quote.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { formatUnits } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKETS } from "../../src/devchain/demo.ts";
import type { SearchStrategy } from "../../src/service/quoter.ts";
import { chainBehindProxy, type ChainBehindProxy } from "../support/liveService.ts";
import { measureSearchGas } from "../../scripts/measure-gas.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../../src/chain/searchers/searcher.ts";

const E18 = 10n ** 18n;
let setup: ChainBehindProxy;
before(async () => {
  setup = await chainBehindProxy();
});
after(() => setup.close());

/** New heads come over the node's own WebSocket: the proxy in front of it sees the quotes' requests alone. */
const appFor = async (url: string, strategy: SearchStrategy) => (await setup.serve({ rpc: url, strategy, probe: true, webSocket: true })).app;

describe("single-call and sequential give byte-identical answers (semantics §5)", () => {
  test("300 random requests on the demo markets, both directions, budgets, priceLimit, maxIterations 1..10", async () => {
    const single = await appFor(setup.devchain.endpoint.url, "single-call");
    const sequential = await appFor(setup.devchain.endpoint.url, "sequential");
    const prices = new Map([[1n, E18 / 2n], [2n, 1000n * E18], [3n, E18 / 2n], [4n, E18 / 2n], [5n, E18]]);
    const near = (price: bigint) => fc.bigInt({ min: -600_000n, max: 600_000n }).map((ppm) => price + (price * ppm) / 1_000_000n);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1n, 1n, 2n, 2n, 3n, 4n, 5n).chain((marketId) =>
          fc.record({
            marketId: fc.constant(marketId),
            expected: near(prices.get(marketId)!),
            limit: fc.option(near(prices.get(marketId)!), { nil: undefined, freq: 2 }),
            collateral: fc
              .tuple(fc.integer({ min: 0, max: 26 }), fc.bigInt({ min: 1n, max: 9n }))
              .map(([exponent, mantissa]) => mantissa * 10n ** BigInt(exponent)),
            maxIterations: fc.integer({ min: 1, max: 10 }),
            trace: fc.boolean(),
          }),
        ),
        async ({ marketId, expected, limit, collateral, maxIterations, trace }) => {
          const query = new URLSearchParams({
            expectedPrice: formatUnits(expected, 18),
            collateralAvailable: collateral.toString(),
            maxIterations: String(maxIterations),
          });
          if (limit !== undefined) query.set("priceLimit", formatUnits(limit, 18));
          if (trace) query.set("trace", "true");
          const url = `/quoter/${DEVCHAIN_ID}/${setup.devchain.marketGroup}/${marketId}?${query}`;
          const [a, b] = await Promise.all([single.inject({ url }), sequential.inject({ url })]);
          assert.equal(a.statusCode, b.statusCode, `${url}\n${a.body}\n${b.body}`);
          assert.equal(a.body, b.body, url);
          statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
        },
      ),
      { numRuns: 300, seed: 4 },
    );
    assert.ok((statuses.get(200) ?? 0) >= 75, `too few successes to compare: ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(400) ?? 0) >= 20, `too few failures to compare: ${JSON.stringify([...statuses])}`);
    await single.close();
    await sequential.close();
  });
});

describe("one JSON-RPC request per quote (single-call)", () => {
  test("the default strategy sends exactly one eth_call per quote, whatever the outcome (and before a 404 one read of the latest block)", async () => {
    const { proxy } = setup;
    const app = await appFor(proxy.url, "single-call");
    for (const [marketId, query] of [
      [1, "expectedPrice=0.55&collateralAvailable=1000000000000000000000"],
      [2, "expectedPrice=970&collateralAvailable=1000000000000000000000&maxIterations=7&trace=true"],
      [3, "expectedPrice=0.6&collateralAvailable=1"],
      [4, "expectedPrice=0.59&collateralAvailable=1000000000000000000"],
      [9, "expectedPrice=0.59&collateralAvailable=1"],
    ] as const) {
      proxy.clear();
      const response = await app.inject({ url: `/quoter/${DEVCHAIN_ID}/${setup.devchain.marketGroup}/${marketId}?${query}` });
      assert.ok([200, 400, 404].includes(response.statusCode), response.body);
      // A market not found is not found at the newest block (semantics §11): the endpoint's latest block is read before the 404.
      const expected = response.statusCode === 404 ? ["eth_call", "eth_getBlockByNumber"] : ["eth_call"];
      assert.deepEqual(proxy.methods, expected, `market ${marketId}: ${proxy.methods}`);
      assert.equal(proxy.httpRequests, expected.length);
    }
    await app.close();
  });

  test("the sequential strategy needs the market, the price, the collateral and one call per candidate, at the head's hash", async () => {
    const { proxy } = setup;
    const app = await appFor(proxy.url, "sequential");
    proxy.clear();
    const response = await app.inject({ url: `/quoter/${DEVCHAIN_ID}/${setup.devchain.marketGroup}/1?expectedPrice=0.55&collateralAvailable=1000000000000000000000` });
    assert.equal(response.statusCode, 200);
    const selectors = proxy.requests.map((request) => ((request.params?.[0] as { data?: string; input?: string })?.data ?? "").slice(0, 10));
    const collateralReads = selectors.filter((selector) => selector === "0x4ca2b970" /* getMarketGroup() */ || selector === "0x313ce567" /* decimals() */);
    assert.equal(selectors.filter((selector) => selector === "0x4ca2b970").length, 1, "the group's collateral, once");
    assert.ok(collateralReads.length <= 2);
    assert.equal(proxy.methods.length, 2 + collateralReads.length + response.json().iterations);
    for (const request of proxy.requests) assert.deepEqual(request.params?.[1], { blockHash: response.json().blockHash });
    await app.close();
  });
});

describe("gas of the single-call search", () => {
  test("a 10-candidate search on each demo market stays under the default cap of 30,000,000", async () => {
    const rows = await measureSearchGas();
    assert.equal(rows.length, DEMO_MARKETS.length);
    for (const row of rows) {
      assert.ok(row.gas > 21_000n && row.gas < DEFAULT_SEARCH_GAS_CAP, `market ${row.marketId}: ${row.gas}`);
    }
  });
});
