// The liquidity search's rule is written twice: in TypeScript (src/quote/liquidityRule.ts), which decides every
// answer, and in Solidity (contracts/LiquiditySearch.sol), which lets the searcher quote the same candidates on chain.
// Both are run here on the same requirements (near-linear in L with a rounding's jitter, steep and flat, from first
// guesses near and far, budgets to 10^30) and must choose the same candidates, in order, and end on the same bracket.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { liquidityRuleHarnessAbi, liquidityRuleHarnessBytecode } from "../../src/generated/contracts.ts";
import { learn, NEW_RULE, nextLiquidity } from "../../src/quote/liquidityRule.ts";
import { pureHarness } from "../support/pureHarness.ts";

const onChain = pureHarness(liquidityRuleHarnessAbi, liquidityRuleHarnessBytecode);
const MOST = 80;

function inTypeScript(budget: bigint, first: bigint, slope: bigint, floor: bigint) {
  const need = (liquidity: bigint) => (slope * liquidity) / (1n << 64n) + floor + ((liquidity * 7919n) % 3n);
  const candidates: bigint[] = [];
  let rule = NEW_RULE;
  for (let next = nextLiquidity(rule, budget, first); next !== undefined && candidates.length < MOST; next = nextLiquidity(rule, budget, first)) {
    candidates.push(next.liquidity);
    rule = learn(next.rule, next.liquidity, need(next.liquidity), budget);
  }
  return [candidates, rule.lo, rule.hi];
}

test("the Solidity rule quotes the TypeScript rule's candidates, in order, and ends on its bracket", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.bigInt({ min: 0n, max: 10n ** 30n }),
      fc.oneof(fc.bigInt({ min: 0n, max: 1n << 110n }), fc.constant(0n)),
      fc.bigInt({ min: 1n << 50n, max: 1n << 90n }),
      fc.bigInt({ min: 0n, max: 10n }),
      async (budget, first, slope, floor) => {
        const [candidates, lo, hi] = (await onChain("run", [budget, first, slope, floor, BigInt(MOST)])) as [readonly bigint[], bigint, bigint];
        assert.deepEqual([[...candidates], lo, hi], inTypeScript(budget, first, slope, floor));
      },
    ),
    { numRuns: 150 },
  );
});
