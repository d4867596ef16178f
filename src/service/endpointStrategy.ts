// How each endpoint is quoted: in one deployless call of the searcher where the endpoint runs it, else call by
// call. Decided once per endpoint and remembered, with one warning: by a probe (at start-up, or at the
// endpoint's first quote), or by a quote's deployless call answering something else than the searcher's facts.
// A transport failure decides nothing.
import type { ReadContext, RpcTally } from "../chain/rpc/call.ts";
import type { ChainEndpoint } from "../chain/rpc/client.ts";
import { ChainUnavailableError } from "../chain/rpc/chainErrors.ts";
import { ChainOverloadedError } from "../chain/rpc/limiter.ts";
import type { MarketReader } from "../chain/searchers/marketReader.ts";
import { sequentialReader } from "../chain/searchers/sequential.ts";
import { SearcherUnsupportedError, probeDeployless, type Facts } from "../chain/searchers/searcher.ts";
import { replayingReader, singleCallReader } from "../chain/searchers/singleCall.ts";
import { runBatchSearcher, runLadderSearcher, type LadderSearched } from "../chain/searchers/batchSearcher.ts";
import type { SpacedLadder } from "../quote/depthRequest.ts";
import type { QuoteRequest } from "../quote/request.ts";
import type { Warn } from "./warnings.ts";
import { replayingLiquidityReader, sequentialLiquidityReader, type LiquidityReader } from "../chain/searchers/liquidityReader.ts";
import { runLiquiditySearcher } from "../chain/searchers/liquiditySearcher.ts";
import type { LiquidityRequest } from "../quote/liquidityRequest.ts";
import { createPositionStrategy, type PositionStrategy } from "./positionStrategy.ts";

export interface EndpointStrategyOptions {
  /** False: every endpoint is quoted call by call, and none is probed. */
  readonly singleCall: boolean;
  readonly searchGasCap: bigint;
  readonly exactMaxCandidates: number;
  readonly warn: Warn;
}

/** An endpoint's reads of one request at one block, and whether they come from one deployless call. */
export type EndpointReader = { readonly reader: MarketReader; readonly singleCall: boolean };

export interface EndpointStrategy extends PositionStrategy {
  /**
   * The reads of `request` at `endpoint` and `block`, in the way the endpoint is known (or probed) to take: the
   * searcher's facts from one deployless call, or a reader that calls as the search asks.
   */
  readerAt(endpoint: ChainEndpoint, request: QuoteRequest, context: ReadContext, searched?: Facts): Promise<EndpointReader>;
  /**
   * The facts of many requests at the context's block from the endpoint's batch searcher, in order; none when the
   * endpoint is not quoted in single calls, fewer when the rest must be searched alone.
   */
  batchFacts(endpoint: ChainEndpoint, requests: readonly QuoteRequest[], context: ReadContext): Promise<readonly Facts[]>;
  /**
   * A spaced ladder at the context's block from the endpoint's ladder searcher: the market's price, the levels
   * planned from it and their facts; undefined when the endpoint is not quoted in single calls.
   */
  ladderFacts(endpoint: ChainEndpoint, ladder: SpacedLadder, context: ReadContext): Promise<LadderSearched | undefined>;
  /** The reads of a new liquidity position's quote (semantics §14): the liquidity searcher's facts, or call by call. */
  liquidityReaderAt(endpoint: ChainEndpoint, request: LiquidityRequest, context: ReadContext): Promise<{ readonly reader: LiquidityReader; readonly singleCall: boolean }>;
  /** A single call's answer was not the searcher's after all (a resumed call): quote `endpoint` call by call from now on. */
  notSearcher(endpoint: ChainEndpoint, error: Error): void;
  /** Probes each endpoint not yet known; one that cannot be reached or is overloaded stays unknown. */
  probe(endpoints: readonly ChainEndpoint[]): Promise<void>;
}

