import { test } from "node:test";
import assert from "node:assert/strict";
import { D18 } from "../../src/quote/fixedPoint.ts";
import {
  buildAnswer,
  checkExpectedDiffersFromCurrent,
  checkExpectedPrice,
  defaultPriceLimit,
  planSearch,
  serializeTrace,
} from "../../src/quote/quoteAnswer.ts";
import { MESSAGES, marketSettled, noValidSize } from "../../src/quote/quoteErrors.ts";
import { statusOf } from "../../src/http/httpErrors.ts";
import { explainSearchFailure } from "../../src/quote/explain.ts";
import type { QuoteRequest } from "../../src/quote/request.ts";
import type { SearchResult, TraceEntry } from "../../src/quote/search.ts";

const request: QuoteRequest = {
  chainId: 31337,
  marketAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  marketId: 1n,
  expectedPrice: 6n * 10n ** 17n,
  collateralAvailable: 10n * D18,
  maxIterations: 10,
  trace: false,
  search: "bisection",
};
const currentPrice = D18 / 2n;

const quote = { requiredCollateral: 123456789n, fillPrice: 55n * 10n ** 16n, priceAfter: 6n * 10n ** 17n };
const trace: TraceEntry[] = [
  { size: -10n, outcome: "reverted", revert: "PoolPriceOutOfRange" },
  { size: -5n, outcome: "feasible", quote },
  { size: -7n, outcome: "reverted", revert: "0x" },
];

test("§3.2 expectedPrice must be greater than 0", () => {
  assert.equal(checkExpectedPrice(1n), undefined);
  for (const price of [0n, -1n, -D18]) {
    const error = checkExpectedPrice(price);
    assert.equal(error && statusOf(error), 400);
    assert.equal(error?.message, "Expected price must be greater than 0");
  }
});

test("§3.7 expectedPrice equal to the current price (exact D18 equality) is rejected", () => {
  const error = checkExpectedDiffersFromCurrent(D18, D18);
  assert.equal(error && statusOf(error), 400);
  assert.equal(error?.message, "Expected price must be different from current price");
  assert.equal(checkExpectedDiffersFromCurrent(D18 + 1n, D18), undefined);
  assert.equal(checkExpectedDiffersFromCurrent(D18 - 1n, D18), undefined);
});

test("§3.9 priceLimit defaults to the current price", () => {
  assert.equal(defaultPriceLimit(undefined, currentPrice), currentPrice);
  assert.equal(defaultPriceLimit(7n, currentPrice), 7n);
});

test("§3.7-§3.9 and §4: planSearch infers the direction, defaults the limit and computes the cap", () => {
  assert.deepEqual(planSearch(request, currentPrice), {
    ok: true,
    value: {
      direction: "LONG",
      cap: 20n * D18,
      maxIterations: 10,
      expectedPrice: request.expectedPrice,
      priceLimit: currentPrice,
      collateralAvailable: request.collateralAvailable,
    },
  });
  const short = planSearch({ ...request, expectedPrice: D18 / 4n, priceLimit: D18 / 3n, maxIterations: 3 }, currentPrice);
  assert.ok(short.ok);
  assert.equal(short.value.direction, "SHORT");
  assert.equal(short.value.priceLimit, D18 / 3n);
  assert.equal(short.value.maxIterations, 3);
  const equal = planSearch({ ...request, expectedPrice: currentPrice }, currentPrice);
  assert.ok(!equal.ok);
  assert.equal(equal.error.message, MESSAGES.expectedPriceEqualsCurrent);
});

/** §3.4, §5: the block of the reads, by number and hash (lower case). */
const BLOCK_42 = { number: 42n, hash: `0x${"4a".repeat(32)}` } as const;
const BLOCK_1 = { number: 1n, hash: `0x${"01".repeat(32)}` } as const;

