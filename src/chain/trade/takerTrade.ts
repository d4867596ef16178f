// A trade's reads and simulation at the answer's block (semantics §12), in one request where the node runs
// eth_simulateV1: one simulated block of [allowance, balanceOf, the trade, approve, the trade], all from the taker.
// A reverted call leaves no state, so the first trade is the one the taker sends when its allowance suffices (no
// approval), and the second, after the approval, when the first failed for want of it. Where the allowance is below
// the limit but covers what the trade pulls, the first trade succeeds as the approved one would (only the allowance
// left differs): it is the answer, and the second (after it) is not. On a node without eth_simulateV1: the reads,
// then the transaction alone by eth_call, and not run where an approval must come first.
import type { Address, Hex } from "viem";
import { needsApproval, type TakerFacts, type TradeSimulation } from "../../quote/trade.ts";
import { ethCall, type RawCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { decodeRevert } from "../searchers/marketGroup.ts";
import { SimulateUnsupportedError, simulateBlock, type SimulatedCall } from "../rpc/simulate.ts";
import { encodeAllowance, encodeBalanceOf, interpretAmount } from "./trading.ts";

/** The trade as the taker would send it, and the time of the block it is simulated in. */
export interface TradeCalls {
  readonly taker: Address;
  readonly marketAddress: Address;
  /** The market group's collateral token; none when the group names none (then no approval, no balance). */
  readonly token: Address | undefined;
  readonly limit: bigint;
  readonly tradeData: Hex;
  readonly approveData: Hex;
  /** The simulated block's timestamp (the next block's plausible time). */
  readonly time: bigint;
}

/** What the chain said: the taker's allowance and balance, and the trade's outcome. */
export type TradeRun = { readonly facts: TakerFacts; readonly simulation: TradeSimulation };

export const NOT_RUN_BEFORE_APPROVAL =
  "the node has no eth_simulateV1, and an eth_call cannot run the approval before the transaction: send the approval, then ask again";

/** The trade's reads and simulation at the context's block, in the way the endpoint takes. */
export async function runTrade(endpoint: ChainEndpoint, calls: TradeCalls, context: ReadContext): Promise<TradeRun> {
  if (endpoint.state.simulates !== false) {
    try {
      return await bySimulation(endpoint, calls, context);
    } catch (error) {
      if (!(error instanceof SimulateUnsupportedError)) throw error;
    }
  }
  return byCalls(endpoint, calls, context);
}

async function bySimulation(endpoint: ChainEndpoint, calls: TradeCalls, context: ReadContext): Promise<TradeRun> {
  const { taker, marketAddress, token, tradeData } = calls;
  const trade = { from: taker, to: marketAddress, data: tradeData };
  const block =
    token === undefined
      ? [trade]
      : [
          { from: taker, to: token, data: encodeAllowance(taker, marketAddress) },
          { from: taker, to: token, data: encodeBalanceOf(taker) },
          trade,
          { from: taker, to: token, data: calls.approveData },
          trade,
        ];
  const results = await simulateBlock(endpoint, block, calls.time, context);
  if (token === undefined) return { facts: undefined, simulation: simulationOf(results[0]!) };
  const [allowanceRead, balanceRead, first, approve, afterApproval] = results as [SimulatedCall, SimulatedCall, SimulatedCall, SimulatedCall, SimulatedCall];
  const facts = takerFacts(token, allowanceRead, balanceRead);
  if (facts === undefined || !needsApproval(facts.allowance, calls.limit) || first.success) return { facts, simulation: simulationOf(first) };
  // The approval's own failure comes first (a token that refuses it), else the trade after it.
  return { facts, simulation: simulationOf(approve.success ? afterApproval : approve) };
}

async function byCalls(endpoint: ChainEndpoint, calls: TradeCalls, context: ReadContext): Promise<TradeRun> {
  const { taker, marketAddress, token } = calls;
  const read = (to: Address, data: Hex) => {
    context.signal?.throwIfAborted();
    return ethCall(endpoint, { to, data, ...context });
  };
  let facts: TakerFacts;
  if (token !== undefined) {
    const [allowanceRead, balanceRead] = await Promise.all([read(token, encodeAllowance(taker, marketAddress)), read(token, encodeBalanceOf(taker))]);
    facts = takerFacts(token, allowanceRead, balanceRead);
    if (facts !== undefined && needsApproval(facts.allowance, calls.limit)) return { facts, simulation: { ok: null, reason: NOT_RUN_BEFORE_APPROVAL } };
  }
  context.signal?.throwIfAborted();
  const trade = await ethCall(endpoint, { from: taker, to: marketAddress, data: calls.tradeData, ...context });
  return { facts, simulation: trade.success ? { ok: true } : revertOf(trade.data) };
}

/** The taker's allowance and balance; none when the token does not answer them as an ERC-20 does. */
function takerFacts(token: Address, allowanceRead: RawCall, balanceRead: RawCall): TakerFacts {
  const allowance = interpretAmount(allowanceRead);
  const balance = interpretAmount(balanceRead);
  return allowance === undefined || balance === undefined ? undefined : { token, allowance, balance };
}

function simulationOf(call: SimulatedCall): TradeSimulation {
  return call.success ? { ok: true, gas: call.gasUsed.toString() } : revertOf(call.data);
}

/** A revert as `trace` says a candidate's: the decoded error's name and its arguments, or the raw data. */
function revertOf(data: Hex): TradeSimulation {
  const decoded = decodeRevert(data);
  if (decoded === undefined) return { ok: false, revert: data };
  return Object.keys(decoded.args).length > 0 ? { ok: false, revert: decoded.name, revertArgs: decoded.args } : { ok: false, revert: decoded.name };
}
