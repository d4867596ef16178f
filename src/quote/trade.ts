// Semantics §12, from an answer to the trade that follows it: the collateral limit, the deadline, the time the trade
// is simulated at, whether an approval comes first, and the `trade` of the answer built from what the chain said.
// Pure: the calls' data are encoded, and the chain asked, by the layers below (src/chain/trade/trading.ts) and above.
import type { Address, Hex } from "viem";
import { DEFAULT_DEADLINE_SECONDS, DEFAULT_SLIPPAGE_BPS } from "./limits.ts";
import type { QuoteRequest } from "./quoteRequest.ts";

/** A request's trade parameters, defaults filled in; none without `taker` (the answer then has no trade). */
export type TradeParams = { readonly taker: Address; readonly slippageBps: number; readonly deadlineSeconds: number };

export function tradeParams(request: Pick<QuoteRequest, "taker" | "slippageBps" | "deadlineSeconds">): TradeParams | undefined {
  if (request.taker === undefined) return undefined;
  return {
    taker: request.taker,
    slippageBps: request.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
    deadlineSeconds: request.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS,
  };
}

const BPS = 10_000n;

/** Rounded down: `collateralAvailable` (18-decimal wei) in the token's own units, the most of the budget a limit may take. */
export function budgetInTokenUnitsRoundedDown(collateralAvailable: bigint, decimals: number): bigint {
  return decimals >= 18 ? collateralAvailable * 10n ** BigInt(decimals - 18) : collateralAvailable / 10n ** BigInt(18 - decimals);
}

/** Rounded up: maxCollateral × (10000 + slippageBps) / 10000, room for the price to move. */
export function maxCollateralWithSlippageRoundedUp(maxCollateral: bigint, slippageBps: number): bigint {
  const scaled = maxCollateral * (BPS + BigInt(slippageBps));
  return (scaled + BPS - 1n) / BPS;
}

/**
 * The trade's collateral limit in token units (semantics §12): min(ceil(maxCollateral × (10000 + slippageBps) /
 * 10000), max(maxCollateral, floor(collateralAvailable / 10^(18-d)))): room for the price to move, never past the
 * budget, never below what the answer needs; and never 0, which the market group reads as "no limit" (then 1).
 */
export function collateralLimit(input: {
  readonly maxCollateral: bigint;
  readonly collateralAvailable: bigint;
  readonly collateralDecimals: number;
  readonly slippageBps: number;
}): bigint {
  const { maxCollateral, collateralAvailable, collateralDecimals, slippageBps } = input;
  const withSlippage = maxCollateralWithSlippageRoundedUp(maxCollateral, slippageBps);
  const budget = budgetInTokenUnitsRoundedDown(collateralAvailable, collateralDecimals);
  const ceiling = budget > maxCollateral ? budget : maxCollateral;
  const limit = withSlippage < ceiling ? withSlippage : ceiling;
  return limit === 0n ? 1n : limit;
}

/**
 * Rounded down: a token amount less slippageBps, the least accepted: a liquidity mint's minimum tokens (semantics
 * §14), a withdrawal's collateral back (§13).
 */
export function amountLessSlippage(amount: bigint, slippageBps: number): bigint {
  return (amount * (BPS - BigInt(slippageBps))) / BPS;
}

/**
 * A held position's modify limit in token units (semantics §13), from the answer's collateralDeltaLimit: moved by
 * slippageBps against the trader. A deposit may grow, as a new position's limit (rounded up, never past the budget in
 * token units, never below the answer's); a withdrawal may shrink (the least accepted back, |limit| × (10000 −
 * slippageBps) / 10000 rounded down). Never 0, which the market group reads as "no limit": a limit that would be 0 is 1
 * (a deposit of at most one unit).
 */
export function positionDeltaLimit(input: {
  readonly collateralDeltaLimit: bigint;
  readonly collateralAvailable: bigint;
  readonly collateralDecimals: number;
  readonly slippageBps: number;
}): bigint {
  const { collateralDeltaLimit: limit, slippageBps } = input;
  if (limit > 0n) return collateralLimit({ ...input, maxCollateral: limit });
  const back = amountLessSlippage(-limit, slippageBps);
  return back === 0n ? 1n : -back;
}

