// An independent check of a 200 answer: the test reads the chain itself (its own viem client, not the
// service's HTTP chain layer) at the answer's block and checks the interface's rules on the quote at maxSize.
import assert from "node:assert/strict";
import { formatUnits, parseUnits, type Address } from "viem";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import type { EmbeddedChain } from "../../src/devchain/chain.ts";

export interface QuoteQuery {
  expectedPrice: string;
  collateralAvailable: string;
  priceLimit?: string;
  maxIterations?: string;
}

/**
 * The test's own reading of a decimal with an optional exponent: the exponent moves the decimal point in the
 * text, then viem's parseUnits reads the plain decimal. A different route from the service's parser.
 */
export function d18(text: string): bigint {
  const [mantissa = "", exponentText = "0"] = text.toLowerCase().split("e");
  const negative = mantissa.startsWith("-");
  const [whole = "", fraction = ""] = mantissa.replace("-", "").split(".");
  const exponent = Number(exponentText);
  const digits = whole + fraction;
  let point = whole.length + exponent;
  const padded = point < 0 ? "0".repeat(-point) + digits : digits.padEnd(point, "0");
  point = Math.max(point, 0);
  const plain = `${padded.slice(0, point) || "0"}.${padded.slice(point) || "0"}`;
  return (negative ? -1n : 1n) * parseUnits(plain, 18);
}

/** viem's formatUnits is the oracle of the canonical decimal form (semantics §5). */
export const canonical = (d18: bigint) => formatUnits(d18, 18);

export async function verifyAnswer(chain: EmbeddedChain, marketGroup: Address, marketId: bigint, query: QuoteQuery, body: any) {
  const blockNumber = BigInt(body.blockNumber);
  const read = <T>(functionName: "getReferencePrice", args: readonly [bigint]) =>
    chain.publicClient.readContract({ address: marketGroup, abi: marketGroupAbi, functionName, args, blockNumber }) as Promise<T>;
  const currentPrice = await read<bigint>("getReferencePrice", [marketId]);
  const expectedPrice = d18(query.expectedPrice);
  const collateral = BigInt(query.collateralAvailable);
  const priceLimit = query.priceLimit === undefined ? currentPrice : d18(query.priceLimit);
  const direction = expectedPrice > currentPrice ? "LONG" : "SHORT";

  assert.equal(body.direction, direction, "§3.8 direction from expectedPrice vs the current price at the answer's block");
  assert.equal(body.currentPrice, canonical(currentPrice), "§5 currentPrice is the price at blockNumber, canonical");
  assert.equal(body.expectedPrice, canonical(expectedPrice), "§5 expectedPrice echoed in canonical form");
  assert.equal(body.collateralAvailable, collateral.toString(), "§5 collateralAvailable echoed");
  const maxSize = BigInt(body.maxSize);
  assert.ok(direction === "LONG" ? maxSize > 0n : maxSize < 0n, "§5 maxSize positive for LONG, negative for SHORT");
  const cap = (collateral * 10n ** 18n) / currentPrice;
  assert.ok((maxSize < 0n ? -maxSize : maxSize) <= cap, "§4 maxSize within [0, cap]");
  assert.ok(body.iterations >= 1 && body.iterations <= Number(query.maxIterations ?? "10"), "§4 at most maxIterations candidates");

  const { result } = await chain.publicClient.simulateContract({
    address: marketGroup,
    abi: marketGroupAbi,
    functionName: "quoteCreateTraderPosition",
    args: [marketId, maxSize],
    blockNumber,
  });
  const [requiredCollateral, fillPrice, priceAfter] = result;
  assert.equal(body.requiredCollateral, requiredCollateral.toString(), "§5 requiredCollateral is the quote at maxSize");
  assert.equal(body.fillPrice, canonical(fillPrice), "§5 fillPrice is the quote at maxSize");
  assert.equal(body.priceAfter, canonical(priceAfter), "§5 priceAfter is the quote at maxSize");
  assert.ok(requiredCollateral <= collateral, "the quote at maxSize fits the budget");
  if (direction === "LONG") {
    assert.ok(priceAfter > priceLimit, "LONG: the price after is strictly above priceLimit");
    assert.ok(priceAfter <= expectedPrice, "LONG: the price after is at most expectedPrice");
  } else {
    assert.ok(priceAfter < priceLimit, "SHORT: the price after is strictly below priceLimit");
    assert.ok(priceAfter >= expectedPrice, "SHORT: the price after is at least expectedPrice");
  }
  return { currentPrice, blockNumber, maxSize };
}
