import { maxUint256 } from "viem";
import { test } from "node:test";
import assert from "node:assert/strict";
import { D18 } from "../../src/quote/fixedPoint.ts";
import { MESSAGES, type QuoteError } from "../../src/quote/quoteErrors.ts";
import { statusOf } from "../../src/http/httpErrors.ts";
import { parseMarketAddress } from "../../src/quote/params.ts";
import { parseQuoteRequest, type QuoteRequest } from "../../src/quote/request.ts";

// EIP-55 test vector from the EIP itself.
const CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const LOWER = CHECKSUMMED.toLowerCase();
const UPPER = `0x${CHECKSUMMED.slice(2).toUpperCase()}`;

const goodParams = { chainId: "31337", marketAddress: CHECKSUMMED, marketId: "1" };
const goodQuery = { expectedPrice: "0.5", collateralAvailable: "1000000000000000000" };

function parsedRequest(params: Record<string, unknown>, query: Record<string, unknown>): QuoteRequest {
  const parsed = parseQuoteRequest(params, query);
  assert.ok(parsed.ok, parsed.ok ? "" : JSON.stringify(parsed.error.toBody()));
  return parsed.value;
}

function parseError(params: Record<string, unknown>, query: Record<string, unknown>): QuoteError {
  const parsed = parseQuoteRequest(params, query);
  assert.ok(!parsed.ok, "expected a rejection");
  return parsed.error;
}

function queryError(query: Record<string, unknown>): QuoteError {
  const error = parseError(goodParams, query);
  assert.equal(statusOf(error), 400);
  assert.equal(error.message, MESSAGES.invalidQuery);
  return error;
}

function pathError(params: Record<string, unknown>): QuoteError {
  const error = parseError(params, goodQuery);
  assert.equal(statusOf(error), 400);
  assert.equal(error.message, MESSAGES.invalidPath);
  return error;
}

function failingParams(error: QuoteError): string[] {
  return (error.details ?? []).map((d) => d.param);
}

test("§2 a well-formed request gives typed values, maxIterations defaulting to 10 and trace to false", () => {
  assert.deepEqual(parsedRequest(goodParams, goodQuery), {
    chainId: 31337,
    marketAddress: CHECKSUMMED,
    marketId: 1n,
    expectedPrice: D18 / 2n,
    collateralAvailable: D18,
    maxIterations: 10,
    trace: false,
    search: "bisection",
  });
});

test("§2 leading zeros are allowed in every number and read by value", () => {
  const request = parsedRequest(
    { chainId: "031337", marketAddress: LOWER, marketId: "007" },
    { expectedPrice: "0002.50", collateralAvailable: "00100", maxIterations: "05", priceLimit: "01" },
  );
  assert.equal(request.chainId, 31337);
  assert.equal(request.marketId, 7n);
  assert.equal(request.expectedPrice, 25n * 10n ** 17n);
  assert.equal(request.collateralAvailable, 100n);
  assert.equal(request.maxIterations, 5);
  assert.equal(request.priceLimit, D18);
});

test("§2 expectedPrice: 1e%2B3 arrives decoded as 1e+3 and is 1000", () => {
  assert.equal(parsedRequest(goodParams, { ...goodQuery, expectedPrice: "1e+3" }).expectedPrice, 1000n * D18);
});

test("§2 expectedPrice: 0.50000000000000000000 is 0.5 (trailing zeros do not count)", () => {
  assert.equal(parsedRequest(goodParams, { ...goodQuery, expectedPrice: "0.50000000000000000000" }).expectedPrice, D18 / 2n);
});

for (const text of ["1e-19", ".5", "5.", "+1", "0x10", " 1", "NaN", "Infinity", ""]) {
  test(`§2 expectedPrice: ${JSON.stringify(text)} is rejected with "Invalid query parameters"`, () => {
    const error = queryError({ ...goodQuery, expectedPrice: text });
    assert.deepEqual(failingParams(error), ["expectedPrice"]);
  });
}

test("§2 expectedPrice: a value above (2^256-1)/10^18 is rejected", () => {
  assert.deepEqual(failingParams(queryError({ ...goodQuery, expectedPrice: "1e78" })), ["expectedPrice"]);
});

test("§2 expectedPrice: a parseable zero or negative is not a format error (§3.2 checks it next)", () => {
  assert.equal(parsedRequest(goodParams, { ...goodQuery, expectedPrice: "0" }).expectedPrice, 0n);
  assert.equal(parsedRequest(goodParams, { ...goodQuery, expectedPrice: "-1" }).expectedPrice, -D18);
});

test("§2 priceLimit: a parseable zero or negative is a format error", () => {
  for (const priceLimit of ["0", "-0.5", "0e5"]) {
    const error = queryError({ ...goodQuery, priceLimit });
    assert.deepEqual(error.details, [{ param: "priceLimit", message: "must be greater than 0" }]);
  }
});

