import { test } from "node:test";
import assert from "node:assert/strict";
import {
  QuoteError,
  currentPriceNotFound,
  expectedPriceEqualsCurrent,
  expectedPriceNotPositive,
  insufficientLiquidity,
  internalError,
  invalidPathParameters,
  invalidQueryParameters,
  marketNotFound,
  marketSettled,
  methodNotAllowed,
  noValidSize,
  routeNotFound,
  rpcUnavailable,
  tooManyRequests,
  uriTooLong,
} from "../../src/quote/errors.ts";

test("§6 / interface §7: every error has its status and exact message; the body is { error }", () => {
  const cases: [QuoteError, number, string][] = [
    [invalidQueryParameters([]), 400, "Invalid query parameters"],
    [invalidPathParameters([]), 400, "Invalid path parameters"],
    [expectedPriceNotPositive(), 400, "Expected price must be greater than 0"],
    [expectedPriceEqualsCurrent(), 400, "Expected price must be different from current price"],
    [noValidSize(), 400, "Could not find a valid position size that satisfies the price constraints"],
    [insufficientLiquidity(), 400, "Insufficient liquidity. Try a smaller size."],
    [marketNotFound(), 404, "Market not found"],
    [currentPriceNotFound(), 404, "Current price not found"],
    [marketSettled(), 400, "Market is settled"],
    [rpcUnavailable(), 503, "Chain RPC unavailable"],
    [internalError(), 500, "Internal server error"],
    [routeNotFound(), 404, "Not found"],
    [methodNotAllowed(), 405, "Method not allowed"],
    [tooManyRequests(3), 429, "Too many requests"],
    [uriTooLong(), 414, "URI too long"],
  ];
  for (const [error, status, message] of cases) {
    assert.ok(error instanceof QuoteError);
    assert.ok(error instanceof Error);
    assert.equal(error.status, status, message);
    assert.equal(error.message, message);
    const body = error.toBody();
    assert.equal(body.error, message);
    if (!message.startsWith("Invalid")) assert.deepEqual(body, { error: message });
  }
});

test("§6 validation details: an array of { param, message }, after error in the body", () => {
  const error = invalidQueryParameters([{ param: "expectedPrice", message: "is required" }]);
  assert.equal(JSON.stringify(error.toBody()), '{"error":"Invalid query parameters","details":[{"param":"expectedPrice","message":"is required"}]}');
  assert.deepEqual(marketNotFound([{ param: "chainId", message: "no RPC configured for chain 5" }]).toBody(), {
    error: "Market not found",
    details: [{ param: "chainId", message: "no RPC configured for chain 5" }],
  });
});

test("§6 503 Chain RPC unavailable carries a Retry-After header; 429 too; 405 names the allowed methods", () => {
  assert.deepEqual(rpcUnavailable().headers, { "Retry-After": "5" });
  assert.deepEqual(rpcUnavailable(2).headers, { "Retry-After": "2" });
  assert.deepEqual(tooManyRequests(7).headers, { "Retry-After": "7" });
  assert.deepEqual(methodNotAllowed().headers, { Allow: "GET, HEAD" });
  assert.equal(internalError().headers, undefined);
});

test("§7 extra body fields follow error and details and never overwrite them", () => {
  const error = new QuoteError(400, "x", { details: [{ param: "p", message: "m" }], extra: { trace: [], error: "no", details: "no" } });
  assert.equal(JSON.stringify(error.toBody()), '{"error":"x","details":[{"param":"p","message":"m"}],"trace":[]}');
});
