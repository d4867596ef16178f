// What a newcomer meets first, on the real embedded chain through inject(): errors whose details say what to do
// (the interface's status and `error` strings unchanged), the index at /quoter and the start-up banner's links.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";
import { MESSAGES } from "../../src/quote/quoteErrors.ts";
import { DEMO_MARKETS } from "../../src/devchain/demo.ts";
import { bannerLines } from "../../src/banner.ts";
import { PACKAGE_VERSION } from "../../src/http/openapi.ts";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

type Detail = { param: string; message: string };

async function expectError(path: string, status: number, error: string): Promise<Detail[]> {
  const response = await h.get(path);
  assert.equal(response.status, status, `${path} -> ${JSON.stringify(response.body)}`);
  assert.equal(response.body.error, error, "the interface's message, unchanged");
  assert.ok(Array.isArray(response.body.details), "details are given");
  return response.body.details;
}

describe("errors say what to do", () => {
  test("Expected price must be different from current price: the details give the current price", async () => {
    const details = await expectError(h.quotePath(2, { expectedPrice: "1000.0", collateralAvailable: ONE }), 400, MESSAGES.expectedPriceEqualsCurrent);
    assert.deepEqual(details, [
      { param: "expectedPrice", message: "equals the current price 1000: set it above 1000 to quote a LONG, below 1000 to quote a SHORT" },
    ]);
  });

  test("Market not found on a chain with no RPC: the details name RPC_URL_<chainId>", async () => {
    const details = await expectError(`/quoter/10/${h.devchain.marketGroup}/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 404, MESSAGES.marketNotFound);
    assert.equal(details.length, 1);
    assert.equal(details[0]!.param, "chainId");
    assert.match(details[0]!.message, /^no RPC endpoint is configured for chain 10: set RPC_URL_10 to its JSON-RPC URL/);
  });

  test("a mixed-case address failing the checksum: the details give the checksummed form", async () => {
    const bad = "0x5fbdb2315678afecb367f032d93F642f64180aa3";
    const details = await expectError(`/quoter/31337/${bad}/1?expectedPrice=0.6&collateralAvailable=${ONE}`, 400, MESSAGES.invalidPath);
    assert.deepEqual(details, [
      {
        param: "marketAddress",
        message: `mixed-case address fails the EIP-55 checksum; if its digits are right, its checksummed form is ${h.devchain.marketGroup}`,
      },
    ]);
  });

  test("a misspelt parameter name (another case, or one edit away): did you mean", async () => {
    const details = await expectError(h.quotePath(1, { expectedprice: "0.6", colateralAvailable: ONE }), 400, MESSAGES.invalidQuery);
    assert.deepEqual(details, [
      { param: "expectedPrice", message: 'is required (the request has "expectedprice": did you mean expectedPrice?)' },
      { param: "collateralAvailable", message: 'is required (the request has "colateralAvailable": did you mean collateralAvailable?)' },
    ]);
  });

  test("an unknown parameter far from every name is still ignored, and a missing one gets no guess", async () => {
    const quoted = await h.get(h.quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND, colour: "blue" }));
    assert.equal(quoted.status, 200);
    const details = await expectError(h.quotePath(1, { collateralAvailable: ONE, price: "0.6" }), 400, MESSAGES.invalidQuery);
    assert.deepEqual(details, [{ param: "expectedPrice", message: "is required" }]);
  });
});

describe("a failed search names the bound that decided, with its figures, and the change that helps", () => {
  test("every candidate reverted: the smallest size tried, the market's range, a smaller budget, and the step the bisection left untried", async () => {
    const details = await expectError(h.quotePath(4, { expectedPrice: "0.59", collateralAvailable: ONE }), 400, MESSAGES.insufficientLiquidity);
    assert.deepEqual(details, [
      {
        param: "collateralAvailable",
        message:
          "every size tried reverted, down to 1953125000000000 wei (PoolPriceOutOfRange: the trade leaves the market's range [0.4, 0.6]): " +
          "the market's liquidity ends below 1953125000000000 wei of size; a budget of at most 976562500000000 wei ends the search's " +
          "range at or below 1953125000000000 wei, so it tries smaller sizes",
      },
      {
        param: "collateralAvailable",
        message:
          "the bisection stopped after 10 candidates with the sizes between 0 and 1953125000000000 wei untried; its range is " +
          "[0, collateralAvailable / currentPrice] cut in 2^10 steps, so a smaller collateralAvailable tries smaller sizes, or search=exact finds the largest size that fits whatever the budget",
      },
    ]);
  });

  test("the smaller budget it names does find a size", async () => {
    const response = await h.get(h.quotePath(4, { expectedPrice: "0.59", collateralAvailable: "976562500000000" }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.ok(BigInt(response.body.maxSize) > 0n);
  });

  test("every candidate beyond expectedPrice: the smallest size and its priceAfter", async () => {
    const details = await expectError(
      h.quotePath(1, { expectedPrice: "0.500000000000000001", collateralAvailable: THOUSAND }),
      400,
      MESSAGES.noValidSize,
    );
    assert.equal(details[0]!.param, "expectedPrice");
    assert.equal(
      details[0]!.message,
      "even the smallest size tried, 1953125000000000000 wei, moves the price to 0.500001381070793034, past expectedPrice " +
        "0.500000000000000001; an expectedPrice of at least 0.500001381070793034 lets that size fill; a budget of at most " +
        "976562500000000000 wei ends the search's range at or below 1953125000000000000 wei, so it tries smaller sizes",
    );
    assert.match(details[1]!.message, /a smaller collateralAvailable tries smaller sizes, or search=exact finds the largest size that fits whatever the budget$/);
  });

  test("with fewer candidates than it may: maxIterations=10 named", async () => {
    const details = await expectError(
      h.quotePath(1, { expectedPrice: "0.500000000000000001", collateralAvailable: THOUSAND, maxIterations: "1" }),
      400,
      MESSAGES.noValidSize,
    );
    assert.equal(details[1]!.param, "maxIterations");
    assert.match(details[1]!.message, /^the bisection stopped after 1 candidate with the sizes between 0 and 1000000000000000000000 wei untried; maxIterations=10 halves the step 9 more times$/);
  });

  test("the expectedPrice it names lets that size fill", async () => {
    const response = await h.get(h.quotePath(1, { expectedPrice: "0.500001381070793034", collateralAvailable: THOUSAND }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
  });

  test("a LONG's priceLimit at or above expectedPrice: nothing can satisfy both", async () => {
    const details = await expectError(h.quotePath(2, { expectedPrice: "1030", priceLimit: "1040", collateralAvailable: THOUSAND }), 400, MESSAGES.noValidSize);
    assert.deepEqual(details, [
      {
        param: "priceLimit",
        message:
          "priceLimit 1040 is not below expectedPrice 1030: a LONG needs priceLimit < priceAfter <= expectedPrice, so no size can " +
          "satisfy both; set priceLimit below 1030, or leave it out (it defaults to the current price 1000)",
      },
    ]);
  });

  test("a budget below one wei of size: the smallest budget that gives a size of 1", async () => {
    const details = await expectError(h.quotePath(2, { expectedPrice: "1030", collateralAvailable: "1" }), 400, MESSAGES.noValidSize);
    assert.deepEqual(details, [
      {
        param: "collateralAvailable",
        message:
          "1 wei buys 0 wei of size at the current price 1000 (collateralAvailable × 10^18 / currentPrice), and the search tries sizes " +
          "strictly between 0 and that: no size was quoted; the smallest budget that gives a size of 1 wei to try is 2000 wei",
      },
    ]);
    const named = await h.get(h.quotePath(2, { expectedPrice: "1030", collateralAvailable: "2000", trace: "true" }));
    assert.equal(named.status, 200);
    assert.equal(named.body.trace[0].size, "1", "that budget's search tries a size of 1");
  });

  test("every candidate short of priceLimit: the largest size tried, its priceAfter and the cap", async () => {
    const details = await expectError(h.quotePath(2, { expectedPrice: "1030", priceLimit: "1001", collateralAvailable: ONE }), 400, MESSAGES.noValidSize);
    assert.equal(
      details[0]!.message,
      "even the largest size tried, 999023437500000 wei (the budget buys at most 1000000000000000 wei at the current price 1000), " +
        "moves the price only to 1000.632137440197489156, not past priceLimit 1001; a priceLimit below 1000.632137440197489156 lets " +
        "that size fill, or a larger budget reaches larger sizes",
    );
  });

  test("short of priceLimit below, over budget above: both figures, and the search's untried sizes", async () => {
    const details = await expectError(
      h.quotePath(2, { expectedPrice: "500.0001", priceLimit: "628.5", collateralAvailable: THOUSAND }),
      400,
      MESSAGES.noValidSize,
    );
    assert.deepEqual(details.map((d) => d.param), ["collateralAvailable", "collateralAvailable"]);
    assert.equal(
      details[0]!.message,
      "826171875000000000 wei moves the price only to 628.625215036441863641, not past priceLimit 628.5, and the next size up the " +
        "search tried, 827148437500000000 wei, needs 1000612374365453354169 wei of collateral, more than collateralAvailable " +
        "1000000000000000000000 wei: a size between them may fit; else a priceLimit above 628.625215036441863641, or a budget of at " +
        "least 1000612374365453354169 wei",
    );
  });

  test("short of priceLimit below, beyond expectedPrice above", async () => {
    const details = await expectError(
      h.quotePath(2, { expectedPrice: "1010", priceLimit: "1009.99", collateralAvailable: THOUSAND }),
      400,
      MESSAGES.noValidSize,
    );
    assert.equal(details[0]!.param, "expectedPrice");
    assert.match(details[0]!.message, /^15625000000000000 wei moves the price only to 1009.955845398809205105, not past priceLimit 1009.99, and the next size up the search tried, 16601562500000000 wei, moves it to 1010.58301620009489328, past expectedPrice 1010/);
  });

  test("trace=true leaves the details as they are", async () => {
    const plain = await h.get(h.quotePath(4, { expectedPrice: "0.59", collateralAvailable: ONE }));
    const traced = await h.get(h.quotePath(4, { expectedPrice: "0.59", collateralAvailable: ONE, trace: "true" }));
    assert.deepEqual(traced.body.details, plain.body.details);
    assert.equal(traced.body.trace.length, 10);
  });
});

describe("GET /quoter: an index instead of a 404", () => {
  for (const path of ["/quoter", "/quoter/"]) {
    test(`${path} lists the links, the version, the configured chains (ids only) and the quote path`, async () => {
      const response = await h.get(path);
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, {
        name: "quoter",
        version: PACKAGE_VERSION,
        quote:
          "/quoter/{chainId}/{marketAddress}/{marketId}?expectedPrice={decimal}&collateralAvailable={wei}" +
          "[&maxIterations={1-10}][&priceLimit={decimal}][&search=exact][&trace=true][&minBlock={block}]",
        chains: [31337],
        links: { docs: "/quoter/docs", explorer: "/quoter/explorer", openapi: "/quoter/openapi.json", health: "/health", ready: "/ready", metrics: "/metrics" },
      });
      assert.ok(!JSON.stringify(response.body).includes(h.devchain.endpoint.url), "no RPC URL");
    });
  }

  test("every link it gives answers", async () => {
    const { body } = await h.get("/quoter");
    for (const [name, link] of Object.entries<string>(body.links)) {
      const response = await h.app.inject({ method: "GET", url: link });
      assert.ok(response.statusCode === 200 || response.statusCode === 302, `${name} ${link} -> ${response.statusCode}`);
    }
  });
});

describe("the start-up banner", () => {
  const lines = () => bannerLines({ address: "http://127.0.0.1:3000", strategy: "single-call", chains: [[31337, "embedded demo chain"]], demoMarkets: DEMO_MARKETS });

  test("lists the docs, the explorer and the quote URL of each demo market", () => {
    const text = lines().join("\n");
    assert.match(text, /http:\/\/127\.0\.0\.1:3000\/quoter\/docs/);
    assert.match(text, /http:\/\/127\.0\.0\.1:3000\/quoter\/explorer/);
    for (const market of DEMO_MARKETS) {
      const query = `expectedPrice=${market.example.expectedPrice}&collateralAvailable=${market.example.collateralAvailable}`;
      assert.ok(text.includes(`http://127.0.0.1:3000/quoter/31337/${market.group}/${market.id}?${query}`), `market ${market.group}/${market.id}`);
    }
  });

  test("no line is wider than 160 characters; each demo market's note stands above its curl line", () => {
    const printed = lines();
    for (const line of printed) assert.ok(line.length <= 160, `${line.length} characters: ${line}`);
    for (const market of DEMO_MARKETS) {
      const at = printed.findIndex((line) => line.includes(`/${market.group}/${market.id}?`));
      assert.ok(printed[at - 1]!.startsWith(`  # market ${market.id} `) && printed[at - 1]!.endsWith(market.role), printed[at - 1]);
    }
  });

  test("every URL it prints answers on the service (a demo quote answers 200 or its documented 400)", async () => {
    // The quote path template ({chainId}...) is a pattern, not a URL to open.
    const urls = lines()
      .flatMap((line) => line.match(/http:\/\/127\.0\.0\.1:3000\/[^\s',]*/g) ?? [])
      .filter((url) => !url.includes("{"));
    assert.ok(urls.length >= DEMO_MARKETS.length + 3, `${urls.length} URLs`);
    for (const url of urls) {
      const response = await h.app.inject({ method: "GET", url: url.slice("http://127.0.0.1:3000".length) });
      assert.ok([200, 302, 400].includes(response.statusCode), `${url} -> ${response.statusCode}`);
      if (response.statusCode === 400) assert.ok([MESSAGES.marketSettled, MESSAGES.insufficientLiquidity, MESSAGES.noValidSize].includes(response.json().error), url);
    }
  });
});