test("§2 priceLimit: the same decimal format as expectedPrice", () => {
  assert.equal(parsedRequest(goodParams, { ...goodQuery, priceLimit: "2.5E-1" }).priceLimit, D18 / 4n);
  assert.deepEqual(failingParams(queryError({ ...goodQuery, priceLimit: "1e-19" })), ["priceLimit"]);
  assert.deepEqual(failingParams(queryError({ ...goodQuery, priceLimit: ".5" })), ["priceLimit"]);
});

test("§2 collateralAvailable: zero, negative, fraction, exponent, hex are rejected", () => {
  for (const collateralAvailable of ["0", "-1", "1.5", "1e18", "0x10", ""]) {
    assert.deepEqual(failingParams(queryError({ ...goodQuery, collateralAvailable })), ["collateralAvailable"]);
  }
  assert.equal(parsedRequest(goodParams, { ...goodQuery, collateralAvailable: maxUint256.toString() }).collateralAvailable, maxUint256);
});

test("§2 maxIterations: 1 .. 10 accepted, anything else rejected", () => {
  assert.equal(parsedRequest(goodParams, { ...goodQuery, maxIterations: "1" }).maxIterations, 1);
  assert.equal(parsedRequest(goodParams, { ...goodQuery, maxIterations: "10" }).maxIterations, 10);
  for (const maxIterations of ["0", "11", "-1", "1.5", "", "1e1"]) {
    assert.deepEqual(failingParams(queryError({ ...goodQuery, maxIterations })), ["maxIterations"]);
  }
});

test("§2 missing required query parameters: one detail per failing parameter, naming it", () => {
  const error = queryError({});
  assert.deepEqual(error.details, [
    { param: "expectedPrice", message: "is required" },
    { param: "collateralAvailable", message: "is required" },
  ]);
  assert.deepEqual(error.toBody(), { error: "Invalid query parameters", details: error.details });
});

test("§2 a parameter given twice (an array) is rejected", () => {
  const error = queryError({ ...goodQuery, expectedPrice: ["0.5", "0.5"], maxIterations: ["3", "4"] });
  assert.deepEqual(error.details, [
    { param: "expectedPrice", message: "must be given only once" },
    { param: "maxIterations", message: "must be given only once" },
  ]);
  assert.deepEqual(failingParams(pathError({ ...goodParams, marketId: ["1", "1"] })), ["marketId"]);
});

test("§2 any parameter longer than 100 characters is rejected without parsing; 100 is still parsed", () => {
  const long = `0.${"0".repeat(99)}`; // 101 characters, would be a valid zero
  assert.equal(long.length, 101);
  assert.deepEqual(queryError({ ...goodQuery, expectedPrice: long }).details, [
    { param: "expectedPrice", message: "must be at most 100 characters" },
  ]);
  assert.equal(parsedRequest(goodParams, { ...goodQuery, expectedPrice: long.slice(0, 100) }).expectedPrice, 0n);
  assert.deepEqual(failingParams(queryError({ ...goodQuery, collateralAvailable: "1".repeat(101) })), ["collateralAvailable"]);
  assert.deepEqual(failingParams(pathError({ ...goodParams, marketId: "0".repeat(101) })), ["marketId"]);
});

test("§2 1e999999999 answers at once (rejected as too large)", () => {
  const started = process.hrtime.bigint();
  assert.deepEqual(failingParams(queryError({ ...goodQuery, expectedPrice: "1e999999999" })), ["expectedPrice"]);
  assert.ok(process.hrtime.bigint() - started < 100_000_000n);
});

test("§2 unknown query parameters are ignored, even given twice", () => {
  const request = parsedRequest(goodParams, { ...goodQuery, foo: "bar", other: ["1", "2"], long: "x".repeat(500) });
  assert.equal(request.expectedPrice, D18 / 2n);
});

test("§7 trace is true only for the exact string \"true\"; any other value is ignored", () => {
  assert.equal(parsedRequest(goodParams, { ...goodQuery, trace: "true" }).trace, true);
  for (const trace of ["TRUE", "True", "1", "yes", "", "false", " true"]) {
    assert.equal(parsedRequest(goodParams, { ...goodQuery, trace }).trace, false, trace);
  }
});

test("§2 marketAddress: all-lower, all-upper and valid EIP-55 mixed case are accepted, returned checksummed", () => {
  for (const marketAddress of [CHECKSUMMED, LOWER, UPPER]) {
    assert.equal(parsedRequest({ ...goodParams, marketAddress }, goodQuery).marketAddress, CHECKSUMMED);
  }
});

test("§2 marketAddress: a mixed case that fails the EIP-55 checksum is rejected", () => {
  const bad = CHECKSUMMED.replace("aA", "Aa"); // swap the case of two letters
  assert.notEqual(bad, CHECKSUMMED);
  assert.deepEqual(pathError({ ...goodParams, marketAddress: bad }).details, [
    {
      param: "marketAddress",
      message: `mixed-case address fails the EIP-55 checksum; if its digits are right, its checksummed form is ${CHECKSUMMED}`,
    },
  ]);
});

