// Random valid requests on the demo markets: every 200 is verified independently against the chain at its
// block (test/support/verify.ts); every other answer must be one of the search-failure 400s.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { formatUnits } from "viem";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";
import { verifyAnswer, type QuoteQuery } from "../support/verify.ts";

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

const E18 = 10n ** 18n;
const MARKETS = [
  { id: 1n, price: E18 / 2n },
  { id: 2n, price: 1000n * E18 },
  { id: 4n, price: E18 / 2n },
];

/** A price within ±40% of `price`, at a random precision, never equal to it. */
const priceNear = (price: bigint) =>
  fc.bigInt({ min: -400_000n, max: 400_000n }).filter((ppm) => ppm !== 0n).map((ppm) => price + (price * ppm) / 1_000_000n);

const requestArbitrary = fc
  .record({
    market: fc.constantFrom(...MARKETS),
    collateralExponent: fc.integer({ min: 12, max: 24 }),
    collateralMantissa: fc.bigInt({ min: 1n, max: 9_999n }),
    maxIterations: fc.integer({ min: 1, max: 10 }),
    withLimit: fc.boolean(),
    seed: fc.nat(),
  })
  .chain((r) =>
    fc.record({
      r: fc.constant(r),
      expected: priceNear(r.market.price),
      limit: priceNear(r.market.price),
    }),
  )
  .map(({ r, expected, limit }) => {
    const query: QuoteQuery & Record<string, string> = {
      expectedPrice: formatUnits(expected, 18),
      collateralAvailable: ((r.collateralMantissa * 10n ** BigInt(r.collateralExponent)) / 1000n + 1n).toString(),
      maxIterations: String(r.maxIterations),
    };
    if (r.withLimit) query.priceLimit = formatUnits(limit, 18);
    return { marketId: r.market.id, query };
  });

test("at least 50 random valid requests: each 200 meets the budget and both price rules at its block", async () => {
  let verified = 0;
  const statuses = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(requestArbitrary, async ({ marketId, query }) => {
      const response = await h.get(h.quotePath(marketId, query));
      const key = `${response.status} ${response.body.error ?? ""}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (response.status === 200) {
        await verifyAnswer(h.devchain.chain, h.devchain.marketGroup, marketId, query, response.body);
        verified++;
      } else {
        assert.equal(response.status, 400, JSON.stringify(response.body));
        assert.ok(
          ["Could not find a valid position size that satisfies the price constraints", "Insufficient liquidity. Try a smaller size."].includes(response.body.error),
          JSON.stringify(response.body),
        );
      }
    }),
    { numRuns: 120, seed: 20261122 },
  );
  assert.ok(verified >= 50, `only ${verified} of 120 answers were 200: ${JSON.stringify([...statuses])}`);
});
