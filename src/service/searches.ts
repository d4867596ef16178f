// One search per identical request and block: joined in-process first (the coalescer), then across replicas when
// they share Redis (another replica's kept answer, or the claim on the search), and only then run through the
// chain's endpoints in each endpoint's strategy.
import type { BlockHeader } from "../chain/head/follower.ts";
import type { ChainClient, ChainEndpoint } from "../chain/rpc/client.ts";
import type { HeadFollower } from "../chain/head/follower.ts";
import { isLiquidityRequest, isPositionRequest, type AnyQuoteRequest } from "../quote/positionRequest.ts";
import { liquidityAnswerAtEndpoint } from "./liquidityAtBlock.ts";
import { positionAnswerAtEndpoint } from "./positionAtBlock.ts";
import { answerAtEndpoint, type Searched } from "./answerAtBlock.ts";
import type { QuoteRecord } from "./api.ts";
import { waitOutLag } from "./atHead.ts";
import { createCoalescer } from "./coalescer.ts";
import type { EndpointStrategy } from "./endpointStrategy.ts";
import { firstAnswer } from "./fallback.ts";
import { shareSearch, type SearchSharing } from "./replicas/sharedSearches.ts";
import type { Presearched } from "./searchTogether.ts";
import type { Progress } from "./unavailable.ts";
import type { Warn } from "./warnings.ts";

/** A chain quote's context: chain, head follower, request and its key, where warnings go, the caller's record. */
export type ChainQuote = {
  readonly chain: ChainClient;
  readonly follower: HeadFollower;
  readonly request: AnyQuoteRequest;
  readonly key: string;
  readonly warn: Warn;
  readonly record: QuoteRecord | undefined;
  /** Its facts at the head, when a batch searched them with others. */
  readonly searched?: Presearched | undefined;
};

export class Searches {
  private readonly coalescer = createCoalescer<Searched>();

  constructor(
    private readonly endpoints: EndpointStrategy,
    private readonly exactMaxCandidates: number,
    private readonly sharing: SearchSharing | undefined,
  ) {}

  /**
   * The search at `head`, shared with identical requests (`fresh`: never another replica's kept answer, as the
   * local one is not given either); undefined when an endpoint did not have the block yet.
   */
  async once(quote: ChainQuote, head: BlockHeader, fresh: boolean, signal: AbortSignal, attempt: number, progress: Progress): Promise<Searched | undefined> {
    let started = false;
    const start = (shared: AbortSignal) => {
      started = true;
      const search = () => this.at(quote, head, shared);
      return fresh ? search() : shareSearch(this.sharing, { chainId: quote.chain.chainId, blockHash: head.hash, key: quote.key }, quote.record, search, shared);
    };
    try {
      return await this.coalescer.run(`${head.hash}\n${quote.key}`, start, signal);
    } catch (error) {
      await waitOutLag(error, quote.follower, attempt, signal, progress);
      return undefined;
    } finally {
      // A joiner made no RPC request: its record says so, and takes the search's facts with its answer.
      if (!started && quote.record) quote.record.coalesced = true;
    }
  }

  /** Those of `quotes` whose answer at `head` no replica kept: the ones a batch searches (all, without Redis). */
  async unkept<Q extends Pick<ChainQuote, "key">>(chainId: number, head: BlockHeader, quotes: readonly Q[]): Promise<readonly Q[]> {
    if (this.sharing === undefined || quotes.length === 0) return quotes;
    const kept = await this.sharing.kept(quotes.map(({ key }) => ({ chainId, blockHash: head.hash, key })));
    return quotes.filter((_, i) => !kept[i]);
  }

  /**
   * The first endpoint's answer at `head` that is not a failure of the chain, in the endpoint's strategy; its RPC
   * requests count in the record of the quote that started it.
   */
  private at(quote: ChainQuote, head: BlockHeader, signal: AbortSignal): Promise<Searched> {
    const context = { block: head, signal, tally: quote.record, exactMaxCandidates: this.exactMaxCandidates };
    const searchedBy = (endpoint: ChainEndpoint) => (quote.searched?.endpoint === endpoint ? quote.searched.facts : undefined);
    const { request } = quote;
    const answer = isPositionRequest(request)
      ? (endpoint: ChainEndpoint) => positionAnswerAtEndpoint(this.endpoints, endpoint, request, context)
      : isLiquidityRequest(request)
        ? (endpoint: ChainEndpoint) => liquidityAnswerAtEndpoint(this.endpoints, endpoint, request, context)
        : (endpoint: ChainEndpoint) => answerAtEndpoint(this.endpoints, endpoint, request, { ...context, searched: searchedBy(endpoint) });
    return firstAnswer(quote.chain.endpoints, answer, signal, quote.warn);
  }
}
