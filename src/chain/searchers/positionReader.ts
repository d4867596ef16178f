// What a held position's quote asks of the chain (semantics §13), whichever way the answers are fetched: the position's
// reads, then, once it is known, its market's reads and the quotes of its modification sent from its owner. The
// sequential strategy makes each call when asked; the single-call strategy has made them all on chain already, as the
// owner (contracts/PositionSearcher.sol at the owner's address), and replays them, continuing the search there.
import type { Address, Hex } from "viem";
import type { PositionRequest } from "../../quote/positionRequest.ts";
import { positionOffset, targetOf } from "../../quote/positionSearch.ts";
import { ethCall, type BlockPin, type RawCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import type { Facts, PositionFacts } from "./factsDecoder.ts";
import { interpretMarket } from "./marketGroup.ts";
import type { MarketReader } from "./marketReader.ts";
import { encodeGetPosition, encodeGetPositionSize, encodeOwnerOf, encodeQuoteModify } from "./positionGroup.ts";
import { encodePositionSearch, runPositionSearcher } from "./positionSearcher.ts";
import { marketCalls } from "./sequential.ts";
import { replaying, SearcherMismatchError, type SearchLimits } from "./singleCall.ts";
import type { Resume } from "./searcher.ts";

/** The position once read: its id, its market and its signed size. */
export type HeldAt = { readonly positionId: bigint; readonly marketId: bigint; readonly current: bigint };

export interface PositionReader {
  readonly block: BlockPin;
  /** ERC-721 `ownerOf(positionId)`. */
  owner(): Promise<RawCall>;
  /** `getPosition(positionId)`: its kind and market. */
  position(): Promise<RawCall>;
  /** `getPositionSize(positionId)`. */
  positionSize(): Promise<RawCall>;
  /** The market's reads and the quotes of the position's modifications (a candidate is the signed trade), from `owner`. */
  heldBy(held: HeldAt, owner: Address): MarketReader;
}

/** A candidate whose new size is past int256: not quoted, a revert without data (as the searcher records it). */
const PAST_INT256: RawCall = { success: false, data: "0x" };

/** One candidate quoted alone, from the owner: quoteModifyTraderPosition at current + the trade. */
function quoteFromOwner(endpoint: ChainEndpoint, group: Address, held: HeldAt, owner: Address, signedTrade: bigint, context: ReadContext): Promise<RawCall> {
  const target = targetOf(held.current, signedTrade);
  if (target === undefined) return Promise.resolve(PAST_INT256);
  context.signal?.throwIfAborted();
  return ethCall(endpoint, { from: owner, to: group, data: encodeQuoteModify(held.positionId, target), ...context });
}

/**
 * One eth_call per read and per candidate, each pinned to the quote's block; the candidates from the owner. `ownerRead`:
 * the owner as already read at this block, not asked again.
 */
export function sequentialPositionReader(
  endpoint: ChainEndpoint,
  request: Pick<PositionRequest, "marketAddress" | "positionId">,
  context: ReadContext,
  ownerRead?: RawCall,
): PositionReader {
  const { marketAddress, positionId } = request;
  const call = (data: Hex) => {
    context.signal?.throwIfAborted();
    return ethCall(endpoint, { to: marketAddress, data, ...context });
  };
  return {
    block: context.block,
    owner: () => (ownerRead === undefined ? call(encodeOwnerOf(positionId)) : Promise.resolve(ownerRead)),
    position: () => call(encodeGetPosition(positionId)),
    positionSize: () => call(encodeGetPositionSize(positionId)),
    heldBy(held, owner) {
      const market = marketCalls(endpoint, { marketAddress, marketId: held.marketId }, context);
      return { ...market, quote: (signedTrade) => quoteFromOwner(endpoint, marketAddress, held, owner, signedTrade, context) };
    },
  };
}

/** The searcher's answer as `ranAs`: the position's reads and the search's facts. */
export type PositionSearched = { readonly ranAs: Address; readonly position: PositionFacts; readonly facts: Facts };

/**
 * The reads the position searcher made as `searched.ranAs`, replayed; its search continued from where a call stopped
 * (as that owner, at the same block), or a candidate quoted alone from the owner.
 */
export function replayingPositionReader(
  endpoint: ChainEndpoint,
  request: PositionRequest,
  search: SearchLimits,
  context: ReadContext,
  searched: PositionSearched,
): PositionReader {
  const { position, facts, ranAs } = searched;
  return {
    block: context.block,
    owner: async () => position.owner,
    position: async () => position.position,
    positionSize: async () => position.size,
    heldBy(held, owner) {
      if (owner !== ranAs) throw new SearcherMismatchError(`the position searcher ran as ${ranAs}, but ${owner} owns the position`);
      const resume = async (at: Resume) => {
        const data = encodePositionSearch(request, search.exactMaxCandidates, { held: { ...held, offset: offsetAt(held, facts, at.isLong, context.block) }, at });
        return (await runPositionSearcher(endpoint, owner, data, search.gasCap, context)).facts;
      };
      const alone = (signedTrade: bigint) => quoteFromOwner(endpoint, request.marketAddress, held, owner, signedTrade, context);
      return replaying({ endpoint, context, expectedPrice: request.expectedPrice, resume, alone }, facts);
    },
  };
}

/** The position's offset as the first call computed it, from the market it read (a resumed call is given it). */
function offsetAt(held: HeldAt, facts: Facts, isLong: boolean, block: BlockPin): bigint {
  const market = interpretMarket(facts.market, held.marketId, block);
  if (market.kind === "missing") throw new SearcherMismatchError("a position's search resumes without the market the searcher read");
  return positionOffset(held.current, isLong ? "LONG" : "SHORT", market.minPrice, market.maxPrice);
}
