// Semantics §13's numbers, pure, against the rules written with rational arithmetic here: collateralDeltaLimit (the
// signed delta in token units, towards +infinity: the tightest limit the group's signed comparison passes), the
// modify's limit with slippage (a deposit may grow within the budget, a withdrawal shrink, never 0), the range, the
// shift that changes no comparison, and a new size past int256 never quoted.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { maxInt256, maxUint256 } from "viem";
import { isAgainst, planPositionSearch, positionOffset, shiftedBudget, shiftedDelta, targetOf } from "../../src/quote/positionSearch.ts";
import { toTokenUnits } from "../../src/quote/quoteAnswer.ts";
import { positionDeltaLimit } from "../../src/quote/trade.ts";

const delta = fc.oneof(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: -100n, max: 100n }));
const decimals = fc.integer({ min: 0, max: 18 });

describe("a held position's limits", () => {
  test("collateralDeltaLimit: the delta in token units rounded towards +infinity, the group's comparison passes it and refuses one unit less", () => {
    fc.assert(
      fc.property(delta, decimals, (value, d) => {
        const scale = 10n ** BigInt(18 - d);
        const limit = toTokenUnits(value, d);
        // modifyTraderPosition reverts when delta > limit * scale.
        assert.ok(!(value > limit * scale), "passes");
        assert.ok(value > (limit - 1n) * scale, "one unit less is refused");
      }),
      { numRuns: 2000, seed: 13 },
    );
  });

  test("the trade's limit: a deposit's raised by the slippage within the budget, a withdrawal's accepting the slippage less back, never 0", () => {
    fc.assert(
      fc.property(delta, decimals, fc.integer({ min: 0, max: 5000 }), fc.bigInt({ min: 0n, max: 10n ** 30n }), (value, d, slippageBps, budget) => {
        const quoted = toTokenUnits(value, d);
        const limit = positionDeltaLimit({ collateralDeltaLimit: quoted, collateralAvailable: budget, collateralDecimals: d, slippageBps });
        assert.notEqual(limit, 0n, "never no limit");
        assert.ok(limit >= quoted, "never tighter than the answer needs");
        if (quoted > 0n) {
          const budgetUnits = budget / 10n ** BigInt(18 - d);
          // At most the slippage's room (rounded up), and past the budget only as far as the answer itself needs.
          assert.ok(limit * 10000n <= quoted * BigInt(10000 + slippageBps) + 9999n);
          assert.ok(limit <= (budgetUnits > quoted ? budgetUnits : quoted));
        } else {
          const back = -limit;
          // The least accepted back: (10000 - slippage) / 10000 of what the answer returns, rounded down (or a unit in).
          if (limit < 0n) assert.equal(back, (-quoted * BigInt(10000 - slippageBps)) / 10000n);
          else assert.equal(limit, 1n);
        }
      }),
      { numRuns: 2000, seed: 14 },
    );
  });
});

describe("a held position's search", () => {
  test("the range adds |current| against the position only; the shift changes no comparison; a size past int256 is none", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.bigInt({ min: 10n ** 15n, max: 10n ** 21n }),
        fc.boolean(),
        delta,
        (current, budget, price, long, quoted) => {
          const direction = long ? "LONG" : "SHORT";
          const offset = positionOffset(current, direction, 10n ** 16n, 98n * 10n ** 16n);
          const plan = planPositionSearch({ expectedPrice: long ? price + 1n : price - 1n, collateralAvailable: budget, maxIterations: 10 } as never, price, { current, offset });
          assert.ok(plan.ok);
          const against = long ? current < 0n : current > 0n;
          assert.equal(isAgainst(current, direction), against);
          assert.equal(plan.value.cap, (budget * 10n ** 18n) / price + (against ? (current < 0n ? -current : current) : 0n));
          assert.equal(plan.value.direction, direction);
          assert.equal(shiftedDelta(quoted, offset) > shiftedBudget(budget, offset), quoted > budget);
        },
      ),
      { numRuns: 1000, seed: 15 },
    );
    assert.equal(targetOf(maxInt256, 1n), undefined);
    assert.equal(targetOf(-maxInt256, -1n), undefined);
    assert.equal(targetOf(5n, -10n), -5n);
    assert.equal(shiftedBudget(maxUint256, 2n), maxUint256, "saturated");
  });
});
