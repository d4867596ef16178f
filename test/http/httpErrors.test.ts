// The status and headers each error answers with over HTTP: the quote errors of the domain, mapped here, and the
// HTTP layer's own errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as quote from "../../src/quote/quoteErrors.ts";
import {
  HttpError,
  bodyNotAccepted,
  bodyTooLarge,
  methodNotAllowed,
  routeNotFound,
  statusOf,
  toHttpError,
  tooManyRequests,
  unsupportedMediaType,
  uriTooLong,
} from "../../src/http/httpErrors.ts";

test("§6 / interface §7: every error has its status and exact message; the body is { error, details } with a detail at least", () => {
  const cases: [quote.QuoteError | HttpError, number, string][] = [
    [quote.invalidQueryParameters([]), 400, "Invalid query parameters"],
    [quote.invalidPathParameters([]), 400, "Invalid path parameters"],
    [quote.invalidRequestBody([]), 400, "Invalid request body"],
    [quote.expectedPriceNotPositive(), 400, "Expected price must be greater than 0"],
    [quote.expectedPriceEqualsCurrent(), 400, "Expected price must be different from current price"],
    [quote.noValidSize(), 400, "Could not find a valid position size that satisfies the price constraints"],
    [quote.insufficientLiquidity(), 400, "Insufficient liquidity. Try a smaller size."],
    [quote.marketNotFound(), 404, "Market not found"],
    [quote.currentPriceNotFound(), 404, "Current price not found"],
    [quote.marketSettled(), 400, "Market is settled"],
    [quote.rpcUnavailable(), 503, "Chain RPC unavailable"],
    [quote.internalError(), 500, "Internal server error"],
    [routeNotFound("GET", "/nope"), 404, "Not found"],
    [methodNotAllowed("POST", "/health", ["GET", "HEAD"]), 405, "Method not allowed"],
    [tooManyRequests(3, 100), 429, "Too many requests"],
    [uriTooLong(3000, 2048), 414, "URI too long"],
    [bodyNotAccepted("GET"), 413, "Request body not accepted"],
    [bodyTooLarge(1024), 413, "Request body too large"],
    [unsupportedMediaType("text/plain"), 415, "Unsupported media type"],
  ];
  for (const [error, status, message] of cases) {
    const answer = toHttpError(error);
    assert.ok(answer instanceof HttpError);
    assert.equal(answer.status, status, message);
    assert.equal(statusOf(error), status, message);
    assert.equal(answer.message, message);
    const body = answer.toBody();
    assert.deepEqual(Object.keys(body), ["error", "details"], message);
    assert.equal(body.error, message);
    assert.ok(body.details.length > 0 && body.details.every((d) => d.param !== "" && d.message !== ""), message);
  }
});

test("§6 the body of a quote error is the domain's, details and extra fields included", () => {
  const error = quote.noValidSize({ details: [{ param: "p", message: "m" }], extra: { trace: [] } });
  assert.equal(JSON.stringify(toHttpError(error).toBody()), JSON.stringify(error.toBody()));
});

test("§6 503 Chain RPC unavailable carries a Retry-After header; 429 too; 405 names the allowed methods", () => {
  assert.deepEqual(toHttpError(quote.rpcUnavailable()).headers, { "Retry-After": "5" });
  assert.deepEqual(toHttpError(quote.rpcUnavailable(2)).headers, { "Retry-After": "2" });
  assert.deepEqual(tooManyRequests(7, 100).headers, { "Retry-After": "7" });
  assert.deepEqual(methodNotAllowed("POST", "/quoter/1/batch", ["POST"]).headers, { Allow: "POST" });
  assert.deepEqual(methodNotAllowed("DELETE", "/health", ["GET", "HEAD"]).headers, { Allow: "GET, HEAD" });
  assert.equal(toHttpError(quote.internalError()).headers, undefined);
});
