// Semantics §4b on fake markets: pure functions of the size whose largest feasible size is known by a brute
// force, so every rule of the exact search is checked where the demo chain cannot reach (sizes to 2^255-1,
// markets that revert above any size, plateaus of priceAfter).
import { maxInt256 } from "viem";
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { interpolate } from "../../src/quote/exactMath.ts";
import { DUST } from "../../src/quote/exactState.ts";
import { runExactSearch, type ExactSearchInput } from "../../src/quote/exactSearch.ts";
import { classifyQuote, type Evaluation } from "../../src/quote/search.ts";

const D18 = 10n ** 18n;

/**
 * A LONG over one liquidity range, at price 1: 1/sqrt(price) falls by size / L, so priceAfter = L^2 / (L - size)^2
 * (D18, rounded up); collateral is the size plus 1%; at 9/10 of L the price reaches 100, the range's end, and the
 * quote reverts.
 */
function market(liquidity: bigint) {
  return (size: bigint): Evaluation => {
    if (size * 10n >= liquidity * 9n) {
      // As the real group and the stand-in do, the revert names the range's sqrt prices (X96): [1, 100].
      const errorArgs = { poolPrice: "0", minPrice: (2n ** 96n).toString(), maxPrice: (10n * 2n ** 96n).toString() };
      return { kind: "reverted", data: "0x", errorName: "PoolPriceOutOfRange", errorArgs };
    }
    const rest = liquidity - size;
    const priceAfter = (D18 * liquidity * liquidity + rest * rest - 1n) / (rest * rest);
    return { kind: "quoted", quote: { requiredCollateral: size + size / 100n, fillPrice: priceAfter, priceAfter } };
  };
}

function input(overrides: Partial<ExactSearchInput>): ExactSearchInput {
  return {
    direction: "LONG",
    cap: D18,
    currentPrice: D18,
    expectedPrice: 2n * D18,
    priceLimit: D18,
    collateralAvailable: D18,
    worstPrice: 0n,
    feeRate: 0n,
    liquidity: 0n,
    maxCandidates: 32,
    ...overrides,
  };
}

/** The largest size >= DUST whose classification is feasible, by binary search over the monotone fake. */
function bruteForce(search: ExactSearchInput, evaluate: (size: bigint) => Evaluation): bigint | undefined {
  const tooLarge = (size: bigint) => {
    const evaluation = evaluate(size);
    if (evaluation.kind === "reverted") return true;
    const outcome = classifyQuote(search, evaluation.quote);
    return outcome !== "feasible" && outcome !== "short-of-limit";
  };
  if (tooLarge(DUST)) return undefined;
  let low = DUST;
  let high = maxInt256 + 1n;
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    if (tooLarge(mid)) high = mid;
    else low = mid;
  }
  const evaluation = evaluate(low);
  return evaluation.kind === "quoted" && classifyQuote(search, evaluation.quote) === "feasible" ? low : undefined;
}

test("§4b random markets and requests: a proven answer is the brute-force maximum; no 400 while a size fits", async () => {
  let exact = 0;
  let found = 0;
  await fc.assert(
    fc.asyncProperty(
      // One unit of priceAfter (10^-18) spans about L / (2 * 10^18) wei: up to 10^6 wei here, as on the demo
      // markets' deepest pool at its largest sizes.
      fc.bigInt({ min: 10n ** 12n, max: 10n ** 24n }),
      fc.bigInt({ min: 1n, max: 10n ** 30n }),
      fc.bigInt({ min: 1n, max: 10n ** 20n }),
      fc.bigInt({ min: 0n, max: 10n ** 18n }),
      async (liquidity, budget, above, limitAbove) => {
        const search = input({ expectedPrice: D18 + above, priceLimit: D18 + limitAbove, collateralAvailable: budget, cap: budget });
        const evaluate = market(liquidity);
        const truth = bruteForce(search, evaluate);
        const result = await runExactSearch(search, evaluate);
        assert.ok(result.iterations <= 32);
        if (result.kind === "found") {
          found++;
          assert.ok(truth !== undefined && result.size <= truth);
          if (result.exact) {
            exact++;
            assert.equal(result.size, truth);
            const last = result.trace.map((entry) => entry.size);
            assert.ok(last.includes(truth) && last.includes(truth + 1n), "the answer and one wei more were quoted");
          } else {
            assert.ok(result.upperBound !== undefined && result.upperBound > truth);
          }
        } else {
          assert.equal(truth, undefined, `no size answered although ${truth} fits`);
        }
      },
    ),
    { numRuns: 400, seed: 3 },
  );
  assert.ok(found >= 100, `found ${found}`);
  assert.ok(exact >= 0.95 * found, `exact on ${exact} of ${found}`);
});

test("§4b DUST itself too large: 400, proven with one candidate", async () => {
  const result = await runExactSearch(input({ cap: 0n, collateralAvailable: DUST - 1n }), market(10n ** 30n));
  assert.equal(result.kind, "no-valid-size");
  assert.deepEqual(result.trace.map((entry) => entry.size), [DUST]);
  assert.ok("proven" in result && result.proven);
});

test("§4b a market that fills every size: 2^255-1, exact (nothing above it can be quoted)", async () => {
  const everything = (): Evaluation => ({ kind: "quoted", quote: { requiredCollateral: 1n, fillPrice: D18 + 1n, priceAfter: D18 + 1n } });
  const result = await runExactSearch(input({ cap: maxInt256 }), everything);
  assert.ok(result.kind === "found");
  assert.equal(result.size, maxInt256);
  assert.equal(result.exact, true);
});

test("§4b a SHORT quotes negative sizes and answers the largest magnitude", async () => {
  const short = (size: bigint): Evaluation => {
    const magnitude = -size;
    const priceAfter = D18 - magnitude / 10n ** 6n;
    return { kind: "quoted", quote: { requiredCollateral: magnitude, fillPrice: priceAfter, priceAfter } };
  };
  // One unit of price spans 10^6 wei here, a plateau only a bisection resolves: more candidates than the default.
  const result = await runExactSearch(
    input({ direction: "SHORT", expectedPrice: D18 / 2n, priceLimit: D18, collateralAvailable: 10n ** 40n, maxCandidates: 64 }),
    short,
  );
  assert.ok(result.kind === "found" && result.exact);
  assert.ok(result.trace.every((entry) => entry.size < 0n));
  // priceAfter = 1 - floor(m / 10^6) / 10^18 stays at 0.5 up to m = (0.5 * 10^18 + 1) * 10^6 - 1.
  assert.equal(result.size, (D18 / 2n + 1n) * 10n ** 6n - 1n);
});

test("interpolate rounds up (the first size at or past the target) and refuses what the line moves away from", () => {
  assert.equal(interpolate(0n, 0n, 10n, 100n, 55n), 6n);
  assert.equal(interpolate(0n, 0n, 10n, 100n, 50n), 5n);
  assert.equal(interpolate(0n, 100n, 10n, 0n, 45n), 6n);
  assert.equal(interpolate(0n, 0n, 10n, 100n, -1n), undefined);
  assert.equal(interpolate(0n, 5n, 10n, 5n, 6n), undefined);
  assert.equal(interpolate(0n, 0n, 10n, 1n, 10n ** 80n), maxInt256);
});
