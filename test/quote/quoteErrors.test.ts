import { test } from "node:test";
import assert from "node:assert/strict";
import {
  MESSAGES,
  QuoteError,
  currentPriceNotFound,
  errorBody,
  expectedPriceEqualsCurrent,
  expectedPriceNotPositive,
  insufficientLiquidity,
  internalError,
  invalidPathParameters,
  invalidQueryParameters,
  invalidRequestBody,
  marketNotFound,
  marketSettled,
  noValidSize,
  notTraderPosition,
  positionNotFound,
  rpcUnavailable,
  takerNotOwner,
  insufficientCollateralForRange,
  liquidityNotMinted,
  type QuoteErrorKind,
} from "../../src/quote/quoteErrors.ts";

test("§6 / interface §7: every error of a quote has its stable kind and exact message; the body is { error, details }", () => {
  const cases: [QuoteError, QuoteErrorKind, string][] = [
    [invalidQueryParameters([]), "invalidQuery", "Invalid query parameters"],
    [invalidPathParameters([]), "invalidPath", "Invalid path parameters"],
    [invalidRequestBody([]), "invalidBody", "Invalid request body"],
    [expectedPriceNotPositive(), "expectedPriceNotPositive", "Expected price must be greater than 0"],
    [expectedPriceEqualsCurrent(), "expectedPriceEqualsCurrent", "Expected price must be different from current price"],
    [noValidSize(), "noValidSize", "Could not find a valid position size that satisfies the price constraints"],
    [insufficientLiquidity(), "insufficientLiquidity", "Insufficient liquidity. Try a smaller size."],
    [marketNotFound(), "marketNotFound", "Market not found"],
    [currentPriceNotFound(), "currentPriceNotFound", "Current price not found"],
    [marketSettled(), "marketSettled", "Market is settled"],
    [positionNotFound(), "positionNotFound", "Position not found"],
    [notTraderPosition(), "notTraderPosition", "Position is not a trader position"],
    [takerNotOwner(1n, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), "takerNotOwner", "Taker does not own the position"],
    [insufficientCollateralForRange(7n), "insufficientCollateralForRange", "Insufficient collateral for this range"],
    [liquidityNotMinted(1n, "Panic(17)"), "liquidityNotMinted", "Could not mint a liquidity position in this range"],
    [rpcUnavailable(), "rpcUnavailable", "Chain RPC unavailable"],
    [internalError(), "internal", "Internal server error"],
  ];
  assert.deepEqual(cases.map(([, kind]) => kind).sort(), Object.keys(MESSAGES).sort(), "one case per kind");
  for (const [error, kind, message] of cases) {
    assert.ok(error instanceof QuoteError);
    assert.ok(error instanceof Error);
    assert.equal(error.kind, kind);
    assert.equal(error.message, message);
    const body = error.toBody();
    assert.equal(body.error, message);
    // Made with no details, an error still says what to change (semantics §6).
    assert.deepEqual(Object.keys(body), ["error", "details"], message);
    assert.ok(body.details.length === 1 && body.details[0]!.param !== "" && body.details[0]!.message !== "", message);
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

test("§6 an unavailable chain says how long to wait (5 s unless the caller names another value); no other error does", () => {
  assert.equal(rpcUnavailable().retryAfterSeconds, 5);
  assert.equal(rpcUnavailable(2).retryAfterSeconds, 2);
  assert.equal(internalError().retryAfterSeconds, undefined);
});

test("§7 extra body fields follow error and details and never overwrite them", () => {
  const body = errorBody("x", [{ param: "p", message: "m" }], { trace: [], error: "no", details: "no" });
  assert.equal(JSON.stringify(body), '{"error":"x","details":[{"param":"p","message":"m"}],"trace":[]}');
  const error = noValidSize({ details: [{ param: "p", message: "m" }], extra: { trace: [], error: "no", details: "no" } });
  assert.equal(JSON.stringify(error.toBody()), `{"error":"${MESSAGES.noValidSize}","details":[{"param":"p","message":"m"}],"trace":[]}`);
});

test("every error class of src/ extends QuoterError: one base with a code, a message and details", async () => {
  const { readdirSync, readFileSync, statSync } = await import("node:fs");
  const { join } = await import("node:path");
  const root = new URL("../../src/", import.meta.url).pathname;
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith(".ts") ? [join(dir, name)] : []));
  const declared = files(root).flatMap((file) => [...readFileSync(file, "utf8").matchAll(/class (\w+Error) extends (\w+)/g)].map(([, name, base]) => ({ file, name, base })));
  assert.ok(declared.length >= 12, `${declared.length} error classes`);
  const names = new Set(declared.map((error) => error.name));
  for (const { name, base, file } of declared) {
    if (name === "QuoterError") continue;
    assert.ok(base === "QuoterError" || names.has(base!), `${name} (${file}) extends ${base}, not QuoterError or one of its subclasses`);
  }
  const quote = marketNotFound([{ param: "marketId", message: "m" }]);
  assert.equal(quote.code, "marketNotFound");
  assert.deepEqual(quote.details, [{ param: "marketId", message: "m" }]);
});
