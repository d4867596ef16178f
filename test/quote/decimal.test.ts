import { maxUint256 } from "viem";
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseChainId, parseMarketId, parseMaxIterations, parseWei } from "../../src/quote/decimal.ts";
import { D18, formatD18, parseDecimalD18, type Parsed } from "../../src/quote/fixedPoint.ts";

function value<T>(parsed: Parsed<T>): T {
  assert.ok(parsed.ok, `expected a value, got: ${parsed.ok ? "" : parsed.error}`);
  return parsed.value;
}

function rejection<T>(parsed: Parsed<T>): string {
  assert.ok(!parsed.ok, `expected a rejection, got ${parsed.ok ? String(parsed.value) : ""}`);
  return parsed.error;
}

const accepted: [string, bigint][] = [
  ["1", D18],
  ["1.0", D18],
  ["0.0000009", 9n * 10n ** 11n],
  ["1e-7", 10n ** 11n],
  ["2.5E3", 2500n * D18],
  ["1e+3", 1000n * D18],
  ["1E3", 1000n * D18],
  ["0.50000000000000000000", 5n * 10n ** 17n],
  ["0.000000000000000001", 1n],
  ["1e-18", 1n],
  ["05", 5n * D18],
  ["0000.5", 5n * 10n ** 17n],
  ["1e0003", 1000n * D18],
  ["-1", -D18],
  ["-0.25", -25n * 10n ** 16n],
  ["0", 0n],
  ["-0", 0n],
  ["0e999999999", 0n],
  ["100e-20", 1n],
  ["1.5e-17", 15n],
];

for (const [text, expected] of accepted) {
  test(`§2 expectedPrice/priceLimit: "${text}" is accepted exactly as ${expected} D18`, () => {
    assert.equal(value(parseDecimalD18(text)), expected);
  });
}

const rejectedFormat = [".5", "5.", "+1", "0x10", " 1", "1 ", "NaN", "Infinity", "-Infinity", "", "1e", "1e+", "--1", "1.2.3", "1_000", "١"];
for (const text of rejectedFormat) {
  test(`§2 expectedPrice/priceLimit: ${JSON.stringify(text)} is rejected as not a decimal number`, () => {
    assert.match(rejection(parseDecimalD18(text)), /decimal number/);
  });
}

test("§2 expectedPrice: a value finer than 10^-18 is rejected (1e-19)", () => {
  assert.match(rejection(parseDecimalD18("1e-19")), /whole number of 10\^-18/);
  assert.match(rejection(parseDecimalD18("0.0000000000000000001")), /whole number of 10\^-18/);
  assert.match(rejection(parseDecimalD18("1.0000000000000000001")), /whole number of 10\^-18/);
});

test("§2 expectedPrice: trailing zeros do not count toward the 10^-18 granularity", () => {
  assert.equal(value(parseDecimalD18("1.000000000000000001000000")), D18 + 1n);
});

test("§2 expectedPrice: at most (2^256-1)/10^18; one unit more is too large", () => {
  const max = maxUint256;
  assert.equal(value(parseDecimalD18(formatD18(max))), max);
  assert.equal(value(parseDecimalD18(`-${formatD18(max)}`)), -max);
  assert.match(rejection(parseDecimalD18(formatD18(max + 1n))), /at most/);
  assert.match(rejection(parseDecimalD18("1e78")), /at most/);
  assert.equal(value(parseDecimalD18("1e59")), 10n ** 77n);
});

test("§2 any parameter: 1e999999999 (and larger exponents) answers at once without expansion", () => {
  const started = process.hrtime.bigint();
  assert.match(rejection(parseDecimalD18("1e999999999")), /at most/);
  assert.match(rejection(parseDecimalD18("1e-999999999")), /whole number/);
  assert.match(rejection(parseDecimalD18(`1e${"9".repeat(90)}`)), /at most/);
  assert.match(rejection(parseDecimalD18(`1e-${"9".repeat(90)}`)), /whole number/);
  assert.equal(value(parseDecimalD18(`0.0e${"9".repeat(90)}`)), 0n);
  const elapsedMs = Number((process.hrtime.bigint() - started) / 1_000_000n);
  assert.ok(elapsedMs < 100, `took ${elapsedMs} ms`);
});

test("§5 formatD18: the shortest exact decimal, no exponent, no trailing zeros", () => {
  assert.equal(formatD18(1000n * D18), "1000");
  assert.equal(formatD18(D18 / 2n), "0.5");
  assert.equal(formatD18(1n), "0.000000000000000001");
  assert.equal(formatD18(0n), "0");
  assert.equal(formatD18(-D18 - D18 / 4n), "-1.25");
  assert.equal(formatD18(123n * 10n ** 15n), "0.123");
});

