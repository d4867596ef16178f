// What a new liquidity position's quote asks of the chain (semantics §14), whichever way the answers are fetched: the
// market's reads, the pool's sqrt price and spacing, the group's quote and its mint, and each candidate's tokens and
// mint. The sequential strategy makes each call when asked; the single-call strategy has made them on chain already
// (contracts/LiquiditySearcher.sol) and replays them, checking that the service asks for exactly what the searcher
// quoted; a candidate past the recorded ones (the call stopped to stay within its gas) is quoted by plain calls at
// the same block.
import type { Hex } from "viem";
import { ethCall, type BlockPin, type RawCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { encodeGetSqrtPrice, encodeGroupQuote, encodeQuoteMint, encodeTickSpacing, encodeTokensOf, interpretTokens, LIQUIDITY_QUOTE_SENDER, type MintPrices } from "./liquidityGroup.ts";
import type { LiquidityFacts } from "./liquiditySearcher.ts";
import type { MarketReader } from "./marketReader.ts";
import { marketCalls } from "./sequential.ts";
import { SearcherMismatchError } from "./singleCall.ts";

/** A candidate's answers: its tokens' read, and its mint's simulation when the read gave tokens. */
export type CandidateCalls = { readonly tokens: RawCall; readonly mint: RawCall | undefined };

export interface LiquidityReader extends Pick<MarketReader, "block" | "market" | "referencePrice" | "collateralGroup" | "collateralDecimals"> {
  /** The group's `getSqrtPriceX96(marketId)`. */
  sqrtPrice(): Promise<RawCall>;
  /** The pool's `tickSpacing()`. */
  spacing(pool: Hex): Promise<RawCall>;
  /** `quoteLiquidityPositionTokens` of the budget in the range. */
  groupQuote(at: MintPrices, budget: bigint): Promise<RawCall>;
  /** The mint of the group's quote's tokens, with no collateral. */
  groupMint(at: MintPrices, amount0: bigint, amount1: bigint): Promise<RawCall>;
  /** The candidate `liquidity`: its tokens, then their mint with no collateral. */
  candidate(at: MintPrices, liquidity: bigint): Promise<CandidateCalls>;
  /** Called after the search: a replaying reader checks that every recorded candidate was asked for. */
  done?(): void;
}

type Market = { readonly marketAddress: Hex; readonly marketId: bigint };

/** One candidate by plain calls at the context's block: its tokens, then their mint from any account. */
async function candidateCalls(endpoint: ChainEndpoint, market: Market, context: ReadContext, at: MintPrices, liquidity: bigint): Promise<CandidateCalls> {
  context.signal?.throwIfAborted();
  const tokens = await ethCall(endpoint, { to: market.marketAddress, data: encodeTokensOf(at, liquidity), ...context });
  const amounts = interpretTokens(tokens);
  if (amounts === undefined) return { tokens, mint: undefined };
  context.signal?.throwIfAborted();
  const mint = await ethCall(endpoint, { from: LIQUIDITY_QUOTE_SENDER, to: market.marketAddress, data: encodeQuoteMint(at, amounts.amount0, amounts.amount1), ...context });
  return { tokens, mint };
}

/** One eth_call per read, and two per candidate, each pinned to the quote's block. */
export function sequentialLiquidityReader(endpoint: ChainEndpoint, market: Market, context: ReadContext): LiquidityReader {
  const calls = marketCalls(endpoint, market, context);
  const call = (data: Hex, to: Hex = market.marketAddress) => {
    context.signal?.throwIfAborted();
    return ethCall(endpoint, { from: LIQUIDITY_QUOTE_SENDER, to, data, ...context });
  };
  return {
    block: context.block,
    market: calls.market,
    referencePrice: calls.referencePrice,
    collateralGroup: calls.collateralGroup,
    collateralDecimals: calls.collateralDecimals,
    sqrtPrice: () => call(encodeGetSqrtPrice(market.marketId)),
    spacing: (pool) => call(encodeTickSpacing(), pool),
    groupQuote: (at, budget) => call(encodeGroupQuote(at, budget)),
    groupMint: (at, amount0, amount1) => call(encodeQuoteMint(at, amount0, amount1)),
    candidate: (at, liquidity) => candidateCalls(endpoint, market, context, at, liquidity),
  };
}

const recorded = (answer: RawCall | undefined, what: string): RawCall => {
  if (answer === undefined) throw new SearcherMismatchError(`the liquidity searcher did not read ${what}`);
  return answer;
};

/** The searcher's facts replayed in order; candidates past them quoted by plain calls at the same block. */
export function replayingLiquidityReader(endpoint: ChainEndpoint, market: Market, context: ReadContext, facts: LiquidityFacts): LiquidityReader {
  let next = 0;
  return {
    block: context.block,
    market: async () => facts.market,
    referencePrice: async () => recorded(facts.price, "the price"),
    collateralGroup: async () => recorded(facts.collateralGroup, "the market group's collateral"),
    collateralDecimals: async () => recorded(facts.collateralDecimals, "the collateral's decimals"),
    sqrtPrice: async () => recorded(facts.sqrtPrice, "the pool's sqrt price"),
    spacing: async () => recorded(facts.spacing, "the pool's tick spacing"),
    groupQuote: async () => recorded(facts.groupQuote, "the group's quote"),
    groupMint: async () => recorded(facts.groupMint, "the mint of the group's quote"),
    async candidate(at, liquidity) {
      const candidate = facts.candidates[next];
      if (candidate === undefined) return candidateCalls(endpoint, market, context, at, liquidity);
      if (candidate.liquidity !== liquidity) throw new SearcherMismatchError(`candidate ${next}: the liquidity searcher quoted ${candidate.liquidity}, the service asks ${liquidity}`);
      next++;
      return { tokens: candidate.tokens, mint: candidate.mint };
    },
    done() {
      if (next !== facts.candidates.length) throw new SearcherMismatchError(`the liquidity searcher quoted ${facts.candidates.length - next} candidates more than the service asked for`);
    },
  };
}
