// How each endpoint quotes a held position (semantics §13): in one eth_call of the position searcher run at the owner's
// address through a state override where the endpoint takes overrides, else call by call from the owner. Decided per
// endpoint by its first answer to such a call and remembered, with one warning: a refusal of the override, or an answer
// that is not the searcher's facts (a node that ignored the override ran no code). A transport failure decides nothing.
// Owners are remembered per position, so that a quote of a position seen before is one request: the searcher checks
// the owner at the block and, when the position changed hands, names the new one (a second request, as the new owner).
import type { Address } from "viem";
import { StateOverrideRefusedError, ethCall, type RawCall, type ReadContext } from "../chain/rpc/call.ts";
import type { ChainEndpoint } from "../chain/rpc/client.ts";
import { encodeOwnerOf, interpretOwner } from "../chain/searchers/positionGroup.ts";
import { replayingPositionReader, sequentialPositionReader, type PositionReader, type PositionSearched } from "../chain/searchers/positionReader.ts";
import { encodePositionSearch, runPositionSearcher } from "../chain/searchers/positionSearcher.ts";
import { SearcherUnsupportedError } from "../chain/searchers/searcher.ts";
import type { SearchLimits } from "../chain/searchers/singleCall.ts";
import type { PositionRequest } from "../quote/positionRequest.ts";
import type { Warn } from "./warnings.ts";

/** An endpoint's reads of a position's quote at one block, and whether they come from one call of the searcher. */
export type PositionEndpointReader = { readonly reader: PositionReader; readonly singleCall: boolean };

export interface PositionStrategy {
  positionReaderAt(endpoint: ChainEndpoint, request: PositionRequest, context: ReadContext): Promise<PositionEndpointReader>;
  /** A single call's answer was not the searcher's after all (a resumed call): quote positions on `endpoint` call by call. */
  notPositionSearcher(endpoint: ChainEndpoint, error: Error): void;
}

/** How many positions' owners are remembered. */
const KEPT_OWNERS = 4096;

export function createPositionStrategy(options: { readonly singleCall: boolean; readonly limits: SearchLimits; readonly warn: Warn }): PositionStrategy {
  const { singleCall, limits, warn } = options;
  /** Per endpoint: whether it runs a call with a state override. Absent: not yet known. */
  const overrides = new Map<ChainEndpoint, boolean>();
  const owners = new Map<string, Address>();

  function remember(key: string, owner: Address): void {
    owners.delete(key);
    if (owners.size >= KEPT_OWNERS) owners.delete(owners.keys().next().value!);
    owners.set(key, owner);
  }

  function quoteSequentially(endpoint: ChainEndpoint, error: Error): void {
    if (overrides.get(endpoint) === false) return;
    overrides.set(endpoint, false);
    warn({ chainId: endpoint.chainId, endpoint: endpoint.label, reason: error.message }, "endpoint does not run the position searcher at the owner's address (state override): quoting positions sequentially");
  }

  /** The searcher's answer as the position's owner; none when there is no owner to run as (its read is then given). */
  async function searchAsOwner(endpoint: ChainEndpoint, request: PositionRequest, context: ReadContext): Promise<PositionSearched | RawCall> {
    const key = `${endpoint.chainId}\n${request.marketAddress}\n${request.positionId}`;
    let owner = owners.get(key);
    if (owner === undefined) {
      const read = await ethCall(endpoint, { to: request.marketAddress, data: encodeOwnerOf(request.positionId), ...context });
      owner = interpretOwner(read);
      if (owner === undefined) return read;
    }
    const data = encodePositionSearch(request, limits.exactMaxCandidates);
    // At one block the owner is one account: a second run as the owner the first named is the last.
    for (let attempt = 0; ; attempt++) {
      const searched = { ranAs: owner, ...(await runPositionSearcher(endpoint, owner, data, limits.gasCap, context)) };
      overrides.set(endpoint, true);
      const named = interpretOwner(searched.position.owner);
      if (named !== undefined) remember(key, named);
      if (named === undefined || named === owner || attempt > 0) return searched;
      // The position changed hands: the searcher ran as its former owner and searched nothing.
      owner = named;
    }
  }

  return {
    async positionReaderAt(endpoint, request, context) {
      if (singleCall && overrides.get(endpoint) !== false) {
        try {
          const searched = await searchAsOwner(endpoint, request, context);
          if ("ranAs" in searched) return { reader: replayingPositionReader(endpoint, request, limits, context, searched), singleCall: true };
          return { reader: sequentialPositionReader(endpoint, request, context, searched), singleCall: false };
        } catch (error) {
          if (!(error instanceof StateOverrideRefusedError || error instanceof SearcherUnsupportedError)) throw error;
          quoteSequentially(endpoint, error);
        }
      }
      return { reader: sequentialPositionReader(endpoint, request, context), singleCall: false };
    },
    notPositionSearcher(endpoint, error) {
      quoteSequentially(endpoint, error);
    },
  };
}
