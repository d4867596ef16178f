// The details that say what decided a failed search and what to change, on constructed search records: the
// cases the demo chain cannot easily reach (a converged search with no size between its bounds, a smallest size
// over budget, sizes the bisection left untried). test/http/firstContact.test.ts reaches the
// others on the real chain.
import { test } from "node:test";
import assert from "node:assert/strict";
import { D18 } from "../../src/quote/fixedPoint.ts";
import { priceD18FromSqrtX96Nearest } from "../../src/quote/priceMath.ts";
import { approximate } from "../../src/quote/describe.ts";
import { equalPriceDetail, explainSearchFailure, unconfiguredChainDetail } from "../../src/quote/explain.ts";
import type { QuoteRequest } from "../../src/quote/request.ts";
import type { SearchResult, TraceEntry } from "../../src/quote/search.ts";
import { didYouMean, isOneEditAway } from "../../src/quote/spelling.ts";

const request: QuoteRequest = {
  chainId: 31337,
  marketAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  marketId: 1n,
  expectedPrice: 1030n * D18,
  collateralAvailable: 1000n * D18,
  maxIterations: 10,
  trace: false,
  search: "bisection",
};
const currentPrice = 1000n * D18;
const quoted = (size: bigint, outcome: TraceEntry["outcome"], priceAfter: bigint, requiredCollateral = 1n): TraceEntry => ({
  size,
  outcome,
  quote: { requiredCollateral, fillPrice: priceAfter, priceAfter },
});
const failed = (trace: TraceEntry[]): Extract<SearchResult, { kind: "no-valid-size" }> => ({ kind: "no-valid-size", iterations: trace.length, trace });

test("a search that converged with no size between a short-of-limit and a beyond-expected one: widen the band", () => {
  const trace = [quoted(100n, "short-of-limit", 1020n * D18), quoted(101n, "beyond-expected", 1031n * D18)];
  const details = explainSearchFailure({ ...request, priceLimit: 1020n * D18 }, currentPrice, "LONG", failed(trace));
  assert.deepEqual(details, [
    {
      param: "expectedPrice",
      message:
        "100 wei moves the price only to 1020, not past priceLimit 1020, and one wei more, 101 wei, moves it to 1031, past " +
        "expectedPrice 1030: no size lies between; widen the band between priceLimit and expectedPrice: a priceLimit below 1020, " +
        "or an expectedPrice of at least 1031",
    },
  ]);
});

test("the smallest size tried over budget: the budget that covers it", () => {
  const trace = [quoted(-(10n ** 18n), "over-budget", 990n * D18, 2000n * D18)];
  const details = explainSearchFailure({ ...request, expectedPrice: 900n * D18 }, currentPrice, "SHORT", failed(trace));
  assert.equal(details[0]?.param, "collateralAvailable");
  assert.equal(
    details[0]?.message,
    "the smallest size tried, 1000000000000000000 wei, needs 2000000000000000000000 wei of collateral, more than collateralAvailable " +
      "1000000000000000000000 wei; a budget of at least 2000000000000000000000 wei covers it",
  );
  assert.equal(details[1]?.param, "collateralAvailable");
});

test("a SHORT's priceLimit below expectedPrice: nothing can satisfy both, whatever the trace", () => {
  const details = explainSearchFailure({ ...request, expectedPrice: 990n * D18, priceLimit: 980n * D18 }, currentPrice, "SHORT", failed([]));
  assert.deepEqual(details.map((d) => d.param), ["priceLimit"]);
  assert.match(details[0]!.message, /^priceLimit 980 is not above expectedPrice 990: a SHORT needs expectedPrice <= priceAfter < priceLimit/);
});

test("a cap of 0 or 1 quotes nothing: the smallest budget that gives the search a size of 1 to try", () => {
  for (const budget of [1n, 1999n]) {
    const [detail] = explainSearchFailure({ ...request, collateralAvailable: budget }, currentPrice, "LONG", failed([]));
    assert.equal(detail?.param, "collateralAvailable");
    assert.match(detail!.message, /the smallest budget that gives a size of 1 wei to try is 2000 wei$/);
  }
});

test("sizes the bisection left untried: the finer step that more iterations or a smaller budget gives", () => {
  const trace = [quoted(10n ** 18n, "beyond-expected", 1100n * D18)];
  const ten = explainSearchFailure(request, currentPrice, "LONG", failed(trace));
  assert.deepEqual(ten.map((d) => d.param), ["expectedPrice", "collateralAvailable"]);
  assert.match(ten[1]!.message, /a smaller collateralAvailable tries smaller sizes, or search=exact finds the largest size that fits whatever the budget$/);
  const three = explainSearchFailure({ ...request, maxIterations: 3 }, currentPrice, "LONG", failed(trace));
  assert.deepEqual(three.map((d) => d.param), ["expectedPrice", "maxIterations"]);
  assert.match(three[1]!.message, /maxIterations=10 halves the step 7 more times$/);
});

test("the equal-price and unconfigured-chain details name the price and the variable", () => {
  assert.deepEqual(equalPriceDetail(D18 / 2n), {
    param: "expectedPrice",
    message: "equals the current price 0.5: set it above 0.5 to quote a LONG, below 0.5 to quote a SHORT",
  });
  assert.match(unconfiguredChainDetail(10).message, /set RPC_URL_10 to its JSON-RPC URL/);
});

test("a sqrt price reads as a D18 price, shown to 6 significant digits when it is not exact", () => {
  assert.equal(priceD18FromSqrtX96Nearest(2n ** 96n), D18);
  assert.equal(approximate(priceD18FromSqrtX96Nearest(50108289675009586237282760314n)), "0.4");
  assert.equal(approximate(400000000000000001n), "about 0.4");
  assert.equal(approximate(D18 / 2n), "0.5");
});

test("one edit away, case aside: did you mean", () => {
  assert.equal(isOneEditAway("expectedprice", "expectedprice"), true);
  assert.equal(isOneEditAway("colateralavailable", "collateralavailable"), true);
  assert.equal(isOneEditAway("expectedprise", "expectedprice"), true);
  assert.equal(isOneEditAway("expected", "expectedprice"), false);
  assert.equal(isOneEditAway("xpectedprce", "expectedprice"), false);
  assert.equal(didYouMean("expectedPrice", ["EXPECTEDPRICE", "trace"]), ' (the request has "EXPECTEDPRICE": did you mean expectedPrice?)');
  assert.equal(didYouMean("expectedPrice", ["priceLimit", "collateralAvailable"]), "");
});
