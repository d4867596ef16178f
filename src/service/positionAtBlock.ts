// Semantics §13 over the reads of one block: the position (its owner, kind, market and size), then its market searched
// as a new position's is, each candidate the trade from the position's size, quoted from its owner. The same decisions
// whichever strategy fetched the reads.
import type { ReadContext } from "../chain/rpc/call.ts";
import type { ChainEndpoint } from "../chain/rpc/client.ts";
import { interpretModifyQuote, interpretOwner, interpretPosition, interpretPositionSize } from "../chain/searchers/positionGroup.ts";
import type { PositionReader } from "../chain/searchers/positionReader.ts";
import { SearcherUnsupportedError } from "../chain/searchers/searcher.ts";
import { SearcherMismatchError } from "../chain/searchers/singleCall.ts";
import { buildPositionAnswer } from "../quote/positionAnswer.ts";
import type { PositionRequest } from "../quote/positionRequest.ts";
import { heldQuote, planPositionSearch, positionDirection, positionOffset } from "../quote/positionSearch.ts";
import { atBlock, notTraderPosition, positionNotFound, type QuoteError } from "../quote/quoteErrors.ts";
import { err } from "../quote/result.ts";
import type { Evaluation } from "../quote/search.ts";
import { searchMarket, type Searched } from "./answerAtBlock.ts";
import type { EndpointStrategy } from "./endpointStrategy.ts";

/** The answer to `request` from `reader`'s block: the position's reads, then its market's search. */
export async function positionAnswerFrom(reader: PositionReader, request: PositionRequest, exactMaxCandidates: number): Promise<Searched> {
  const blockNumber = reader.block.number;
  const { positionId } = request;
  const stop = (error: QuoteError): Searched => ({ answer: err(error), facts: { blockNumber } });
  // Not found at this block, which the detail names (semantics §11: a newer one may hold a position minted since).
  const at = atBlock(reader.block);
  const owner = interpretOwner(await reader.owner());
  if (owner === undefined) {
    return stop(positionNotFound([{ param: "positionId", message: `position ${positionId} does not exist in this market group ${at} (ownerOf reverted): check the position id and the group's address` }]));
  }
  const position = interpretPosition(await reader.position());
  if (position.kind === "other") {
    return stop(notTraderPosition([{ param: "positionId", message: `position ${positionId} is of kind ${position.positionKind} (1: liquidity), not a trader position (2): only trader positions trade` }]));
  }
  const current = position.kind === "trade" ? interpretPositionSize(await reader.positionSize()) : undefined;
  if (position.kind === "unreadable" || current === undefined) {
    return stop(positionNotFound([{ param: "positionId", message: `getPosition or getPositionSize of position ${positionId} answered nothing readable ${at}: is this address a market group?` }]));
  }
  const held = { positionId, marketId: position.marketId, current };
  const market = reader.heldBy(held, owner);
  let offset = 0n;
  return searchMarket(market, request, exactMaxCandidates, {
    marketId: held.marketId,
    plan: (currentPrice, found) => {
      offset = positionOffset(current, positionDirection(request, currentPrice), found.minPrice, found.maxPrice);
      return planPositionSearch(request, currentPrice, { current, offset });
    },
    interpret: (raw) => {
      const quote = interpretModifyQuote(raw);
      return (quote.kind === "quoted" ? { kind: "quoted", quote: heldQuote(quote.modify, offset) } : quote) satisfies Evaluation;
    },
    build: (currentPrice, direction, result, decimals) =>
      buildPositionAnswer(request, { ...held, offset, owner }, currentPrice, market.block, direction, result, decimals),
  });
}

/**
 * One endpoint's answer to `request` at the context's block, read in the way the endpoint takes. A single call whose
 * resumed call turns out not to be the searcher's is done again call by call (and the endpoint quoted so from then on).
 */
export async function positionAnswerAtEndpoint(
  strategy: EndpointStrategy,
  endpoint: ChainEndpoint,
  request: PositionRequest,
  context: ReadContext & { readonly exactMaxCandidates: number },
): Promise<Searched> {
  const first = await strategy.positionReaderAt(endpoint, request, context);
  try {
    return await positionAnswerFrom(first.reader, request, context.exactMaxCandidates);
  } catch (error) {
    if (!((error instanceof SearcherUnsupportedError || error instanceof SearcherMismatchError) && first.singleCall)) throw error;
    strategy.notPositionSearcher(endpoint, error);
    const again = await strategy.positionReaderAt(endpoint, request, context);
    return positionAnswerFrom(again.reader, request, context.exactMaxCandidates);
  }
}
