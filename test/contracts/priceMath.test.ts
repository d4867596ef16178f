// The Solidity's pool-price conversions agree with src/quote/priceMath.ts under its names: the market group's own
// (contracts/libraries/PoolPrices.sol: a sqrt price's price, rounded down; a price's sqrt price, down and up) and the
// price edge's limits (contracts/PriceEdge.sol, planned alike by src/chain/searchers/priceEdge.ts). 10,000 random
// inputs each at every magnitude, within the Solidity's domain: sqrt prices up to MAX_SQRT_RATIO, prices below
// 2^64 * 10^18 (the price edge's bound, where price * 2^192 still fits 256 bits). test/quote/priceMath.test.ts proves
// the TypeScript's roundings against exact rationals.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { priceLimit } from "../../src/chain/searchers/priceEdge.ts";
import { priceMathHarnessAbi, priceMathHarnessBytecode } from "../../src/generated/contracts.ts";
import {
  highestSqrtX96PricedAtMost,
  MIN_SQRT_RATIO,
  priceD18FromSqrtX96Down,
  sqrtX96FromPriceD18Down,
  sqrtX96FromPriceD18Up,
} from "../../src/quote/priceMath.ts";
import { prices, sqrtPrices } from "../support/priceSamples.ts";
import { pureHarness } from "../support/pureHarness.ts";

const onChain = pureHarness(priceMathHarnessAbi, priceMathHarnessBytecode);

const SAMPLES = 10_000;
/** Inputs per harness call: the answer comes back as a deployless call's code, at most 24,576 bytes (EIP-170). */
const CHUNK = 500;
/** The price edge's bound: no edge is asked from 2^64 * 10^18 on. */
const MAX_TARGET = (1n << 64n) * 10n ** 18n;

/** The harness's answers to `inputs`, asked CHUNK at a time. */
async function askAll(functionName: string, inputs: readonly bigint[], ...rest: unknown[]): Promise<bigint[]> {
  const answers: bigint[] = [];
  for (let i = 0; i < inputs.length; i += CHUNK) answers.push(...((await onChain(functionName, [inputs.slice(i, i + CHUNK), ...rest])) as readonly bigint[]));
  return answers;
}

/** The first input on which the two answers differ, for the message; none when they agree throughout. */
function firstDifference(inputs: readonly bigint[], solidity: readonly bigint[], typescript: (input: bigint) => bigint): string | undefined {
  const at = inputs.findIndex((input, i) => solidity[i] !== typescript(input));
  return at < 0 ? undefined : `at ${inputs[at]}: Solidity ${solidity[at]}, TypeScript ${typescript(inputs[at]!)}`;
}

describe("the Solidity's pool prices agree with priceMath.ts's named roundings", () => {
  const sqrtSamples = fc.sample(sqrtPrices(), { numRuns: SAMPLES, seed: 71 });
  const priceSamples = fc.sample(prices(MAX_TARGET), { numRuns: SAMPLES, seed: 72 });

  test("the samples reach every magnitude of both domains", () => {
    assert.equal(sqrtSamples.length, SAMPLES);
    assert.ok(priceSamples.every((p) => p < MAX_TARGET));
    const digitsOf = (values: readonly bigint[]) => new Set(values.map((v) => v.toString().length));
    // Sqrt prices of 1 to 49 digits (MAX_SQRT_RATIO has 49); prices of 1 to 38 (2^64 * 10^18 has 38).
    assert.equal(digitsOf(sqrtSamples).size, 49);
    assert.equal(digitsOf(priceSamples).size, 38);
  });

  test("PoolPrices.priceD18FromSqrtPriceX96 is priceD18FromSqrtX96Down on 10,000 sqrt prices over MIN_SQRT_RATIO..MAX_SQRT_RATIO", async () => {
    assert.equal(firstDifference(sqrtSamples, await askAll("pricesOf", sqrtSamples), priceD18FromSqrtX96Down), undefined);
  });

  test("PoolPrices.sqrtPriceX96FromPriceD18 is sqrtX96FromPriceD18Down (Floor) and sqrtX96FromPriceD18Up (Ceil) on 10,000 prices each", async () => {
    assert.equal(firstDifference(priceSamples, await askAll("sqrtPricesOf", priceSamples, false), sqrtX96FromPriceD18Down), undefined);
    assert.equal(firstDifference(priceSamples, await askAll("sqrtPricesOf", priceSamples, true), sqrtX96FromPriceD18Up), undefined);
  });

  test("PriceEdge's limits are priceEdge.ts's, a LONG's highestSqrtX96PricedAtMost and a SHORT's sqrtX96FromPriceD18Up above v3's least limit, on 10,000 prices each", async () => {
    const long = await askAll("edgeLimits", priceSamples, true);
    assert.equal(firstDifference(priceSamples, long, (p) => priceLimit(true, p)), undefined);
    assert.equal(firstDifference(priceSamples, long, highestSqrtX96PricedAtMost), undefined);
    const short = await askAll("edgeLimits", priceSamples, false);
    assert.equal(firstDifference(priceSamples, short, (p) => priceLimit(false, p)), undefined);
    const leastLimit = MIN_SQRT_RATIO + 1n;
    assert.equal(firstDifference(priceSamples, short, (p) => (sqrtX96FromPriceD18Up(p) > leastLimit ? sqrtX96FromPriceD18Up(p) : leastLimit)), undefined);
    // Both sides of v3's least limit were asked.
    assert.ok(short.filter((limit) => limit === leastLimit).length >= 100 && short.filter((limit) => limit > leastLimit).length >= 5000);
  });
});
