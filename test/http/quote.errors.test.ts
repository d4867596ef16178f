// Every row of the interface's error table (section 7), reached for real on the embedded chain, plus the
// error shapes of semantics §6. Each test names the rule it checks.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { zeroAddress } from "viem";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";
import { closedPort } from "../support/closedPort.ts";
import { quoterApp, startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";
import { deployPricelessMarketGroup } from "../support/pricelessMarketGroup.ts";
import { internalError } from "../../src/quote/quoteErrors.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { formatD18 } from "../../src/quote/fixedPoint.ts";

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

async function expectError(path: string, status: number, error: string) {
  const response = await h.get(path);
  assert.equal(response.status, status, `${path} -> ${JSON.stringify(response.body)}`);
  assert.equal(response.body.error, error);
  return response.body;
}

describe("400 Invalid query parameters (interface §7, semantics §2)", () => {
  test("a missing required parameter is named in details", async () => {
    const body = await expectError(h.quotePath(1, { collateralAvailable: ONE }), 400, "Invalid query parameters");
    assert.deepEqual(body.details.map((d: any) => d.param), ["expectedPrice"]);
  });
  test("one details entry per failing parameter", async () => {
    const body = await expectError(h.quotePath(1, { expectedPrice: ".5", collateralAvailable: "0", maxIterations: "11" }), 400, "Invalid query parameters");
    assert.deepEqual(body.details.map((d: any) => d.param).sort(), ["collateralAvailable", "expectedPrice", "maxIterations"]);
    for (const detail of body.details) assert.equal(typeof detail.message, "string");
  });
  for (const [name, query] of [
    ["maxIterations 0", { expectedPrice: "0.6", collateralAvailable: ONE, maxIterations: "0" }],
    ["maxIterations 11", { expectedPrice: "0.6", collateralAvailable: ONE, maxIterations: "11" }],
    ["collateralAvailable 0", { expectedPrice: "0.6", collateralAvailable: "0" }],
    ["collateralAvailable with a fraction", { expectedPrice: "0.6", collateralAvailable: "1.5" }],
    ["collateralAvailable in hex", { expectedPrice: "0.6", collateralAvailable: "0x10" }],
    ["expectedPrice finer than 10^-18", { expectedPrice: "1e-19", collateralAvailable: ONE }],
    ["expectedPrice with a leading +", { expectedPrice: "+0.6", collateralAvailable: ONE }],
    ["expectedPrice NaN", { expectedPrice: "NaN", collateralAvailable: ONE }],
    ["priceLimit zero", { expectedPrice: "0.6", collateralAvailable: ONE, priceLimit: "0" }],
    ["a parameter longer than 100 characters", { expectedPrice: "1".repeat(101), collateralAvailable: ONE }],
  ] as const) {
    test(`rejects ${name}`, async () => {
      await expectError(h.quotePath(1, query), 400, "Invalid query parameters");
    });
  }
  test("a parameter given twice is rejected", async () => {
    await expectError(`${h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE })}&expectedPrice=0.7`, 400, "Invalid query parameters");
  });
  test("1e999999999 is rejected at once, without expanding it", async () => {
    const started = process.hrtime.bigint();
    await expectError(h.quotePath(1, { expectedPrice: "1e999999999", collateralAvailable: ONE }), 400, "Invalid query parameters");
    assert.ok(process.hrtime.bigint() - started < 2_000_000_000n);
  });
});

describe("400 Invalid path parameters (semantics §2, §3.1)", () => {
  test("an address of the wrong length", async () => {
    await expectError(`/quoter/31337/0x1234/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 400, "Invalid path parameters");
  });
  test("a mixed-case address failing the EIP-55 checksum", async () => {
    const bad = h.devchain.marketGroup.replace("F", "f").replace("b", "B");
    await expectError(`/quoter/31337/${bad}/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 400, "Invalid path parameters");
  });
  test("chainId 0 and a non-numeric marketId", async () => {
    await expectError(`/quoter/0/${h.devchain.marketGroup}/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 400, "Invalid path parameters");
    await expectError(`/quoter/31337/${h.devchain.marketGroup}/x?expectedPrice=0.6&collateralAvailable=${ONE}`, 400, "Invalid path parameters");
  });
  test("a request bad in both path and query gets Invalid path parameters", async () => {
    await expectError(`/quoter/31337/0x12/1?expectedPrice=abc`, 400, "Invalid path parameters");
  });
});

describe("400 Expected price must be greater than 0 (semantics §3.2)", () => {
  for (const expectedPrice of ["0", "-1", "-0.5", "0e5"]) {
    test(`expectedPrice=${expectedPrice}`, async () => {
      await expectError(h.quotePath(1, { expectedPrice, collateralAvailable: ONE }), 400, "Expected price must be greater than 0");
    });
  }
  test("is checked before the chain: it holds for a chain with no RPC too", async () => {
    await expectError(`/quoter/1/${h.devchain.marketGroup}/1?expectedPrice=0&collateralAvailable=${ONE}`, 400, "Expected price must be greater than 0");
  });
});

describe("400 Expected price must be different from current price (semantics §3.7)", () => {
  test("expectedPrice equal to market 1's price on chain, in three spellings: canonical, trailing zeros, an exponent", async () => {
    const price = await h.devchain.chain.publicClient.readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getReferencePrice", args: [1n] });
    const canonical = formatD18(price);
    const digits = price.toString();
    for (const expectedPrice of [canonical, `${canonical}00`, `${digits}e-18`]) {
      await expectError(h.quotePath(1, { expectedPrice, collateralAvailable: ONE }), 400, "Expected price must be different from current price");
    }
  });
});

describe("400 Could not find a valid position size (semantics §5)", () => {
  test("cap = 0: one wei at a price of 1000", async () => {
    await expectError(h.quotePath(2, { expectedPrice: "1100", collateralAvailable: "1" }), 400, "Could not find a valid position size that satisfies the price constraints");
  });
  test("an expectedPrice one wei above the current price: every candidate goes beyond it", async () => {
    const price = await h.devchain.chain.publicClient.readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getReferencePrice", args: [1n] });
    const body = await expectError(
      h.quotePath(1, { expectedPrice: formatD18(price + 1n), collateralAvailable: THOUSAND, trace: "true" }),
      400,
      "Could not find a valid position size that satisfies the price constraints",
    );
    assert.ok(body.trace.length > 0, "§7 the trace comes with the search-failure 400");
    assert.ok(body.trace.every((c: any) => c.outcome === "beyond-expected"));
  });
  test("a priceLimit above expectedPrice for a LONG: no price can satisfy both", async () => {
    await expectError(h.quotePath(2, { expectedPrice: "1010", priceLimit: "1020", collateralAvailable: THOUSAND }), 400, "Could not find a valid position size that satisfies the price constraints");
  });
});

describe("400 Insufficient liquidity. Try a smaller size. (semantics §5)", () => {
  test("market 4: every candidate the budget reaches leaves the range", async () => {
    const body = await expectError(
      h.quotePath(4, { expectedPrice: "0.59", collateralAvailable: ONE, trace: "true" }),
      400,
      "Insufficient liquidity. Try a smaller size.",
    );
    assert.ok(body.trace.length > 0 && body.trace.every((c: any) => c.outcome === "reverted" && c.revert === "PoolPriceOutOfRange"));
  });
});

describe("400 Market is settled (semantics §3.5)", () => {
  test("market 3", async () => {
    await expectError(h.quotePath(3, { expectedPrice: "0.6", collateralAvailable: ONE }), 400, "Market is settled");
  });
});

describe("404 Market not found (semantics §3.3, §3.5, §11: at the newest block, which the detail names)", () => {
  /** The chain's latest block as a "not found" names it. */
  const latest = async () => {
    const { number, hash } = await h.devchain.chain.publicClient.getBlock();
    return `at block ${number} (${hash})`;
  };
  test("an address with no code", async () => {
    const body = await expectError(`/quoter/31337/0x000000000000000000000000000000000000dEaD/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 404, "Market not found");
    assert.deepEqual(body.details, [{ param: "marketAddress", message: `no contract at this address on this chain ${await latest()}: check the market group's address and the chain id` }]);
  });
  test("the zero address", async () => {
    await expectError(`/quoter/31337/${zeroAddress}/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 404, "Market not found");
  });
  test("a market id never created (getMarket answers a zero struct)", async () => {
    const body = await expectError(h.quotePath(99, { expectedPrice: "0.6", collateralAvailable: ONE }), 404, "Market not found");
    assert.deepEqual(body.details, [{ param: "marketId", message: `market 99 does not exist in this market group ${await latest()} (getMarket answered for market 0): check the market id` }]);
    await expectError(h.quotePath(0, { expectedPrice: "0.6", collateralAvailable: ONE }), 404, "Market not found");
  });
  test("a chain with no configured RPC: details name the chain", async () => {
    const body = await expectError(`/quoter/1/${h.devchain.marketGroup}/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 404, "Market not found");
    assert.deepEqual(body.details.map((d: any) => d.param), ["chainId"]);
    assert.match(body.details[0].message, /\b1\b/);
  });
});

describe("404 Current price not found (semantics §3.6)", () => {
  test("getReferencePrice returning 0 (a market group that lost its price feed)", async () => {
    const { address, blockNumber } = await deployPricelessMarketGroup(h.devchain.chain);
    await expectError(`/quoter/31337/${address}/1?expectedPrice=0.6&collateralAvailable=${ONE}&minBlock=${blockNumber}`, 404, "Current price not found");
  });
});

describe("503 Chain RPC unavailable (semantics §6)", () => {
  test("a refused connection is a 503 with Retry-After, not a search outcome", async () => {
    const port = await closedPort();
    const app = await quoterApp({ rpc: `http://127.0.0.1:${port}`, timeoutMs: 2_000 });
    const response = await app.inject({ url: h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE }) });
    assert.equal(response.statusCode, 503);
    // The details name the endpoint by its variable and the failure, never the URL (semantics §6).
    assert.deepEqual(response.json(), {
      error: "Chain RPC unavailable",
      details: [{ param: "chainId", message: "RPC_URL_31337: request failed (ECONNREFUSED): nothing listens at that host and port; check that the node runs and the URL" }],
    });
    assert.ok(Number(response.headers["retry-after"]) > 0);
    assert.doesNotMatch(response.body, new RegExp(String(port)), "no RPC URL in the body");
    await app.close();
  });
});

describe("500 Internal server error (semantics §6)", () => {
  test("a bug answers the fixed body, with no stack trace", async () => {
    const app = await quoterApp({ quoter: { quote: async () => { throw new TypeError("secret at http://rpc.example/key"); } } });
    const response = await app.inject({ url: h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE }) });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), internalError().toBody());
    assert.doesNotMatch(response.body, /secret|rpc\.example/, "nothing of the bug's own message");
    await app.close();
  });
});

describe("404 and 405 in the same shape (semantics §6)", () => {
  test("an unknown path", async () => {
    await expectError("/quoter/31337", 404, "Not found");
    await expectError("/nothing", 404, "Not found");
  });
  test("POST on the quote path is 405 with Allow", async () => {
    const response = await h.app.inject({ method: "POST", url: h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE }) });
    assert.equal(response.statusCode, 405);
    assert.equal(response.json().error, "Method not allowed");
    assert.equal(response.headers.allow, "GET, HEAD");
  });
  test("HEAD on the quote path answers like GET, without a body", async () => {
    const response = await h.app.inject({ method: "HEAD", url: h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE }) });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, "");
  });
});
