// The client's names for what the service takes and answers, all read off the types generated from its OpenAPI
// document (openapi.ts): a change of a route's schema changes them, and the compiler shows every use it breaks.
import type { operations } from "./openapi.js";

type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type Op<Name extends keyof operations> = operations[Name];

/**
 * One quote: the path's `chainId`, `marketAddress` and `marketId` and the query's parameters, every value a string
 * as the service reads it (`expectedPrice: "0.55"`, `collateralAvailable: "1000000000000000000000"` wei).
 * `minBlock` is an option of the call ({@link CallOptions}).
 */
export type QuoteRequest = Op<"getQuote">["parameters"]["path"] & Omit<Op<"getQuote">["parameters"]["query"], "minBlock">;

/** A quote's 200 answer, as the service sends it: amounts and prices are decimal strings. */
export type QuoteAnswer = Json<Op<"getQuote">["responses"][200]>;

/**
 * A held position's quote: the path's `chainId`, `marketAddress` and `positionId` and the query's parameters, as
 * {@link QuoteRequest} (`collateralAvailable` may be "0": only the trades that need no new collateral).
 */
export type PositionRequest = Op<"getPositionQuote">["parameters"]["path"] & Omit<Op<"getPositionQuote">["parameters"]["query"], "minBlock">;

/**
 * A held position's 200 answer: `maxSize` is the trade (positive buys), `targetSize` the size to pass to
 * modifyTraderPosition, `collateralDelta` the signed collateral it moves, `collateralDeltaLimit` its limit in token units.
 */
export type PositionAnswer = Json<Op<"getPositionQuote">["responses"][200]>;

/**
 * What an answer asked with `taker` adds: the createTraderPosition transaction ready to sign from the taker, its
 * collateral limit and deadline, the approval to send first (or null), the taker's balance, and the simulation.
 */
export type Trade = NonNullable<QuoteAnswer["trade"]>;

/** One call a wallet signs, in order (`trade.calls`): EIP-5792's `wallet_sendCalls` item, as viem's sendCalls takes it. */
export type TradeCall = Trade["calls"][number];

/** The trade run from the taker at the answer's block: `ok: true` (with its gas), `false` (its revert), `null` (not run). */
export type TradeSimulation = Trade["simulation"];

/** One quote of a batch: the quote's parameters but `chainId` (the batch's own), each a string. */
export type BatchItem = Json<NonNullable<Op<"quoteBatch">["requestBody"]>>["quotes"][number];

/** A batch: up to the service's BATCH_MAX_QUOTES quotes of one chain, answered at one block. */
export interface BatchRequest {
  readonly chainId: Op<"quoteBatch">["parameters"]["path"]["chainId"];
  readonly quotes: readonly BatchItem[];
}

/** A batch's 200 answer: the block, and per quote (in the order asked) the status and body a GET of it answers. */
export type BatchAnswer = Json<Op<"quoteBatch">["responses"][200]>;

/**
 * A depth ladder: the market, the budget, and either `prices` (a comma-separated list) or `to` with `levels`.
 * `minBlock` is an option of the call.
 */
export type DepthRequest = Op<"getDepth">["parameters"]["path"] & Omit<Op<"getDepth">["parameters"]["query"], "minBlock">;

/** A depth ladder's 200 answer: per price, the exact quote's 200 body or its error body with its status. */
export type DepthAnswer = Json<Op<"getDepth">["responses"][200]>;

/**
 * A new liquidity position's quote: the path's `chainId`, `marketAddress` and `marketId`, the budget
 * (`collateralAvailable`, wei) and the range's prices (`lowerPrice`, `upperPrice`; each absent, the market's own
 * bound), every value a string. `taker` adds the createLiquidityPosition transaction ready to sign. `minBlock` is an
 * option of the call ({@link CallOptions}).
 */
export type LiquidityRequest = Op<"getLiquidityQuote">["parameters"]["path"] & Omit<Op<"getLiquidityQuote">["parameters"]["query"], "minBlock">;

/**
 * A liquidity quote's 200 answer: the range aligned to the pool's ticks, the largest liquidity the budget mints
 * (`liquidity`, proven: one more does not fit), what its mint gets (`mintedLiquidity`) and takes, the group's own
 * quote beside it (`groupQuote`, whether it fits; null where it reverted), and with a taker the trade.
 */
export type LiquidityAnswer = Json<Op<"getLiquidityQuote">["responses"][200]>;

/** Every answer that is not a 2xx: `{ error, details }` (and `trace` for a search failure asked with trace=true). */
export type ErrorBody = Json<Op<"getQuote">["responses"][400]>;

/** What to change: the parameter (or `body`, `url`, `method`) and how. */
export type ErrorDetail = ErrorBody["details"][number];

/** A live stream's `error` event: the error the answer at a head is, with its status first. */
export type LiveError = ErrorBody & { readonly status: number };

/**
 * What a live stream yields, in order:
 * - `quote`: the answer at a head (`blockNumber`, the event's id): at once, then at each head that changes it.
 * - `error`: the answer at a head is an error (e.g. a 503 while every endpoint fails); the stream goes on.
 * - `end`: the market settled or expired, or the held position watched changed owner (`transferred`): the stream
 *   is over (the iterator then ends).
 * - `reconnecting`: the connection dropped, the service shut down (its `end` with reason `shutdown`) or refused
 *   the stream for a while (429, 5xx); the client waits `delayMs` and reconnects. The first event after it is the
 *   answer at the head current then, which may equal the last one.
 */
export type LiveEvent<Answer> =
  | { readonly type: "quote"; readonly answer: Answer; readonly blockNumber: string | undefined }
  | { readonly type: "error"; readonly answer: LiveError; readonly blockNumber: string | undefined }
  | { readonly type: "end"; readonly reason: "settled" | "expired" | "transferred" }
  | {
      readonly type: "reconnecting";
      /** 1 for the first try after a drop, counted up while tries fail; back to 0 once an event arrives. */
      readonly attempt: number;
      readonly delayMs: number;
      readonly reason: "shutdown" | "dropped" | "unavailable" | "network";
      /** The QuoterError (429, 5xx) or QuoterNetworkError that made it reconnect, if any. */
      readonly error?: Error;
    };

/** Options of every call. */
export interface CallOptions {
  /** Aborting it rejects the call at once with the signal's reason (and cancels the request). */
  readonly signal?: AbortSignal;
  /** Answer about this block or a later one: e.g. the block of your trade's receipt (a decimal string or a bigint). */
  readonly minBlock?: string | bigint;
  /** Sends `Cache-Control: no-cache`: the answer is searched afresh at the endpoint's latest block. */
  readonly noCache?: boolean;
}

/** How `watch` reconnects: after `initialDelayMs` (or the server's `retry:` hint), doubling to `maxDelayMs`. */
export interface RetryOptions {
  /** The first delay when the server gave no `retry:` hint (default 1000 ms). */
  readonly initialDelayMs?: number;
  /** The longest delay between two tries (default 30000 ms). */
  readonly maxDelayMs?: number;
  /** Tries in a row without an event before `watch` throws the last error (default: no limit). */
  readonly maxAttempts?: number;
}

export interface WatchOptions extends CallOptions {
  readonly retry?: RetryOptions;
  /**
   * A connection silent this long (no event, no keep-alive comment, which the service sends after 15 s) is taken
   * as dropped and reconnected (default 45000 ms).
   */
  readonly idleTimeoutMs?: number;
}
