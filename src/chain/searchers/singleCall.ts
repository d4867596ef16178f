// The single-call strategy: the whole quote (market, price, every candidate) in one deployless eth_call of
// contracts/QuoteSearcher.sol, whose facts are then replayed through the same decisions as the sequential one.
// A search heavier than the gas cap continues, at the same block, in further calls (semantics §7).
import { QuoterError } from "../../quote/quoterError.ts";
import type { QuoteRequest } from "../../quote/request.ts";
import { ethCall, type BlockPin, type RawCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { encodeQuote, interpretReferencePrice } from "./marketGroup.ts";
import type { MarketReader, SearchPosition } from "./marketReader.ts";
import { encodeSearch, runSearcher, type Facts, type Resume } from "./searcher.ts";

/** The service asked the recorded facts for a read the searcher did not make: a bug on one side. */
export class SearcherMismatchError extends QuoterError {
  constructor(message: string) {
    super("searcher-mismatch", message);
  }
}

/**
 * How one quote calls its searcher again, at the pinned block, when a call stopped short of the search's end
 * (`resume`: that call's facts), and quotes a candidate alone by a plain eth_call there (`alone`).
 */
export type SearchCall = {
  readonly endpoint: ChainEndpoint;
  readonly context: ReadContext;
  readonly expectedPrice: bigint;
  readonly resume: (resume: Resume) => Promise<Facts>;
  readonly alone: (signedSize: bigint) => Promise<RawCall>;
};

/** The gas of one call of the searcher, and the most candidates an exact search quotes. */
export type SearchLimits = { readonly gasCap: bigint; readonly exactMaxCandidates: number };

/**
 * The facts of one deployless call at `block`, as a {@link MarketReader} that checks each read was
 * made. When the search asks for a candidate past the recorded ones (the call stopped to stay within its
 * gas), the reader continues the search from that point in another call at the same block; when a call
 * could not record even that one candidate (it needs more gas than a whole call has), the candidate is quoted
 * alone by a plain eth_call at that block, as the sequential strategy quotes it.
 * Once the context's signal aborts (the quote's deadline passed), no further call is made.
 */
export async function singleCallReader(endpoint: ChainEndpoint, request: QuoteRequest, search: SearchLimits, context: ReadContext): Promise<MarketReader> {
  const facts = await runSearcher(endpoint, encodeSearch(request, undefined, search.exactMaxCandidates), search.gasCap, context);
  return replayingReader(endpoint, request, search, context, facts);
}

/** A {@link MarketReader} of facts already searched at the context's block (a batch's), continued as above. */
export function replayingReader(endpoint: ChainEndpoint, request: QuoteRequest, search: SearchLimits, context: ReadContext, facts: Facts): MarketReader {
  return replaying(
    {
      endpoint,
      context,
      expectedPrice: request.expectedPrice,
      resume: (resume) => runSearcher(endpoint, encodeSearch(request, resume, search.exactMaxCandidates), search.gasCap, context),
      alone: (signedSize) => ethCall(endpoint, { to: request.marketAddress, data: encodeQuote(request.marketId, signedSize), ...context }),
    },
    facts,
  );
}

/** A {@link MarketReader} replaying `facts`, continued by `call` (a new position's searcher, or a held one's). */
export function replaying(call: SearchCall, facts: Facts): MarketReader {
  return new ReplayingReader(call, facts);
}

/** Replays the recorded facts in order, checking that the service asks for exactly what the searcher quoted. */
class ReplayingReader implements MarketReader {
  readonly block: BlockPin;
  private candidates: Facts["candidates"];
  private next = 0;
  private replayed = 0;
  /** The price edge a call of the searcher read and the service has not asked for yet. */
  private edgeAnswer: RawCall | undefined;

  constructor(
    private readonly call: SearchCall,
    private readonly facts: Facts,
  ) {
    this.block = call.context.block;
    this.candidates = facts.candidates;
    if (facts.edgeRead) this.edgeAnswer = facts.edge;
  }

  async market(): Promise<RawCall> {
    return this.facts.market;
  }

  async referencePrice(): Promise<RawCall> {
    if (!this.facts.priceRead) throw new SearcherMismatchError("the searcher did not read the price");
    return this.facts.price;
  }

  async collateralGroup(): Promise<RawCall> {
    if (!this.facts.collateralRead) throw new SearcherMismatchError("the searcher did not read the market group's collateral");
    return this.facts.collateralGroup;
  }

  async collateralDecimals(): Promise<RawCall> {
    if (!this.facts.decimalsRead) throw new SearcherMismatchError("the searcher did not read the collateral's decimals");
    return this.facts.collateralDecimals;
  }

  async poolLiquidity(): Promise<RawCall> {
    if (!this.facts.liquidityRead) throw new SearcherMismatchError("the searcher did not read the pool's liquidity");
    return this.facts.liquidity;
  }

  /**
   * The edge a call of the searcher read. One it did not reach (its call stopped to stay within its gas) is read by
   * the call that resumes the search from where it stands; alone, as the sequential strategy reads it, only when even
   * a whole call cannot afford it.
   */
  async edge(at: Parameters<MarketReader["edge"]>[0]): Promise<RawCall> {
    if (this.edgeAnswer === undefined) {
      if (this.next < this.candidates.length) throw new SearcherMismatchError("the searcher quoted on where the service reads the price edge");
      await this.resume(at);
    }
    const answer = this.edgeAnswer;
    this.edgeAnswer = undefined;
    if (answer !== undefined) return answer;
    const { endpoint, context } = this.call;
    context.signal?.throwIfAborted();
    return ethCall(endpoint, { to: at.edgeCall.to, data: at.edgeCall.data, ...context });
  }

  async quote(signedSize: bigint, at?: SearchPosition): Promise<RawCall> {
    if (this.next >= this.candidates.length) {
      if (at === undefined) return this.quoteAlone(signedSize);
      await this.resume(at, signedSize);
      if (this.candidates.length === 0) return this.quoteAlone(signedSize);
    }
    return this.take(signedSize);
  }

  done(): void {
    if (this.edgeAnswer !== undefined) throw new SearcherMismatchError("the searcher read a price edge the service does not");
    if (this.next !== this.candidates.length) {
      throw new SearcherMismatchError(`the searcher quoted ${this.candidates.length - this.next} candidates more than the service asked for`);
    }
  }

  private take(signedSize: bigint): RawCall {
    const candidate = this.candidates[this.next]!;
    if (candidate.size !== signedSize) {
      throw new SearcherMismatchError(`candidate ${this.replayed}: the searcher quoted ${candidate.size}, the service asks ${signedSize}`);
    }
    this.next++;
    this.replayed++;
    return { success: candidate.success, data: candidate.data };
  }

  /** Continues the search on chain from `at`, at the pinned block: its facts replace the candidates replayed. */
  private async resume(at: SearchPosition, signedSize?: bigint): Promise<void> {
    this.call.context.signal?.throwIfAborted();
    const resumed = await this.call.resume(this.resumeAt(at, signedSize));
    this.candidates = resumed.candidates;
    this.next = 0;
    if (resumed.edgeRead) this.edgeAnswer = resumed.edge;
  }

  private resumeAt(at: SearchPosition, signedSize: bigint | undefined): Resume {
    if (at.search === "bisection") return { isLong: signedSize! > 0n, ...at };
    const currentPrice = this.facts.priceRead ? interpretReferencePrice(this.facts.price) : undefined;
    if (currentPrice === undefined) throw new SearcherMismatchError("an exact search resumes without the price the searcher read");
    const isLong = currentPrice < this.call.expectedPrice;
    return { isLong, search: "exact", state: at.state, market: at.market, edgeCall: at.edgeCall, currentPrice };
  }

  private quoteAlone(signedSize: bigint): Promise<RawCall> {
    this.call.context.signal?.throwIfAborted();
    return this.call.alone(signedSize);
  }
}
