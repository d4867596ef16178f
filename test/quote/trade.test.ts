// Semantics §12's rules of a trade, against arithmetic of their own: the collateral limit over random answers at every
// magnitude and every decimals, the deadline, the time a trade is simulated at; and the keys that keep a request
// without taker what it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { maxUint256 } from "viem";
import {
  budgetInTokenUnitsRoundedDown,
  collateralLimit,
  deadlineAfter,
  maxCollateralWithSlippageRoundedUp,
  needsApproval,
  nextBlockTime,
  tradeParams,
} from "../../src/quote/trade.ts";
import { DEFAULT_DEADLINE_SECONDS, DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS } from "../../src/quote/limits.ts";
import { quoteKey, requestKey } from "../../src/service/coalescer.ts";
import { demoRequest } from "../service/support.ts";

/** A rational number p/q, q > 0, compared by cross-multiplication only (no division anywhere). */
type Rational = { readonly p: bigint; readonly q: bigint };
const rational = (p: bigint, q = 1n): Rational => ({ p, q });
const lessOrEqual = (a: Rational, b: Rational) => a.p * b.q <= b.p * a.q;

/** The smallest integer n with n >= x, found by comparisons from a bound (x >= 0): no rounding division is used. */
function ceilOf(x: Rational): bigint {
  let low = 0n;
  let high = 1n;
  while (!lessOrEqual(x, rational(high))) high *= 2n;
  while (high - low > 1n) {
    const mid = (low + high) >> 1n;
    if (lessOrEqual(x, rational(mid))) high = mid;
    else low = mid;
  }
  return lessOrEqual(x, rational(low)) ? low : high;
}

/** The largest integer n with n <= x (x >= 0). */
function floorOf(x: Rational): bigint {
  const up = ceilOf(x);
  return lessOrEqual(rational(up), x) ? up : up - 1n;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** §12's formula, by the rationals above. */
function expectedLimit(maxCollateral: bigint, collateralAvailable: bigint, decimals: number, slippageBps: number): bigint {
  const withSlippage = ceilOf(rational(maxCollateral * BigInt(10_000 + slippageBps), 10_000n));
  const unit = rational(10n ** BigInt(Math.max(0, 18 - decimals)) , 10n ** BigInt(Math.max(0, decimals - 18)));
  const budget = floorOf({ p: collateralAvailable * unit.q, q: unit.p });
  const limit = min(withSlippage, max(maxCollateral, budget));
  return limit === 0n ? 1n : limit;
}

/** Amounts at every magnitude, edges included. */
const amount = fc.oneof(
  fc.bigInt({ min: 0n, max: 1000n }),
  fc.bigInt({ min: 0n, max: 10n ** 30n }),
  fc.bigInt({ min: 0n, max: maxUint256 / 20_000n }),
  fc.constantFrom(0n, 1n, 999_999_999_999n, 10n ** 12n, 10n ** 12n + 1n, 10n ** 18n),
);
const decimals = fc.oneof(fc.constantFrom(0, 6, 8, 18), fc.integer({ min: 0, max: 24 }));
const slippage = fc.oneof(fc.constantFrom(0, 1, DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS), fc.integer({ min: 0, max: MAX_SLIPPAGE_BPS }));

test("§12 collateralLimit is min(ceil(m·(10000+s)/10000), max(m, floor(budget/10^(18-d)))), never 0, over 5,000 random answers", () => {
  fc.assert(
    fc.property(amount, amount, decimals, slippage, (maxCollateral, collateralAvailable, d, s) => {
      const limit = collateralLimit({ maxCollateral, collateralAvailable, collateralDecimals: d, slippageBps: s });
      assert.equal(limit, expectedLimit(maxCollateral, collateralAvailable, d, s));
      assert.ok(limit >= 1n, "never 0: the market group reads 0 as no limit");
      if (maxCollateral >= 1n) assert.ok(limit >= maxCollateral, "never below what the answer needs");
    }),
    { numRuns: 5000 },
  );
});

test("§12 its roundings, each by its own inequalities: the slippage's ceil, the budget's floor", () => {
  fc.assert(
    fc.property(amount, amount, decimals, slippage, (m, a, d, s) => {
      const up = maxCollateralWithSlippageRoundedUp(m, s);
      assert.ok(up * 10_000n >= m * BigInt(10_000 + s) && (up - 1n) * 10_000n < m * BigInt(10_000 + s), `ceil of ${m}·${10_000 + s}/10000`);
      const down = budgetInTokenUnitsRoundedDown(a, d);
      if (d <= 18) {
        const unit = 10n ** BigInt(18 - d);
        assert.ok(down * unit <= a && (down + 1n) * unit > a, `floor of ${a}/10^${18 - d}`);
      } else assert.equal(down, a * 10n ** BigInt(d - 18));
    }),
    { numRuns: 3000 },
  );
});

test("§12 slippageBps=0 sends maxCollateral exactly; more slippage never lowers the limit, and the budget caps it", () => {
  fc.assert(
    fc.property(amount, amount, decimals, slippage, slippage, (m, a, d, s1, s2) => {
      const at = (s: number) => collateralLimit({ maxCollateral: m, collateralAvailable: a, collateralDecimals: d, slippageBps: s });
      assert.equal(at(0), m === 0n ? 1n : m);
      assert.ok(at(Math.min(s1, s2)) <= at(Math.max(s1, s2)));
      const budget = budgetInTokenUnitsRoundedDown(a, d);
      if (budget >= m) assert.ok(at(s1) <= max(budget, 1n), "never past the budget when the budget covers the answer");
    }),
    { numRuns: 2000 },
  );
});

test("§12 a 6-decimal group's tiny budget never carries a limit of 0", () => {
  // 10^11 wei is 0.0000001 USDC: floor 0 in token units; a requirement that small rounds up to 1 unit.
  assert.equal(collateralLimit({ maxCollateral: 1n, collateralAvailable: 10n ** 11n, collateralDecimals: 6, slippageBps: 50 }), 1n);
  assert.equal(collateralLimit({ maxCollateral: 0n, collateralAvailable: 1n, collateralDecimals: 6, slippageBps: 5000 }), 1n);
  // 1000 USDC of budget and a requirement of 10.000001 USDC: 0.5% more, rounded up, in USDC units.
  assert.equal(collateralLimit({ maxCollateral: 10_000_001n, collateralAvailable: 10n ** 21n, collateralDecimals: 6, slippageBps: 50 }), 10_050_002n);
});

test("§12 the deadline is the block's timestamp plus deadlineSeconds: never before its block", () => {
  assert.equal(deadlineAfter(1_767_225_606n, 300), 1_767_225_906n);
  fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.integer({ min: 1, max: 86_400 }), (t, s) => deadlineAfter(t, s) > t));
});

