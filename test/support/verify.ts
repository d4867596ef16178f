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

type Reason = "expectedPrice" | "collateral" | "liquidity" | "fits";

/**
 * An independent check of a 200's limitedBy (semantics §5), against the chain at the answer's block: the size it
 * names (with search=exact, maxSize + 1, and "search" when not proven; for the bisection, every size its trace
 * tried, classified here again) is quoted directly and must break the rule limitedBy names, by §4's order. The
 * body must carry its trace (trace=true).
 */
export async function verifyLimitedBy(chain: EmbeddedChain, marketGroup: Address, marketId: bigint, query: QuoteQuery & { search?: string }, body: any): Promise<void> {
  const blockNumber = BigInt(body.blockNumber);
  const currentPrice = d18(body.currentPrice);
  const expectedPrice = d18(query.expectedPrice);
  const collateral = BigInt(query.collateralAvailable);
  const long = expectedPrice > currentPrice;
  const magnitude = (size: bigint) => (size < 0n ? -size : size);
  const reasonAt = async (size: bigint): Promise<Reason> => {
    let result: readonly [bigint, bigint, bigint];
    try {
      ({ result } = await chain.publicClient.simulateContract({
        address: marketGroup,
        abi: marketGroupAbi,
        functionName: "quoteCreateTraderPosition",
        args: [marketId, long ? size : -size],
        blockNumber,
      }));
    } catch {
      return "liquidity";
    }
    const [required, , after] = result;
    if (required > collateral) return "collateral";
    if (long ? after > expectedPrice : after < expectedPrice) return "expectedPrice";
    return "fits";
  };
  const maxSize = magnitude(BigInt(body.maxSize));
  assert.equal(await reasonAt(maxSize), "fits", "the quote at maxSize fits");
  if (query.search === "exact") {
    // Semantics §5: an unproven answer says the search ended; a proven one, what maxSize + 1 breaks.
    if (body.exact === false) {
      assert.equal(body.limitedBy, "search", "an exact search that ran out of candidates before its proof");
      return;
    }
    assert.equal(await reasonAt(maxSize + 1n), body.limitedBy, `limitedBy is what the quote at ${maxSize + 1n} breaks`);
    return;
  }
  assert.ok(Array.isArray(body.trace), "the bisection's answer carries its trace");
  const tried = await Promise.all(body.trace.map(async (entry: { size: string }) => {
    const size = magnitude(BigInt(entry.size));
    return { size, reason: await reasonAt(size) };
  }));
  const tooLarge = tried.filter((t) => t.reason !== "fits" && t.size > maxSize).sort((a, b) => (a.size < b.size ? -1 : 1));
  if (tooLarge.length > 0) {
    assert.equal(body.limitedBy, tooLarge[0]!.reason, `limitedBy is what the smallest size tried above maxSize, ${tooLarge[0]!.size}, breaks`);
    return;
  }
  // Nothing tried above maxSize is too large: every step went up towards the top of [0, cap], which the budget sets.
  assert.equal(body.limitedBy, "collateral", "nothing tried above maxSize is too large: the budget sets the range's top");
}

/** What one quote of `size` (unsigned) does at a block, by §4's checks, read by the test's own client. */
export type Classified = "fits" | "too-large";

/**
 * The largest size >= DUST that is not too large (reverted, over budget, or past expectedPrice) at `blockNumber`,
 * found by the test alone: doubling from DUST, then halving the bracket, every candidate quoted by the test's own
 * client. Feasible sizes above DUST form one interval (semantics §4b), so this is the maximum the exact search must
 * answer (none where DUST itself is too large).
 */
export async function bruteForceMaximum(
  chain: EmbeddedChain,
  marketGroup: Address,
  marketId: bigint,
  direction: "LONG" | "SHORT",
  expectedPrice: bigint,
  budget: bigint,
  blockNumber: bigint,
): Promise<bigint | undefined> {
  const DUST = 10n ** 6n;
  const tooLarge = async (size: bigint) => {
    try {
      const { result } = await chain.publicClient.simulateContract({
        address: marketGroup,
        abi: marketGroupAbi,
        functionName: "quoteCreateTraderPosition",
        args: [marketId, direction === "LONG" ? size : -size],
        blockNumber,
      });
      const [required, , after] = result;
      return required > budget || (direction === "LONG" ? after > expectedPrice : after < expectedPrice);
    } catch {
      return true;
    }
  };
  if (await tooLarge(DUST)) return undefined;
  let low = DUST;
  let high = DUST * 2n;
  const MAX = (1n << 255n) - 1n;
  while (!(await tooLarge(high))) {
    low = high;
    if (high === MAX) return MAX;
    high = high * 2n > MAX ? MAX : high * 2n;
  }
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (await tooLarge(middle)) high = middle;
    else low = middle;
  }
  return low;
}
