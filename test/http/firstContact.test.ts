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
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { formatD18 } from "../../src/quote/fixedPoint.ts";
import { parseUnits } from "viem";

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

type Detail = { param: string; message: string };
type TraceEntry = { size: string; outcome: string; requiredCollateral?: string; priceAfter?: string; revertArgs?: Record<string, string> };

/** A market's reference price on the demo chain, as the answers write it. */
async function currentPrice(marketId: bigint): Promise<string> {
  return formatD18(await currentPriceD18(marketId));
}

function currentPriceD18(marketId: bigint): Promise<bigint> {
  return h.devchain.chain.publicClient.readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getReferencePrice", args: [marketId] });
}

/** One wei above market 1's price: every size moves the price past it. */
async function justAboveMarket1(): Promise<string> {
  return formatD18((await currentPriceD18(1n)) + 1n);
}

/** The candidates the search quoted for `query` (the same request with trace=true), smallest size first. */
async function traceOf(marketId: number, query: Record<string, string>): Promise<TraceEntry[]> {
  const traced = await h.get(h.quotePath(marketId, { ...query, trace: "true" }));
  const magnitude = (entry: TraceEntry) => (BigInt(entry.size) < 0n ? -BigInt(entry.size) : BigInt(entry.size));
  return [...(traced.body.trace as TraceEntry[])].sort((a, b) => (magnitude(a) < magnitude(b) ? -1 : 1));
}

/** The largest budget whose search range, budget * 10^18 / price rounded down, ends at or below `size`. */
function largestBudgetBelow(size: bigint, price: bigint): bigint {
  return ((size + 1n) * price - 1n) / 10n ** 18n;
}

async function expectError(path: string, status: number, error: string): Promise<Detail[]> {
  const response = await h.get(path);
  assert.equal(response.status, status, `${path} -> ${JSON.stringify(response.body)}`);
  assert.equal(response.body.error, error, "the interface's message, unchanged");
  assert.ok(Array.isArray(response.body.details), "details are given");
  return response.body.details;
}