test("§2 marketAddress: other lengths, non-hex, a missing or upper-case 0x prefix are rejected", () => {
  for (const marketAddress of [LOWER.slice(0, 41), `${LOWER}0`, `0x${"g".repeat(40)}`, LOWER.slice(2), `0X${LOWER.slice(2)}`, "", ` ${LOWER}`]) {
    const result = parseMarketAddress(marketAddress);
    assert.ok(!result.ok, marketAddress);
    assert.match(result.error, /0x followed by 40 hexadecimal digits/);
  }
});

test("§2 chainId: 1 .. 2^53-1; marketId: 0 .. 2^256-1", () => {
  assert.equal(parsedRequest({ ...goodParams, marketId: "0" }, goodQuery).marketId, 0n);
  assert.equal(parsedRequest({ ...goodParams, marketId: maxUint256.toString() }, goodQuery).marketId, maxUint256);
  assert.deepEqual(failingParams(pathError({ ...goodParams, chainId: "0" })), ["chainId"]);
  assert.deepEqual(failingParams(pathError({ ...goodParams, chainId: "9007199254740992" })), ["chainId"]);
  assert.deepEqual(failingParams(pathError({ ...goodParams, marketId: (maxUint256 + 1n).toString() })), ["marketId"]);
  assert.deepEqual(failingParams(pathError({ ...goodParams, marketId: "-1" })), ["marketId"]);
});

test("§3.1 path format wins over query format: a request bad in both gets \"Invalid path parameters\"", () => {
  const error = parseError({ chainId: "x", marketAddress: "0x1", marketId: "1" }, { expectedPrice: "NaN" });
  assert.equal(error.message, MESSAGES.invalidPath);
  assert.deepEqual(failingParams(error), ["chainId", "marketAddress"]);
});

test("§6 details: one entry per failing parameter, in a stable order", () => {
  const error = queryError({ expectedPrice: ".5", collateralAvailable: "0", maxIterations: "11", priceLimit: "-1" });
  assert.deepEqual(failingParams(error), ["expectedPrice", "collateralAvailable", "maxIterations", "priceLimit"]);
});

test("§2 trace follows the known-parameter rules: given twice or longer than 100 characters is rejected", () => {
  assert.deepEqual(queryError({ ...goodQuery, trace: ["true", "true"] }).details, [{ param: "trace", message: "must be given only once" }]);
  assert.deepEqual(failingParams(queryError({ ...goodQuery, trace: "t".repeat(101) })), ["trace"]);
});

const TAKER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

test("§12 taker, slippageBps, deadlineSeconds: read when given, never filled in when not (a request without them is as before)", () => {
  const plain = parsedRequest(goodParams, goodQuery);
  for (const name of ["taker", "slippageBps", "deadlineSeconds"]) assert.equal(name in plain, false, name);
  const full = parsedRequest(goodParams, { ...goodQuery, taker: TAKER.toLowerCase(), slippageBps: "0", deadlineSeconds: "86400" });
  assert.equal(full.taker, TAKER, "returned checksummed");
  assert.equal(full.slippageBps, 0);
  assert.equal(full.deadlineSeconds, 86400);
  assert.equal(parsedRequest(goodParams, { ...goodQuery, slippageBps: "05000", deadlineSeconds: "1" }).slippageBps, 5000);
});

test("§12 every wrong taker, slippageBps, deadlineSeconds is a 400 naming it", () => {
  const wrong: Record<string, string[]> = {
    taker: ["", "0x", "0x123", TAKER.slice(0, -1), `${TAKER}0`, TAKER.replace("0x", "0X"), TAKER.replace("C8", "c8"), "70997970C51812dc3A010C7d01b50e0d17dc79C8", `0x${"g".repeat(40)}`],
    slippageBps: ["", "-1", "5001", "0.5", "1e2", "0x10", " 50", "50%"],
    deadlineSeconds: ["", "0", "-1", "86401", "1.5", "3e2", "300s"],
  };
  for (const [param, values] of Object.entries(wrong)) {
    for (const value of values) {
      const error = queryError({ ...goodQuery, [param]: value });
      assert.deepEqual(error.details.map((detail) => detail.param), [param], `${param}=${JSON.stringify(value)}`);
    }
    const twice = queryError({ ...goodQuery, [param]: ["1", "2"] });
    assert.deepEqual(twice.details.map((detail) => detail.param), [param]);
  }
  const checksum = queryError({ ...goodQuery, taker: TAKER.replace("C8", "c8") });
  assert.match(checksum.details[0]!.message, /EIP-55 checksum; if its digits are right, its checksummed form is 0x70997970C51812dc3A010C7d01b50e0d17dc79C8/);
  const all = queryError({ ...goodQuery, taker: "x", slippageBps: "x", deadlineSeconds: "x" });
  assert.deepEqual(all.details.map((detail) => detail.param), ["taker", "slippageBps", "deadlineSeconds"]);
});