test("§12 the trade is simulated at the block's time plus the whole seconds since the head was seen, at least 1", () => {
  assert.equal(nextBlockTime(100n, 0), 101n);
  assert.equal(nextBlockTime(100n, 1999), 101n);
  assert.equal(nextBlockTime(100n, 2000), 102n);
  assert.equal(nextBlockTime(100n, 600_500), 700n);
  assert.equal(nextBlockTime(100n, -5), 101n);
});

test("§12 an approval comes first exactly when the allowance is below the limit", () => {
  assert.equal(needsApproval(0n, 1n), true);
  assert.equal(needsApproval(9n, 10n), true);
  assert.equal(needsApproval(10n, 10n), false);
  assert.equal(needsApproval(maxUint256, 10n), false);
});

const base = demoRequest("0x5FbDB2315678afecb367f032d93F642f64180aa3");
const TAKER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

test("§12 keys: without taker a request's keys are today's; the trade's parameters never change the search's key", () => {
  // The key before §12: the request without minBlock, bigints as decimal strings.
  const before = JSON.stringify({ ...base, marketId: "2", expectedPrice: (1030n * 10n ** 18n).toString(), collateralAvailable: (10n ** 21n).toString() });
  assert.equal(quoteKey(base), before);
  assert.equal(requestKey(base), before);
  assert.equal(quoteKey({ ...base, minBlock: 7n }), before);
  for (const trade of [{ slippageBps: 0 }, { deadlineSeconds: 60 }, { taker: TAKER }, { taker: TAKER, slippageBps: 10, deadlineSeconds: 9 }] as const) {
    assert.equal(quoteKey({ ...base, ...trade }), before, JSON.stringify(trade));
  }
  // Without taker the trade's parameters are ignored; with it, they are the request's (defaults filled in).
  assert.equal(requestKey({ ...base, slippageBps: 1 }), before);
  assert.notEqual(requestKey({ ...base, taker: TAKER }), before);
  assert.equal(requestKey({ ...base, taker: TAKER }), requestKey({ ...base, taker: TAKER, slippageBps: DEFAULT_SLIPPAGE_BPS, deadlineSeconds: DEFAULT_DEADLINE_SECONDS }));
  assert.notEqual(requestKey({ ...base, taker: TAKER }), requestKey({ ...base, taker: TAKER, slippageBps: 0 }));
  assert.deepEqual(tradeParams(base), undefined);
  assert.deepEqual(tradeParams({ taker: TAKER }), { taker: TAKER, slippageBps: 50, deadlineSeconds: 300 });
});