test("§5 found: the 200 body with fields in order, canonical decimals, maxSize signed by direction", () => {
  const result: SearchResult = { kind: "found", size: 5n, quote, iterations: 3, trace };
  const answer = buildAnswer(request, currentPrice, BLOCK_42, "SHORT", result, 18);
  assert.ok(answer.ok);
  assert.deepEqual(Object.keys(answer.value), [
    "direction",
    "maxSize",
    "currentPrice",
    "expectedPrice",
    "collateralAvailable",
    "requiredCollateral",
    "maxCollateral",
    "fillPrice",
    "priceAfter",
    "limitedBy",
    "blockNumber",
    "blockHash",
    "iterations",
    "collateralDecimals",
  ]);
  assert.equal(
    JSON.stringify(answer.value),
    '{"direction":"SHORT","maxSize":"-5","currentPrice":"0.5","expectedPrice":"0.6","collateralAvailable":"10000000000000000000",' +
      '"requiredCollateral":"123456789","maxCollateral":"123456789","fillPrice":"0.55","priceAfter":"0.6","limitedBy":"liquidity","blockNumber":"42",' +
      `"blockHash":"${BLOCK_42.hash}","iterations":3,"collateralDecimals":18}`,
  );
  const long = buildAnswer(request, currentPrice, BLOCK_42, "LONG", result, 18);
  assert.ok(long.ok);
  assert.equal(long.value.maxSize, "5");
});

test("§5 limitedBy: a bisection that found nothing too large says collateral, at its range's top or short of it; an unproven exact answer says search", () => {
  // collateralAvailable 10 at price 0.5: the bisection's range is [0, 20 × 10^18], its last size 20 × 10^18 - 1.
  const top = 20n * D18 - 1n;
  const trace: TraceEntry[] = [{ size: top, outcome: "feasible", quote }];
  const bisected: SearchResult = { kind: "found", size: top, quote, iterations: 1, trace };
  const answer = buildAnswer(request, currentPrice, BLOCK_42, "LONG", bisected, 18);
  assert.equal(answer.ok && answer.value.limitedBy, "collateral");
  const below = buildAnswer(request, currentPrice, BLOCK_42, "LONG", { ...bisected, size: top - 1n, trace: [{ ...trace[0]!, size: top - 1n }] }, 18);
  assert.equal(below.ok && below.value.limitedBy, "collateral");
  const exact = buildAnswer({ ...request, search: "exact" }, currentPrice, BLOCK_42, "LONG", { ...bisected, exact: false }, 18);
  assert.equal(exact.ok && exact.value.limitedBy, "search");
});

test("§7 trace=true adds trace after iterations: sizes and wei as integers, prices canonical, revert names or data", () => {
  const result: SearchResult = { kind: "found", size: 5n, quote, iterations: 3, trace };
  const answer = buildAnswer({ ...request, trace: true }, currentPrice, BLOCK_42, "SHORT", result, 18);
  assert.ok(answer.ok);
  assert.equal(Object.keys(answer.value).at(-1), "trace");
  assert.deepEqual(answer.value.trace, [
    { size: "-10", outcome: "reverted", revert: "PoolPriceOutOfRange" },
    { size: "-5", outcome: "feasible", requiredCollateral: "123456789", fillPrice: "0.55", priceAfter: "0.6" },
    { size: "-7", outcome: "reverted", revert: "0x" },
  ]);
  assert.deepEqual(Object.keys(serializeTrace(trace)[1] ?? {}), ["size", "outcome", "requiredCollateral", "fillPrice", "priceAfter"]);
});

test("§5 no best, reverts only: 400 \"Insufficient liquidity. Try a smaller size.\" (trace only when asked, §7)", () => {
  const result: SearchResult = { kind: "insufficient-liquidity", iterations: 1, trace: [trace[0]!] };
  const plain = buildAnswer(request, currentPrice, BLOCK_1, "LONG", result, 18);
  assert.ok(!plain.ok);
  assert.equal(statusOf(plain.error), 400);
  // The message is the interface's; details say what decided (test/quote/explain.test.ts checks their words).
  const details = explainSearchFailure(request, currentPrice, "LONG", result);
  assert.ok(details.length > 0);
  assert.deepEqual(plain.error.toBody(), { error: "Insufficient liquidity. Try a smaller size.", details });
  const traced = buildAnswer({ ...request, trace: true }, currentPrice, BLOCK_1, "LONG", result, 18);
  assert.ok(!traced.ok);
  assert.deepEqual(traced.error.toBody(), {
    error: "Insufficient liquidity. Try a smaller size.",
    details,
    trace: [{ size: "-10", outcome: "reverted", revert: "PoolPriceOutOfRange" }],
  });
});