describe("errors say what to do", () => {
  test("Expected price must be different from current price: the details give the current price", async () => {
    const price = await currentPrice(2n);
    // Spelt with a trailing zero: the value is compared, and the details give its canonical form.
    const details = await expectError(h.quotePath(2, { expectedPrice: `${price}0`, collateralAvailable: ONE }), 400, MESSAGES.expectedPriceEqualsCurrent);
    assert.deepEqual(details, [
      { param: "expectedPrice", message: `equals the current price ${price}: set it above ${price} to quote a LONG, below ${price} to quote a SHORT` },
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
    const query = { expectedPrice: "0.59", collateralAvailable: ONE };
    const details = await expectError(h.quotePath(4, query), 400, MESSAGES.insufficientLiquidity);
    const [smallest] = await traceOf(4, query);
    const { minPrice, maxPrice } = smallest!.revertArgs!;
    const size = smallest!.size;
    const budget = largestBudgetBelow(BigInt(size), parseUnits(await currentPrice(4n), 18));
    // The range's ends, from the revert's sqrt prices, to six significant digits ("about" when rounded).
    const range = /the market's range (\[(?:about )?([\d.]+), (?:about )?([\d.]+)\])/.exec(details[0]!.message);
    for (const [shown, sqrt] of [[range?.[2], minPrice], [range?.[3], maxPrice]] as const) {
      const exact = (BigInt(sqrt!) * BigInt(sqrt!) * 10n ** 18n) >> 192n;
      const gap = parseUnits(shown ?? "0", 18) - exact;
      assert.ok((gap < 0n ? -gap : gap) * 10n ** 5n <= exact, `${shown} against ${formatD18(exact)}`);
    }
    assert.deepEqual(details, [
      {
        param: "collateralAvailable",
        message:
          `every size tried reverted, down to ${size} wei (PoolPriceOutOfRange: the trade leaves the market's range ${range![1]}): ` +
          `the market's liquidity ends below ${size} wei of size; a budget of at most ${budget} wei ends the search's ` +
          `range at or below ${size} wei, so it tries smaller sizes`,
      },
      {
        param: "collateralAvailable",
        message:
          `the bisection stopped after 10 candidates with the sizes between 0 and ${size} wei untried; its range is ` +
          "[0, collateralAvailable / currentPrice] cut in 2^10 steps, so a smaller collateralAvailable tries smaller sizes, or search=exact finds the largest size that fits whatever the budget",
      },
    ]);
    // The smaller budget it names does find a size.
    const response = await h.get(h.quotePath(4, { expectedPrice: "0.59", collateralAvailable: budget.toString() }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.ok(BigInt(response.body.maxSize) > 0n);
  });

  test("every candidate beyond expectedPrice: the smallest size and its priceAfter; the expectedPrice it names lets that size fill", async () => {
    const expectedPrice = await justAboveMarket1();
    const query = { expectedPrice, collateralAvailable: THOUSAND };
    const details = await expectError(h.quotePath(1, query), 400, MESSAGES.noValidSize);
    const [smallest] = await traceOf(1, query);
    assert.equal(smallest!.outcome, "beyond-expected");
    const { size, priceAfter } = smallest!;
    const budget = largestBudgetBelow(BigInt(size), parseUnits(await currentPrice(1n), 18));
    assert.equal(details[0]!.param, "expectedPrice");
    assert.equal(
      details[0]!.message,
      `even the smallest size tried, ${size} wei, moves the price to ${priceAfter}, past expectedPrice ` +
        `${expectedPrice}; an expectedPrice of at least ${priceAfter} lets that size fill; a budget of at most ` +
        `${budget} wei ends the search's range at or below ${size} wei, so it tries smaller sizes`,
    );
    assert.match(details[1]!.message, /a smaller collateralAvailable tries smaller sizes, or search=exact finds the largest size that fits whatever the budget$/);
    const response = await h.get(h.quotePath(1, { expectedPrice: priceAfter!, collateralAvailable: THOUSAND }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
  });

  test("with fewer candidates than it may: maxIterations=10 named", async () => {
    const query = { expectedPrice: await justAboveMarket1(), collateralAvailable: THOUSAND, maxIterations: "1" };
    const details = await expectError(h.quotePath(1, query), 400, MESSAGES.noValidSize);
    const [only] = await traceOf(1, query);
    assert.equal(details[1]!.param, "maxIterations");
    assert.equal(details[1]!.message, `the bisection stopped after 1 candidate with the sizes between 0 and ${only!.size} wei untried; maxIterations=10 halves the step 9 more times`);
  });

  test("a LONG's priceLimit at or above expectedPrice: nothing can satisfy both", async () => {
    const details = await expectError(h.quotePath(2, { expectedPrice: "1030", priceLimit: "1040", collateralAvailable: THOUSAND }), 400, MESSAGES.noValidSize);
    assert.deepEqual(details, [
      {
        param: "priceLimit",
        message:
          "priceLimit 1040 is not below expectedPrice 1030: a LONG needs priceLimit < priceAfter <= expectedPrice, so no size can " +
          `satisfy both; set priceLimit below 1030, or leave it out (it defaults to the current price ${await currentPrice(2n)})`,
      },
    ]);
  });

  test("a budget below one wei of size: the smallest budget that gives a size of 1", async () => {
    const details = await expectError(h.quotePath(2, { expectedPrice: "1030", collateralAvailable: "1" }), 400, MESSAGES.noValidSize);
    const price = await currentPrice(2n);
    // The search tries sizes strictly between 0 and budget * 10^18 / price: a size of 1 needs that to reach 2.
    const smallest = (2n * parseUnits(price, 18) + 10n ** 18n - 1n) / 10n ** 18n;
    assert.deepEqual(details, [
      {
        param: "collateralAvailable",
        message:
          `1 wei buys 0 wei of size at the current price ${price} (collateralAvailable × 10^18 / currentPrice), and the search tries sizes ` +
          `strictly between 0 and that: no size was quoted; the smallest budget that gives a size of 1 wei to try is ${smallest} wei`,
      },
    ]);
    const named = await h.get(h.quotePath(2, { expectedPrice: "1030", collateralAvailable: smallest.toString(), trace: "true" }));
    assert.equal(named.status, 200);
    assert.equal(named.body.trace[0].size, "1", "that budget's search tries a size of 1");
  });

  test("every candidate short of priceLimit: the largest size tried, its priceAfter and the cap", async () => {
    const query = { expectedPrice: "1030", priceLimit: "1001", collateralAvailable: ONE };
    const details = await expectError(h.quotePath(2, query), 400, MESSAGES.noValidSize);
    const largest = (await traceOf(2, query)).at(-1)!;
    assert.equal(largest.outcome, "short-of-limit");
    const price = await currentPrice(2n);
    const cap = (10n ** 36n) / parseUnits(price, 18);
    assert.equal(
      details[0]!.message,
      `even the largest size tried, ${largest.size} wei (the budget buys at most ${cap} wei at the current price ${price}), ` +
        `moves the price only to ${largest.priceAfter}, not past priceLimit 1001; a priceLimit below ${largest.priceAfter} lets ` +
        "that size fill, or a larger budget reaches larger sizes",
    );
  });

  test("short of priceLimit below, over budget above: both figures, and the search's untried sizes", async () => {
    // A SHORT the budget bounds: its answer's next size up was over budget. A priceLimit at the answer's priceAfter
    // leaves the same candidates below it short of the limit, the ones above over budget.
    const bounded = await h.get(h.quotePath(2, { expectedPrice: "500.0001", collateralAvailable: THOUSAND, trace: "true" }));
    assert.equal(bounded.status, 200, JSON.stringify(bounded.body));
    assert.ok((bounded.body.trace as TraceEntry[]).some((entry) => entry.outcome === "over-budget"));
    const limit = bounded.body.priceAfter as string;
    const query = { expectedPrice: "500.0001", priceLimit: limit, collateralAvailable: THOUSAND };
    const details = await expectError(h.quotePath(2, query), 400, MESSAGES.noValidSize);
    const trace = await traceOf(2, query);
    const below = trace.filter((entry) => entry.outcome === "short-of-limit").at(-1)!;
    const above = trace.find((entry) => entry.outcome === "over-budget" && -BigInt(entry.size) > -BigInt(below.size))!;
    assert.deepEqual(details.map((d) => d.param), ["collateralAvailable", "collateralAvailable"]);
    const magnitude = (size: string) => (-BigInt(size)).toString();
    assert.equal(
      details[0]!.message,
      `${magnitude(below.size)} wei moves the price only to ${below.priceAfter}, not past priceLimit ${limit}, and the next size up the ` +
        `search tried, ${magnitude(above.size)} wei, needs ${above.requiredCollateral} wei of collateral, more than collateralAvailable ` +
        `1000000000000000000000 wei: a size between them may fit; else a priceLimit above ${below.priceAfter}, or a budget of at ` +
        `least ${above.requiredCollateral} wei`,
    );
  });

  test("short of priceLimit below, beyond expectedPrice above", async () => {
    const query = { expectedPrice: "1010", priceLimit: "1009.99", collateralAvailable: THOUSAND };
    const details = await expectError(h.quotePath(2, query), 400, MESSAGES.noValidSize);
    const trace = await traceOf(2, query);
    const below = trace.filter((entry) => entry.outcome === "short-of-limit").at(-1)!;
    const above = trace.find((entry) => entry.outcome === "beyond-expected" && BigInt(entry.size) > BigInt(below.size))!;
    assert.equal(details[0]!.param, "expectedPrice");
    assert.ok(
      details[0]!.message.startsWith(
        `${below.size} wei moves the price only to ${below.priceAfter}, not past priceLimit 1009.99, and the next size up the search tried, ` +
          `${above.size} wei, moves it to ${above.priceAfter}, past expectedPrice 1010`,
      ),
      details[0]!.message,
    );
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
          "[&maxIterations={1-10}][&priceLimit={decimal}][&search=exact][&trace=true][&minBlock={block}]" +
          "[&taker={address}][&slippageBps={0-5000}][&deadlineSeconds={1-86400}]",
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
