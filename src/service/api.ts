// What the service offers the layers above it (the HTTP routes, the CLI, start-up): they depend on these
// interfaces, never on how a quote is made.
import type { Hex } from "viem";
import type { RpcTally } from "../chain/rpc/call.ts";
import type { HeadFollower, HeadStatus } from "../chain/head/follower.ts";
import type { LadderPlan } from "../quote/depthRequest.ts";
import type { Direction } from "../quote/search.ts";
import type { QuoteError } from "../quote/quoteErrors.ts";
import type { Result } from "../quote/result.ts";
import type { QuoteResponseBody } from "../quote/quoteAnswer.ts";
import type { QuoteRequest } from "../quote/request.ts";
import type { PositionResponseBody } from "../quote/positionAnswer.ts";
import type { AnyQuoteRequest, PositionRequest } from "../quote/positionRequest.ts";
import type { LiquidityRequest } from "../quote/liquidityRequest.ts";
import type { LiquidityResponseBody } from "../quote/liquidityAnswer.ts";

/** Where a quote's warnings go: pino's loggers (a request's among them) have `warn`. */
export interface QuoteLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * What one quote did, for its log line and metrics: the caller passes an empty record and reads it once the quote
 * ended, answered or not. The service writes it in one place, from the values its steps return.
 */
export interface QuoteRecord extends RpcTally {
  /** Candidates quoted by the search that gave the answer; absent when no search ran. */
  candidates?: number;
  direction?: Direction;
  blockNumber?: bigint;
  blockHash?: Hex;
  /** The revert that stopped the search at once (a market settled, ended, not started): see SearchFacts. */
  stoppedBy?: string;
  /** The quote joined an identical one already running: its RPC requests were that one's. */
  coalesced?: boolean;
  /** Another replica's search gave the answer (shared through Redis): this one made no RPC request for it. */
  replica?: boolean;
  /** Whether an identical request's answer at the chain's head was kept (semantics of the answer cache). */
  cache?: "hit" | "miss";
}

export function newQuoteRecord(): QuoteRecord {
  return { rpcRequests: 0 };
}

export interface QuoteOptions {
  /** `Cache-Control: no-cache`: not answered from the kept answers, and the endpoint's latest block is read first. */
  readonly noCache?: boolean;
  /** Filled in with what the quote did. */
  readonly record?: QuoteRecord;
  /** The quote's warnings go here (the request's logger, whose lines carry its id) instead of the service's. */
  readonly log?: QuoteLogger;
}

export interface Quoter {
  /** The 200 body, or a thrown QuoteError. */
  quote(request: QuoteRequest, options?: QuoteOptions): Promise<QuoteResponseBody>;
  /** Semantics §13: a held position's modification (the body, or a thrown QuoteError). */
  quotePosition?(request: PositionRequest, options?: QuoteOptions): Promise<PositionResponseBody>;
  /** Semantics §14: the largest liquidity a budget mints in a range (the body, or a thrown QuoteError). */
  quoteLiquidity?(request: LiquidityRequest, options?: QuoteOptions): Promise<LiquidityResponseBody>;
  /** Quotes of one chain, all at one block (a thrown QuoteError only when none can be answered: the chain's). */
  quoteBatch?(requests: readonly AnyQuoteRequest[], options?: QuoteOptions): Promise<BatchAnswer>;
  /**
   * At the chain's head: the market's reference price (undefined when it has none) and the quotes `plan` makes of
   * it (plannedRequests), all answered at that block.
   */
  quoteAtPrice?(market: MarketAt, plan: LadderPlan, options?: QuoteOptions): Promise<PricedAnswer>;
}

/** The market of a quote, and the block its answer must be at or after. */
export type MarketAt = Pick<QuoteRequest, "chainId" | "marketAddress" | "marketId" | "minBlock">;

/** A batch planned from the market's price at its block, with that price. */
export interface PricedAnswer extends BatchAnswer<QuoteResponseBody> {
  readonly price: bigint | undefined;
}

/** What a watcher of a chain may do with its head follower: be told of heads, keep it following, ask of a block. */
export type ChainFollow = Pick<HeadFollower, "onHead" | "hold" | "isReplaced" | "head">;

/** A batch's answers: every one at one block, each the body or the error a GET of it gets at that block. */
export interface BatchAnswer<Body = QuoteResponseBody | PositionResponseBody | LiquidityResponseBody> {
  readonly head: { readonly number: bigint; readonly hash: Hex };
  readonly answers: readonly Result<Body, QuoteError>[];
  /** Gas the candidates of the quotes searched together used (none when none were). */
  readonly searchGas?: bigint;
}

export interface QuoterService extends Quoter {
  quotePosition(request: PositionRequest, options?: QuoteOptions): Promise<PositionResponseBody>;
  quoteLiquidity(request: LiquidityRequest, options?: QuoteOptions): Promise<LiquidityResponseBody>;
  /** Probes every endpoint for deployless calls now, so that no quote pays for it (failures retry later). */
  probe(): Promise<void>;
  /** Starts following each chain's head where that is pushed (a WebSocket endpoint); polling starts with the first quote. */
  start(): Promise<void>;
  /** Stops following the heads (sockets, timers). */
  close(): Promise<void>;
  /** Each chain's head and how it is followed (/health, /ready, metrics). */
  heads(): readonly HeadStatus[];
  /** A configured chain's head follower, for what watches the chain (live quotes); undefined for another chain. */
  follow(chainId: number): ChainFollow | undefined;
}