test("§5 no best otherwise (including cap = 0): 400 \"Could not find a valid position size that satisfies the price constraints\"", () => {
  const empty: SearchResult = { kind: "no-valid-size", iterations: 0, trace: [] };
  const plain = buildAnswer(request, currentPrice, BLOCK_1, "LONG", empty, 18);
  assert.ok(!plain.ok);
  assert.equal(statusOf(plain.error), 400);
  // Nothing was quoted, so nothing decided: the general detail of the message (semantics §6: never none).
  const { details } = noValidSize().toBody();
  assert.deepEqual(plain.error.toBody(), { error: MESSAGES.noValidSize, details });
  const traced = buildAnswer({ ...request, trace: true }, currentPrice, BLOCK_1, "LONG", empty, 18);
  assert.ok(!traced.ok);
  assert.deepEqual(traced.error.toBody(), { error: MESSAGES.noValidSize, details, trace: [] });
});

test("§10 maxCollateral: requiredCollateral in the token's units, rounded up", () => {
  const result = (requiredCollateral: bigint): SearchResult => ({
    kind: "found",
    size: 5n,
    quote: { ...quote, requiredCollateral },
    iterations: 1,
    trace: [],
  });
  const cases: [bigint, number, string][] = [
    [1000n * 10n ** 18n, 6, "1000000000"], // 1000 USDC
    [1000n * 10n ** 18n + 1n, 6, "1000000001"], // one wei more needs one more unit
    [10n ** 12n, 6, "1"],
    [1n, 6, "1"],
    [123456789n, 18, "123456789"],
    [10n ** 10n, 8, "1"],
    [10n ** 10n + 1n, 8, "2"],
    [7n, 0, "1"],
  ];
  for (const [required, decimals, expected] of cases) {
    const answer = buildAnswer(request, currentPrice, BLOCK_1, "LONG", result(required), decimals);
    assert.ok(answer.ok);
    assert.equal(answer.value.maxCollateral, expected, `${required} at ${decimals} decimals`);
    assert.equal(answer.value.collateralDecimals, decimals);
    assert.equal(answer.value.requiredCollateral, required.toString(), "requiredCollateral keeps its 18-decimal units");
  }
});

test("§9 ExpiredMarketNotSettled: no valid size, and the detail says when the market ended", () => {
  const result: SearchResult = {
    kind: "no-valid-size",
    revertName: "ExpiredMarketNotSettled",
    revertArgs: { marketEndTime: "1767225600" },
    iterations: 1,
    trace: [{ size: 512n, outcome: "reverted", revert: "ExpiredMarketNotSettled", revertArgs: { marketEndTime: "1767225600" } }],
  };
  const answer = buildAnswer({ ...request, trace: true }, currentPrice, BLOCK_1, "LONG", result, 18);
  assert.ok(!answer.ok);
  assert.equal(statusOf(answer.error), 400);
  assert.deepEqual(answer.error.toBody(), {
    error: MESSAGES.noValidSize,
    details: [{
      param: "marketId",
      message: "the market ended at 1767225600 (2026-01-01T00:00:00Z) and is not settled yet: no position can be opened (quote reverted with ExpiredMarketNotSettled)",
    }],
    trace: [{ size: "512", outcome: "reverted", revert: "ExpiredMarketNotSettled", revertArgs: { marketEndTime: "1767225600" } }],
  });
});

test("§4 InvalidMarket/ExpiredMarket/MarketNotStarted: no valid size with the decoded error name in details", () => {
  const result: SearchResult = {
    kind: "no-valid-size",
    revertName: "ExpiredMarket",
    iterations: 1,
    trace: [{ size: 512n, outcome: "reverted", revert: "ExpiredMarket" }],
  };
  const answer = buildAnswer({ ...request, trace: true }, currentPrice, BLOCK_1, "LONG", result, 18);
  assert.ok(!answer.ok);
  assert.deepEqual(answer.error.toBody(), {
    error: MESSAGES.noValidSize,
    details: [{ param: "marketId", message: "the market has ended: no position can be opened (quote reverted with ExpiredMarket())" }],
    trace: [{ size: "512", outcome: "reverted", revert: "ExpiredMarket" }],
  });
});

test("§4 MarketSettled/EpochSettled during the search: 400 \"Market is settled\"", () => {
  const result: SearchResult = {
    kind: "market-settled",
    revertName: "MarketSettled",
    iterations: 1,
    trace: [{ size: 512n, outcome: "reverted", revert: "MarketSettled" }],
  };
  const answer = buildAnswer({ ...request, trace: true }, currentPrice, BLOCK_1, "LONG", result, 18);
  assert.ok(!answer.ok);
  assert.equal(statusOf(answer.error), 400);
  assert.deepEqual(answer.error.toBody(), marketSettled().toBody());
  assert.equal(answer.error.toBody().error, "Market is settled");
});
