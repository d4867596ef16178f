// 200 answers on the demo markets, each checked independently against the chain (test/support/verify.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { formatD18 } from "../../src/quote/fixedPoint.ts";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";
import { verifyAnswer, type QuoteQuery } from "../support/verify.ts";

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

/** The market's reference price on the demo chain now (the pool's price, rounded down). */
const referencePrice = (marketId: bigint) =>
  h.devchain.chain.publicClient.readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getReferencePrice", args: [marketId] });

async function quoteOk(marketId: bigint, query: QuoteQuery & Record<string, string>) {
  const response = await h.get(h.quotePath(marketId, query));
  assert.equal(response.status, 200, JSON.stringify(response.body));
  await verifyAnswer(h.devchain.chain, h.devchain.marketGroup, marketId, query, response.body);
  return response.body;
}

describe("LONG and SHORT (interface §1, semantics §3.8, §5)", () => {
  test("market 1 LONG towards 0.55: all five interface fields and the additive ones", async () => {
    const body = await quoteOk(1n, { expectedPrice: "0.55", collateralAvailable: THOUSAND });
    assert.deepEqual(Object.keys(body), [
      "direction", "maxSize", "currentPrice", "expectedPrice", "collateralAvailable",
      "requiredCollateral", "maxCollateral", "fillPrice", "priceAfter", "limitedBy", "blockNumber", "blockHash", "iterations", "collateralDecimals",
    ]);
    assert.equal(body.direction, "LONG");
    // Semantics §10: an 18-decimal collateral's limit is the required amount itself.
    assert.equal(body.collateralDecimals, 18);
    assert.equal(body.maxCollateral, body.requiredCollateral);
    assert.equal(body.currentPrice, formatD18(await referencePrice(1n)));
    assert.equal(body.iterations, 10);
  });
  test("market 1 SHORT towards 0.45", async () => {
    const body = await quoteOk(1n, { expectedPrice: "0.45", collateralAvailable: THOUSAND });
    assert.equal(body.direction, "SHORT");
    assert.ok(BigInt(body.maxSize) < 0n);
  });
  test("market 2: an expectedPrice 3% away binds before the budget", async () => {
    const body = await quoteOk(2n, { expectedPrice: "1030", collateralAvailable: THOUSAND });
    assert.ok(BigInt(body.requiredCollateral) < BigInt(THOUSAND) / 2n, "the budget is far from used up");
    const long = BigInt(body.maxSize);
    const short = BigInt((await quoteOk(2n, { expectedPrice: "970", collateralAvailable: THOUSAND })).maxSize);
    assert.ok(long > 0n && short < 0n);
  });
});

describe("priceLimit on either side of the current price (interface §4 price limit rules)", () => {
  test("LONG with priceLimit above the current price: candidates too small to pass it step the search up", async () => {
    const body = await quoteOk(2n, { expectedPrice: "1030", priceLimit: "1025", collateralAvailable: THOUSAND, trace: "true" });
    assert.ok(body.trace.some((c: any) => c.outcome === "short-of-limit"), "the trace shows a too-small candidate");
  });
  test("LONG with priceLimit below the current price is no constraint beyond the default", async () => {
    const below = await quoteOk(2n, { expectedPrice: "1030", priceLimit: "990", collateralAvailable: THOUSAND });
    const byDefault = await quoteOk(2n, { expectedPrice: "1030", collateralAvailable: THOUSAND });
    assert.equal(below.maxSize, byDefault.maxSize);
  });
  test("SHORT with priceLimit below the current price", async () => {
    const body = await quoteOk(2n, { expectedPrice: "970", priceLimit: "980", collateralAvailable: THOUSAND });
    assert.equal(body.direction, "SHORT");
  });
  test("SHORT with priceLimit above the current price", async () => {
    await quoteOk(2n, { expectedPrice: "970", priceLimit: "1010", collateralAvailable: THOUSAND });
  });
});

describe("maxIterations (interface §8)", () => {
  test("maxIterations=1 quotes exactly one candidate: cap/2", async () => {
    const body = await quoteOk(1n, { expectedPrice: "0.9", collateralAvailable: ONE, maxIterations: "1" });
    assert.equal(body.iterations, 1);
    assert.equal(BigInt(body.maxSize), (BigInt(ONE) * 10n ** 18n) / (await referencePrice(1n)) / 2n);
  });
  test("maxIterations=10 quotes ten candidates", async () => {
    const body = await quoteOk(1n, { expectedPrice: "0.9", collateralAvailable: ONE, maxIterations: "10" });
    assert.equal(body.iterations, 10);
  });
  test("more iterations never find a smaller size on a market where the budget binds", async () => {
    let previous = 0n;
    for (const maxIterations of ["1", "2", "5", "10"]) {
      const size = BigInt((await quoteOk(1n, { expectedPrice: "0.9", collateralAvailable: ONE, maxIterations })).maxSize);
      assert.ok(size >= previous);
      previous = size;
    }
  });
});

describe("request shapes existing clients send (semantics §2)", () => {
  test("a trailing slash", async () => {
    const path = h.quotePath(1, { expectedPrice: "0.55", collateralAvailable: THOUSAND }).replace("?", "/?");
    const response = await h.get(path);
    assert.equal(response.status, 200, JSON.stringify(response.body));
  });
  test("expectedPrice=1.0 echoes as 1", async () => {
    const body = await quoteOk(1n, { expectedPrice: "1.0", collateralAvailable: ONE });
    assert.equal(body.expectedPrice, "1");
  });
  test("expectedPrice=0.0000009 and 1e-7 (far below the range: the budget binds)", async () => {
    const small = await quoteOk(1n, { expectedPrice: "0.0000009", collateralAvailable: ONE });
    assert.equal(small.expectedPrice, "0.0000009");
    const response = await h.get(h.quotePath(1n, { expectedPrice: "1e-7", collateralAvailable: ONE }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.expectedPrice, "0.0000001");
    await verifyAnswer(h.devchain.chain, h.devchain.marketGroup, 1n, { expectedPrice: "0.0000001", collateralAvailable: ONE }, response.body);
  });
  test("1e+3 sent as 1e%2B3", async () => {
    const path = `/quoter/31337/${h.devchain.marketGroup}/2?expectedPrice=1.03e%2B3&collateralAvailable=${THOUSAND}`;
    const response = await h.get(path);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.expectedPrice, "1030");
  });
  test("a checksummed and a lower-case address give the same answer", async () => {
    const query = `expectedPrice=0.55&collateralAvailable=${THOUSAND}`;
    const checksummed = await h.get(`/quoter/31337/${h.devchain.marketGroup}/1?${query}`);
    const lower = await h.get(`/quoter/31337/${h.devchain.marketGroup.toLowerCase()}/1?${query}`);
    const upper = await h.get(`/quoter/31337/0x${h.devchain.marketGroup.slice(2).toUpperCase()}/1?${query}`);
    assert.equal(checksummed.status, 200);
    assert.deepEqual(lower.body, checksummed.body);
    assert.deepEqual(upper.body, checksummed.body);
  });
  test("leading zeros and unknown parameters", async () => {
    const path = `/quoter/031337/${h.devchain.marketGroup}/01?expectedPrice=00.55&collateralAvailable=0${THOUSAND}&utm_source=x`;
    const response = await h.get(path);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.expectedPrice, "0.55");
    assert.equal(response.body.collateralAvailable, THOUSAND);
  });
});