/** Exact: the answer block's timestamp + deadlineSeconds (unix seconds), so a deadline is never before its block. */
export function deadlineAfter(blockTimestamp: bigint, deadlineSeconds: number): bigint {
  return blockTimestamp + BigInt(deadlineSeconds);
}

/**
 * Rounded down to whole seconds: the time the next block would plausibly get, which the trade is simulated at: the
 * answer block's timestamp plus the time since the service first saw that block as the head, at least 1 s (a block
 * is later than its parent). A head seen long ago gives a late time, where a deadline may have passed: the
 * simulation then says so (TransactionExpired) rather than hide it.
 */
export function nextBlockTime(blockTimestamp: bigint, msSinceSeen: number): bigint {
  const seconds = BigInt(Math.floor(Math.max(0, msSinceSeen) / 1000));
  return blockTimestamp + (seconds > 1n ? seconds : 1n);
}

/** Semantics §12: an approval comes first when the taker's allowance to the market group is below the limit. */
export function needsApproval(allowance: bigint, limit: bigint): boolean {
  return allowance < limit;
}

/** A transaction as the taker signs it: no value, the data encoded. */
export type TradeTransaction = { from: Address; to: Address; data: Hex; value: "0" };

/**
 * The trade run from the taker at the answer's block (after the approval where one is needed): it succeeds (with
 * the gas it used, where the node ran eth_simulateV1), it reverts (decoded as `trace` decodes a candidate's
 * revert), or it was not run (why).
 */
export type TradeSimulation =
  | { ok: true; gas?: string }
  | { ok: false; revert: string; revertArgs?: Record<string, string> }
  | { ok: null; reason: string };

/** One call of EIP-5792's `wallet_sendCalls`: what a wallet signs, no value. */
export type TradeCall = { to: Address; data: Hex };

export type TradeBody = {
  collateralLimit: string;
  deadline: string;
  transaction: TradeTransaction;
  approval: { token: Address; spender: Address; allowance: string; transaction: TradeTransaction } | null;
  balance: { token: Address; available: string; needed: string } | null;
  calls: TradeCall[];
  simulation: TradeSimulation;
};

/** What the chain said of the taker at the answer's block: its allowance and balance (none: no token to read). */
export type TakerFacts = { readonly token: Address; readonly allowance: bigint; readonly balance: bigint } | undefined;

const transaction = (from: Address, to: Address, data: Hex): TradeTransaction => ({ from, to, data, value: "0" });
const call = ({ to, data }: TradeTransaction): TradeCall => ({ to, data });

/** The answer's `trade`, its fields in the order of the document (semantics §12). */
export function tradeBody(input: {
  readonly taker: Address;
  readonly marketAddress: Address;
  readonly limit: bigint;
  readonly deadline: bigint;
  readonly tradeData: Hex;
  readonly approveData: Hex;
  readonly facts: TakerFacts;
  readonly simulation: TradeSimulation;
}): TradeBody {
  const { taker, marketAddress, limit, facts } = input;
  const approval =
    facts !== undefined && needsApproval(facts.allowance, limit)
      ? { token: facts.token, spender: marketAddress, allowance: facts.allowance.toString(), transaction: transaction(taker, facts.token, input.approveData) }
      : null;
  const trade = transaction(taker, marketAddress, input.tradeData);
  return {
    collateralLimit: limit.toString(),
    deadline: input.deadline.toString(),
    transaction: trade,
    approval,
    // A withdrawal needs none of the taker's tokens.
    balance: facts === undefined ? null : { token: facts.token, available: facts.balance.toString(), needed: (limit > 0n ? limit : 0n).toString() },
    // In the order they must be mined: the approval (where one is needed) before the trade that spends it.
    calls: approval === null ? [call(trade)] : [call(approval.transaction), call(trade)],
    simulation: input.simulation,
  };
}