export function createEndpointStrategy({ singleCall, searchGasCap, exactMaxCandidates, warn }: EndpointStrategyOptions): EndpointStrategy {
  /** Per endpoint: can it run the single-call search? Absent: not yet known. */
  const deployless = new Map<ChainEndpoint, boolean>();
  const limits = { gasCap: searchGasCap, exactMaxCandidates };

  async function canRunSingleCall(endpoint: ChainEndpoint, tally?: RpcTally): Promise<boolean> {
    if (!singleCall) return false;
    const known = deployless.get(endpoint);
    if (known !== undefined) return known;
    const runs = await probeDeployless(endpoint, searchGasCap, tally);
    if (!runs) quoteSequentially(endpoint, "the probe");
    else if (!deployless.has(endpoint)) deployless.set(endpoint, true);
    return deployless.get(endpoint)!;
  }

  /** Remembers, once per endpoint, that it cannot run the searcher: it is quoted sequentially from now on. */
  function quoteSequentially(endpoint: ChainEndpoint, decidedBy: string, error?: Error): void {
    if (deployless.get(endpoint) === false) return;
    deployless.set(endpoint, false);
    const reason = error ? { reason: error.message } : {};
    warn({ chainId: endpoint.chainId, endpoint: endpoint.label, decidedBy, ...reason }, "endpoint does not run the deployless searcher: quoting sequentially");
  }

  return {
    ...createPositionStrategy({ singleCall, limits, warn }),
    ...liquidityStrategy(canRunSingleCall, (endpoint, error) => quoteSequentially(endpoint, "a liquidity quote's answer", error), searchGasCap),
    async readerAt(endpoint, request, context, searched) {
      if (searched !== undefined) return { reader: replayingReader(endpoint, request, limits, context, searched), singleCall: true };
      if (await canRunSingleCall(endpoint, context.tally)) {
        try {
          return { reader: await singleCallReader(endpoint, request, limits, context), singleCall: true };
        } catch (error) {
          if (!(error instanceof SearcherUnsupportedError)) throw error;
          quoteSequentially(endpoint, "a quote's answer", error);
        }
      }
      return { reader: await sequentialReader(endpoint, request, context), singleCall: false };
    },
    async batchFacts(endpoint, requests, context) {
      if (!(await canRunSingleCall(endpoint, context.tally))) return [];
      return runBatchSearcher(endpoint, requests, limits, context).catch(unlessUnsupported<Facts[]>([]));
    },
    async ladderFacts(endpoint, ladder, context) {
      if (!(await canRunSingleCall(endpoint, context.tally))) return undefined;
      return runLadderSearcher(endpoint, ladder, limits, context).catch(unlessUnsupported(undefined));
    },
    notSearcher(endpoint, error) {
      quoteSequentially(endpoint, "a quote's answer", error);
    },
    async probe(endpoints) {
      await Promise.all(
        endpoints.map((endpoint) =>
          canRunSingleCall(endpoint).catch((error: unknown) => {
            if (!(error instanceof ChainUnavailableError || error instanceof ChainOverloadedError)) throw error;
          }),
        ),
      );
    },
  };
}

/**
 * A liquidity quote's reads: the liquidity searcher's facts where the endpoint runs deployless calls (`runs`), else call
 * by call (also after a call that was not the searcher's, which `unsupported` remembers).
 */
function liquidityStrategy(
  runs: (endpoint: ChainEndpoint, tally?: RpcTally) => Promise<boolean>,
  unsupported: (endpoint: ChainEndpoint, error: Error) => void,
  gasCap: bigint,
): Pick<EndpointStrategy, "liquidityReaderAt"> {
  return {
    async liquidityReaderAt(endpoint, request, context) {
      if (await runs(endpoint, context.tally)) {
        try {
          const facts = await runLiquiditySearcher(endpoint, request, gasCap, context);
          return { reader: replayingLiquidityReader(endpoint, request, context, facts), singleCall: true };
        } catch (error) {
          if (!(error instanceof SearcherUnsupportedError)) throw error;
          unsupported(endpoint, error);
        }
      }
      return { reader: sequentialLiquidityReader(endpoint, request, context), singleCall: false };
    },
  };
}

/**
 * `none` from an endpoint that does not run the batch or ladder searcher: the quotes are then searched as without
 * it, each finding out alone whether the endpoint runs the one-quote searcher.
 */
function unlessUnsupported<T>(none: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof SearcherUnsupportedError) return none;
    throw error;
  };
}