test("§2/§5 property: parseDecimalD18(formatD18(x)) === x for every D18 value within range", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -maxUint256, max: maxUint256 }), (x) => {
      const parsed = parseDecimalD18(formatD18(x));
      return parsed.ok && parsed.value === x;
    }),
    { numRuns: 2000 },
  );
});

test("§2 property: parsing a random decimal string equals exact rational arithmetic", () => {
  const digits = (min: number, max: number) =>
    fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((d) => d.join(""));
  const decimalText = fc.record({
    negative: fc.boolean(),
    whole: digits(1, 30),
    fraction: fc.option(digits(1, 30), { nil: undefined }),
    exponent: fc.option(fc.record({ e: fc.constantFrom("e", "E"), sign: fc.constantFrom("", "+", "-"), digits: digits(1, 3) }), {
      nil: undefined,
    }),
  });
  fc.assert(
    fc.property(decimalText, (d) => {
      const text =
        (d.negative ? "-" : "") +
        d.whole +
        (d.fraction === undefined ? "" : `.${d.fraction}`) +
        (d.exponent === undefined ? "" : `${d.exponent.e}${d.exponent.sign}${d.exponent.digits}`);
      // Independent oracle: the value as numerator / denominator, scaled by 10^18.
      let numerator = BigInt(d.whole + (d.fraction ?? "")) * D18;
      let denominator = 10n ** BigInt(d.fraction?.length ?? 0);
      if (d.exponent !== undefined) {
        const power = 10n ** BigInt(d.exponent.digits);
        if (d.exponent.sign === "-") denominator *= power;
        else numerator *= power;
      }
      const parsed = parseDecimalD18(text);
      if (numerator % denominator !== 0n) return !parsed.ok && /whole number/.test(parsed.error);
      const magnitude = numerator / denominator;
      if (magnitude > maxUint256) return !parsed.ok && /at most/.test(parsed.error);
      return parsed.ok && parsed.value === (d.negative ? -magnitude : magnitude);
    }),
    { numRuns: 3000 },
  );
});

test("§2 collateralAvailable: decimal integer 1 .. 2^256-1 wei, leading zeros allowed", () => {
  assert.equal(value(parseWei("1")), 1n);
  assert.equal(value(parseWei("0001000")), 1000n);
  assert.equal(value(parseWei(maxUint256.toString())), maxUint256);
  assert.equal(value(parseWei(`000${maxUint256}`)), maxUint256);
});

test("§2 collateralAvailable: zero, negative, fraction, exponent, hex, too large are rejected", () => {
  for (const text of ["0", "000", "-1", "1.5", "1.0", "1e3", "0x10", "+1", " 1", "", (maxUint256 + 1n).toString(), "9".repeat(100)]) {
    assert.match(rejection(parseWei(text)), /1 to 2\^256-1/, text);
  }
});

test("§2 collateralAvailable with a fraction: the rule, then how that amount is written in wei", () => {
  assert.equal(rejection(parseWei("1.5")), "must be a decimal integer from 1 to 2^256-1 (wei): amounts are in wei (18-decimal units), so 1.5 is written 1500000000000000000");
  assert.match(rejection(parseWei(".000000000000000001")), /so \.000000000000000001 is written 1$/);
  assert.match(rejection(parseWei("1000.25")), /written 1000250000000000000000$/);
  for (const text of ["0.0", "1.1234567890123456789", "1.", "1e3"]) assert.doesNotMatch(rejection(parseWei(text)), /written/, text);
});

test("§2 chainId: decimal integer 1 .. 2^53-1, returned as a number", () => {
  assert.equal(value(parseChainId("031337")), 31337);
  assert.equal(value(parseChainId("1")), 1);
  assert.equal(value(parseChainId(String(Number.MAX_SAFE_INTEGER))), Number.MAX_SAFE_INTEGER);
  for (const text of ["0", "-1", "9007199254740992", "1.0", "1e3", "0x1", "", "abc"]) {
    assert.match(rejection(parseChainId(text)), /1 to 2\^53-1/, text);
  }
});

test("§2 marketId: decimal integer 0 .. 2^256-1", () => {
  assert.equal(value(parseMarketId("0")), 0n);
  assert.equal(value(parseMarketId("07")), 7n);
  assert.equal(value(parseMarketId(maxUint256.toString())), maxUint256);
  for (const text of ["-1", "1.5", "1e2", "0x7", "", (maxUint256 + 1n).toString()]) {
    assert.match(rejection(parseMarketId(text)), /0 to 2\^256-1/, text);
  }
});

test("§2 maxIterations: decimal integer 1 .. 10", () => {
  assert.equal(value(parseMaxIterations("1")), 1);
  assert.equal(value(parseMaxIterations("10")), 10);
  assert.equal(value(parseMaxIterations("010")), 10);
  for (const text of ["0", "11", "-1", "5.0", "1e1", "", "ten", "00000000000000000000000000011"]) {
    assert.match(rejection(parseMaxIterations(text)), /1 to 10/, text);
  }
});
