// createQuoterClient: the service's routes as typed calls. Each call takes an AbortSignal, `minBlock` and
// `noCache`; answers are the service's JSON as sent (amounts and prices as decimal strings: see `exact`).
import { callJson, urlOf, type Connection } from "./http.js";
import type {
  BatchAnswer,
  BatchRequest,
  CallOptions,
  DepthAnswer,
  DepthRequest,
  LiquidityAnswer,
  LiquidityRequest,
  LiveEvent,
  PositionAnswer,
  PositionRequest,
  QuoteAnswer,
  QuoteRequest,
  WatchOptions,
} from "./types.js";
import { watchStream } from "./watch.js";

export interface QuoterClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:3000` (its routes are under `/quoter` there). */
  readonly baseUrl: string | URL;
  /** The fetch to call (default: the global one, looked up at each call). */
  readonly fetch?: typeof fetch;
  /** Headers sent with every request (e.g. a gateway's key); the client sets Accept, Content-Type and Cache-Control. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface QuoterClient {
  /** `GET /quoter/{chainId}/{marketAddress}/{marketId}`: the largest position within the budget and the price. */
  quote(request: QuoteRequest, options?: CallOptions): Promise<QuoteAnswer>;
  /**
   * `GET /quoter/{chainId}/{marketAddress}/positions/{positionId}`: the largest trade on a held position (add to it,
   * reduce, close or turn it around) within the budget and the price.
   */
  quotePosition(request: PositionRequest, options?: CallOptions): Promise<PositionAnswer>;
  /**
   * `GET /quoter/{chainId}/{marketAddress}/{marketId}/liquidity`: the largest liquidity a budget mints in a price
   * range, proven, with the group's own quote beside it (and, with `taker`, the createLiquidityPosition to sign).
   */
  quoteLiquidity(request: LiquidityRequest, options?: CallOptions): Promise<LiquidityAnswer>;
  /** `POST /quoter/{chainId}/batch`: many quotes of one chain at one block; `minBlock` is set on every item without one. */
  batch(request: BatchRequest, options?: CallOptions): Promise<BatchAnswer>;
  /** `GET /quoter/{chainId}/{marketAddress}/{marketId}/depth`: the exact quote at several prices, at one block. */
  depth(request: DepthRequest, options?: CallOptions): Promise<DepthAnswer>;
  /**
   * The live stream of a quote (a held position's, a liquidity quote's, a batch's): its events as an async iterator,
   * reconnecting after a drop ({@link LiveEvent}). It ends after an `end` event; an abort of `options.signal` rejects
   * the pending `next()` with the signal's reason; a `break` out of the loop closes the connection.
   */
  watch(request: QuoteRequest, options?: WatchOptions): AsyncGenerator<LiveEvent<QuoteAnswer>, void, undefined>;
  watch(request: PositionRequest, options?: WatchOptions): AsyncGenerator<LiveEvent<PositionAnswer>, void, undefined>;
  watch(request: BatchRequest, options?: WatchOptions): AsyncGenerator<LiveEvent<BatchAnswer>, void, undefined>;
  watch(request: LiquidityRequest, options?: WatchOptions): AsyncGenerator<LiveEvent<LiquidityAnswer>, void, undefined>;
  /** The URL `quote` asks (for a curl line or a link). */
  quoteUrl(request: QuoteRequest, options?: Pick<CallOptions, "minBlock">): string;
  /** The URL `quotePosition` asks. */
  positionUrl(request: PositionRequest, options?: Pick<CallOptions, "minBlock">): string;
  /** The URL `depth` asks. */
  depthUrl(request: DepthRequest, options?: Pick<CallOptions, "minBlock">): string;
  /** The URL `quoteLiquidity` asks. */
  liquidityUrl(request: LiquidityRequest, options?: Pick<CallOptions, "minBlock">): string;
}

export function createQuoterClient(options: QuoterClientOptions): QuoterClient {
  const base = String(options.baseUrl).replace(/\/+$/, "");
  if (!/^https?:\/\//i.test(base)) throw new TypeError(`baseUrl must be an http(s) URL, not ${JSON.stringify(String(options.baseUrl))}`);
  const connection: Connection = {
    base,
    // Called on the global object: a browser's fetch called unbound throws "Illegal invocation".
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    headers: { ...options.headers },
  };
  const quoteUrl = (request: QuoteRequest, { minBlock }: Pick<CallOptions, "minBlock"> = {}) => {
    const { chainId, marketAddress, marketId, ...query } = request;
    return urlOf(connection, [chainId, marketAddress, marketId], query, minBlock);
  };
  const positionUrl = (request: PositionRequest, { minBlock }: Pick<CallOptions, "minBlock"> = {}) => {
    const { chainId, marketAddress, positionId, ...query } = request;
    return urlOf(connection, [chainId, marketAddress, "positions", positionId], query, minBlock);
  };
  const depthUrl = (request: DepthRequest, { minBlock }: Pick<CallOptions, "minBlock"> = {}) => {
    const { chainId, marketAddress, marketId, ...query } = request;
    return urlOf(connection, [chainId, marketAddress, marketId, "depth"], query, minBlock);
  };
  const liquidityUrl = (request: LiquidityRequest, { minBlock }: Pick<CallOptions, "minBlock"> = {}) => {
    const { chainId, marketAddress, marketId, ...query } = request;
    return urlOf(connection, [chainId, marketAddress, marketId, "liquidity"], query, minBlock);
  };
  // A held position is named by its id; a quote (new or held) always has an expected price, a liquidity request never.
  const urlFor = (request: QuoteRequest | PositionRequest | LiquidityRequest, options: Pick<CallOptions, "minBlock">) =>
    "positionId" in request ? positionUrl(request, options) : "expectedPrice" in request ? quoteUrl(request, options) : liquidityUrl(request, options);
  const batchSent = ({ chainId, quotes }: BatchRequest, { minBlock }: CallOptions) => ({
    method: "POST" as const,
    url: urlOf(connection, [chainId, "batch"], {}),
    body: { quotes: minBlock === undefined ? quotes : quotes.map((item) => ({ ...item, minBlock: item.minBlock ?? String(minBlock) })) },
  });
  return {
    quote: (request, callOptions = {}) => callJson<QuoteAnswer>(connection, { method: "GET", url: quoteUrl(request, callOptions) }, callOptions),
    quotePosition: (request, callOptions = {}) => callJson<PositionAnswer>(connection, { method: "GET", url: positionUrl(request, callOptions) }, callOptions),
    quoteLiquidity: (request, callOptions = {}) => callJson<LiquidityAnswer>(connection, { method: "GET", url: liquidityUrl(request, callOptions) }, callOptions),
    batch: (request, callOptions = {}) => callJson<BatchAnswer>(connection, batchSent(request, callOptions), callOptions),
    depth: (request, callOptions = {}) => callJson<DepthAnswer>(connection, { method: "GET", url: depthUrl(request, callOptions) }, callOptions),
    watch: ((request: QuoteRequest | PositionRequest | BatchRequest | LiquidityRequest, watchOptions: WatchOptions = {}) =>
      watchStream(connection, () => ("quotes" in request ? batchSent(request, watchOptions) : { method: "GET", url: urlFor(request, watchOptions) }), watchOptions)) as QuoterClient["watch"],
    quoteUrl,
    positionUrl,
    depthUrl,
    liquidityUrl,
  };
}
