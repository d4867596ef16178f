// Semantics §12: the `trade` of an answer asked with `taker`, made once the answer is known (kept, or searched) at its
// block: the collateral limit and the deadline from the answer and the block, then the taker's reads and the trade's
// simulation in one more request, through the chain's endpoints in order. The search and its kept answer are the same
// request's without `taker`; identical trades in flight at one block share one simulation. A trade is not kept: the
// time it is simulated at moves with the clock (the next block's plausible time), so the next request asks again.
import { getAddress, type Hex } from "viem";
import type { BlockHeader } from "../chain/head/follower.ts";
import { interpretCollateralAsset } from "../chain/searchers/marketGroup.ts";
import { marketCalls } from "../chain/searchers/sequential.ts";
import { runTrade } from "../chain/trade/takerTrade.ts";
import { encodeApprove, encodeCreateLiquidityPosition, encodeCreateTraderPosition, encodeModifyTraderPosition, type LiquidityMint } from "../chain/trade/trading.ts";
import { isLiquidityRequest, isPositionRequest, type AnyQuoteRequest } from "../quote/positionRequest.ts";
import type { LiquidityResponseBody } from "../quote/liquidityAnswer.ts";
import type { PositionResponseBody } from "../quote/positionAnswer.ts";
import type { QuoteResponseBody } from "../quote/quoteAnswer.ts";
import { takerNotOwner } from "../quote/quoteErrors.ts";
import { amountLessSlippage, collateralLimit, deadlineAfter, nextBlockTime, positionDeltaLimit, tradeBody, tradeParams, type TradeBody, type TradeParams } from "../quote/trade.ts";
import type { AnswerBody } from "./answerAtBlock.ts";
import { waitOutLag } from "./atHead.ts";
import { createCoalescer, requestKey } from "./coalescer.ts";
import { firstAnswer } from "./fallback.ts";
import type { ChainQuote } from "./searches.ts";
import type { Progress } from "./unavailable.ts";

/**
 * How many market groups' collateral tokens (per block) are remembered from the searches that read them, the oldest
 * forgotten first: a trade follows its search at the same block, so only the blocks quotes are in flight at matter
 * (every search notes one, and on a chain of 50 ms blocks thousands would otherwise stay for nothing; a token
 * forgotten costs a trade one eth_call).
 */
const KEPT_ASSETS = 64;

export class Trades {
  private readonly coalescer = createCoalescer<TradeBody>();
  /** Per chain, block hash and market group: its collateral token as a search read it (null: the group names none). */
  private readonly assets = new Map<string, Hex | null>();

  /** A search read the group's collateral token at the block: a trade at that block needs no read of its own. */
  noteAsset(chainId: number, blockHash: Hex, marketAddress: Hex, asset: Hex | null | undefined): void {
    if (asset === undefined) return;
    if (this.assets.size >= KEPT_ASSETS) this.assets.delete(this.assets.keys().next().value!);
    this.assets.set(assetKey(chainId, blockHash, marketAddress), asset);
  }

  /**
   * `body` with its trade at `head` when the request has a taker (else `body` as it is); undefined when it must be
   * asked again at the chain's head (an endpoint lagged, or the block was replaced meanwhile).
   */
  async withTrade(quote: ChainQuote, head: BlockHeader, body: AnswerBody, signal: AbortSignal, attempt: number, progress: Progress): Promise<AnswerBody | undefined> {
    const params = tradeParams(quote.request);
    if (params === undefined) return body;
    // Semantics §13: only the owner can modify a position; the answer names who owns it at its block.
    if ("owner" in body && params.taker !== body.owner) throw takerNotOwner(BigInt(body.positionId), body.owner);
    try {
      const trade = await this.coalescer.run(`${head.hash}\n${requestKey(quote.request)}`, (shared) => this.tradeAt(quote, head, body, params, shared), signal);
      return quote.follower.isReplaced(head.hash) ? undefined : { ...body, trade };
    } catch (error) {
      await waitOutLag(error, quote.follower, attempt, signal, progress);
      return undefined;
    }
  }

  private async tradeAt(quote: ChainQuote, head: BlockHeader, body: AnswerBody, params: TradeParams, signal: AbortSignal): Promise<TradeBody> {
    const { request, chain, follower } = quote;
    const asset = await this.assetAt(quote, head, signal);
    const token = asset === null ? undefined : getAddress(asset);
    const deadline = deadlineAfter(head.timestamp, params.deadlineSeconds);
    const { limit, tradeData } = transactionOf(request, body, params, deadline);
    const approveData = encodeApprove(request.marketAddress, limit > 0n ? limit : 0n);
    const calls = { taker: params.taker, marketAddress: request.marketAddress, token, limit, tradeData, approveData, time: nextBlockTime(head.timestamp, follower.headAge(head.hash) ?? 0) };
    const context = { block: head, signal, tally: quote.record };
    const run = await firstAnswer(chain.endpoints, (endpoint) => runTrade(endpoint, calls, context), signal, quote.warn);
    return tradeBody({ ...calls, deadline, facts: run.facts, simulation: run.simulation });
  }

  /** The group's collateral token at `head`: as the search read it, else read now (an answer another replica searched). */
  private async assetAt(quote: ChainQuote, head: BlockHeader, signal: AbortSignal): Promise<Hex | null> {
    const { chain, request } = quote;
    const key = assetKey(chain.chainId, head.hash, request.marketAddress);
    const kept = this.assets.get(key);
    if (kept !== undefined) return kept;
    const context = { block: head, signal, tally: quote.record };
    const market = { marketAddress: request.marketAddress, marketId: 0n };
    const raw = await firstAnswer(chain.endpoints, (endpoint) => marketCalls(endpoint, market, context).collateralGroup(), signal, quote.warn);
    const asset = interpretCollateralAsset(raw) ?? null;
    this.noteAsset(chain.chainId, head.hash, request.marketAddress, asset);
    return asset;
  }
}

/**
 * The transaction of an answer and its collateral limit in token units: createTraderPosition of maxSize for a new
 * position (§12), modifyTraderPosition to targetSize for a held one (§13).
 */
function transactionOf(request: AnyQuoteRequest, body: AnswerBody, params: TradeParams, deadline: bigint): { limit: bigint; tradeData: Hex } {
  const budget = { collateralAvailable: request.collateralAvailable, collateralDecimals: body.collateralDecimals, slippageBps: params.slippageBps };
  if (isPositionRequest(request)) {
    const held = body as PositionResponseBody;
    const limit = positionDeltaLimit({ ...budget, collateralDeltaLimit: BigInt(held.collateralDeltaLimit) });
    const modification = { positionId: request.positionId, size: BigInt(held.targetSize), deltaCollateralLimit: limit, deadline };
    return { limit, tradeData: encodeModifyTraderPosition(modification) };
  }
  const limit = collateralLimit({ ...budget, maxCollateral: BigInt((body as QuoteResponseBody | LiquidityResponseBody).maxCollateral) });
  if (isLiquidityRequest(request)) return { limit, tradeData: encodeCreateLiquidityPosition(liquidityMintOf(body as LiquidityResponseBody, request.marketId, limit, params.slippageBps, deadline)) };
  return { limit, tradeData: encodeCreateTraderPosition({ marketId: request.marketId, size: BigInt((body as QuoteResponseBody).maxSize), maxCollateral: limit, deadline }) };
}

/** Semantics §14: the answer's tokens in its range, the collateral limit, the minimums less slippage, the deadline. */
function liquidityMintOf(body: LiquidityResponseBody, marketId: bigint, collateralAmount: bigint, slippageBps: number, deadline: bigint): LiquidityMint {
  const [amountBaseToken, amountQuoteToken] = [BigInt(body.amountBaseToken), BigInt(body.amountQuoteToken)];
  return {
    marketId,
    amountBaseToken,
    amountQuoteToken,
    collateralAmount,
    lowerTick: body.lowerTick,
    upperTick: body.upperTick,
    minAmountBaseToken: amountLessSlippage(amountBaseToken, slippageBps),
    minAmountQuoteToken: amountLessSlippage(amountQuoteToken, slippageBps),
    deadline,
  };
}

const assetKey = (chainId: number, blockHash: Hex, marketAddress: Hex) => `${chainId}\n${blockHash}\n${marketAddress}`;
