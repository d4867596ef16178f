// The errors a quote can end in (interface §7, semantics §6): a stable kind, the interface's fixed message, and
// details that say what to do, never none. Which status and headers each kind answers with is the HTTP layer's
// (src/http/httpErrors.ts): the domain knows what went wrong, not how a transport says it.
import { QuoterError, type ErrorDetail } from "./quoterError.ts";

export type { ErrorDetail };

/** Every error answer's body: `details` always, with at least one entry, so that a client never finds it missing. */
export type ErrorBody = { error: string; details: ErrorDetail[] } & Record<string, unknown>;

/** The interface's error strings, by kind: they never change. */
export const MESSAGES = {
  invalidQuery: "Invalid query parameters",
  invalidPath: "Invalid path parameters",
  invalidBody: "Invalid request body",
  expectedPriceNotPositive: "Expected price must be greater than 0",
  expectedPriceEqualsCurrent: "Expected price must be different from current price",
  noValidSize: "Could not find a valid position size that satisfies the price constraints",
  insufficientLiquidity: "Insufficient liquidity. Try a smaller size.",
  marketNotFound: "Market not found",
  currentPriceNotFound: "Current price not found",
  marketSettled: "Market is settled",
  positionNotFound: "Position not found",
  notTraderPosition: "Position is not a trader position",
  takerNotOwner: "Taker does not own the position",
  insufficientCollateralForRange: "Insufficient collateral for this range",
  liquidityNotMinted: "Could not mint a liquidity position in this range",
  rpcUnavailable: "Chain RPC unavailable",
  internal: "Internal server error",
} as const;

/** The stable name of each error a quote can end in. */
export type QuoteErrorKind = keyof typeof MESSAGES;

/** What each kind says when the code that found it has nothing more precise to say: what to change. */
const GENERAL_DETAILS: Record<QuoteErrorKind, ErrorDetail> = {
  invalidQuery: { param: "query", message: "a query parameter breaks its rule: /quoter/docs gives each parameter's rule" },
  invalidPath: { param: "path", message: "a path parameter breaks its rule: /quoter/docs gives each parameter's rule" },
  invalidBody: { param: "body", message: 'must be a JSON object {"quotes": [{"marketAddress", "marketId", "expectedPrice", "collateralAvailable", …}]}' },
  expectedPriceNotPositive: {
    param: "expectedPrice",
    message: "is 0 or negative: set it to the price you expect after the trade, above the current price for a LONG, below it for a SHORT",
  },
  expectedPriceEqualsCurrent: {
    param: "expectedPrice",
    message: "equals the current price: set it above the current price to quote a LONG, below it to quote a SHORT",
  },
  noValidSize: {
    param: "expectedPrice",
    message: "no size the search tried meets the price rules: set expectedPrice further from the current price, or priceLimit nearer to it",
  },
  insufficientLiquidity: {
    param: "collateralAvailable",
    message: "every size the search tried reverted (the market cannot fill it): a smaller collateralAvailable searches smaller sizes",
  },
  marketNotFound: {
    param: "marketId",
    message: "no such market at this address on this chain: check the chain id, the market group's address and the market id",
  },
  currentPriceNotFound: {
    param: "marketId",
    message: "the market group gives this market no reference price (getReferencePrice reverted or answered 0): it cannot be quoted until it has one",
  },
  marketSettled: { param: "marketId", message: "the market has settled: no position can be opened on it; quote a market that still trades" },
  positionNotFound: {
    param: "positionId",
    message: "no such position in this market group on this chain (ownerOf reverted): check the chain id, the group's address and the position id",
  },
  notTraderPosition: {
    param: "positionId",
    message: "this position is not a trader position (a liquidity position): only trader positions are modified by trades",
  },
  takerNotOwner: { param: "taker", message: "only the position's owner can modify it: ask with its owner as taker, or without taker" },
  insufficientCollateralForRange: { param: "collateralAvailable", message: "the budget is under what the least liquidity in this range needs: raise it" },
  liquidityNotMinted: { param: "marketId", message: "the market group refused the range's mint for a reason other than its collateral" },
  rpcUnavailable: { param: "chainId", message: "no RPC endpoint of the chain answered in time: ask again after Retry-After seconds" },
  internal: {
    param: "request",
    message: "the service failed on a bug, not on anything in the request: ask again, and if it fails again report this answer's X-Request-Id",
  },
};

/** Seconds a client is asked to wait after the chain was unavailable, when the caller names no other value. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

type QuoteErrorOptions = {
  details?: ErrorDetail[];
  /** Further body fields after `error` and `details`, e.g. `trace` on a search failure (§7). */
  extra?: Record<string, unknown>;
  /** How long trying again is pointless: the chain's unavailability. */
  retryAfterSeconds?: number;
};

/** The one error body of the interface: `error`, then `details`, then any extra fields. */
export function errorBody(message: string, details: readonly ErrorDetail[], extra?: Record<string, unknown>): ErrorBody {
  const body: ErrorBody = { error: message, details: details.map((d) => ({ param: d.param, message: d.message })) };
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (key !== "error" && key !== "details") body[key] = value;
  }
  return body;
}

export class QuoteError extends QuoterError {
  declare readonly details: readonly [ErrorDetail, ...ErrorDetail[]];
  readonly kind: QuoteErrorKind;
  readonly extra?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(kind: QuoteErrorKind, options: QuoteErrorOptions = {}) {
    const [first = GENERAL_DETAILS[kind], ...more] = options.details ?? [];
    super(kind, MESSAGES[kind], { details: [first, ...more] });
    this.kind = kind;
    if (options.extra !== undefined) this.extra = options.extra;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): ErrorBody {
    return errorBody(this.message, this.details, this.extra);
  }
}

type SearchFailure = Pick<QuoteErrorOptions, "details" | "extra">;

export function invalidPathParameters(details: ErrorDetail[]): QuoteError {
  return new QuoteError("invalidPath", { details });
}

export function invalidRequestBody(details: ErrorDetail[]): QuoteError {
  return new QuoteError("invalidBody", { details });
}

export function invalidQueryParameters(details: ErrorDetail[]): QuoteError {
  return new QuoteError("invalidQuery", { details });
}

export function expectedPriceNotPositive(): QuoteError {
  return new QuoteError("expectedPriceNotPositive");
}

export function expectedPriceEqualsCurrent(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("expectedPriceEqualsCurrent", { details });
}

export function noValidSize(options: SearchFailure = {}): QuoteError {
  return new QuoteError("noValidSize", options);
}

export function insufficientLiquidity(options: SearchFailure = {}): QuoteError {
  return new QuoteError("insufficientLiquidity", options);
}

export function marketNotFound(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("marketNotFound", { details });
}

export function currentPriceNotFound(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("currentPriceNotFound", { details });
}

export function marketSettled(): QuoteError {
  return new QuoteError("marketSettled");
}

/**
 * §14: a budget under what a liquidity of 1 needs in the range; the detail names that least collateral. A dust budget
 * whose search reached a liquidity too small to mint (`tooFew`: its tokens round to nothing the pool takes) names it.
 */
export function insufficientCollateralForRange(least: bigint, tooFew?: bigint): QuoteError {
  const message =
    tooFew === undefined
      ? `is under the least collateral a position in this range takes: ${least} wei (a liquidity of 1)`
      : `is too small for this range: no liquidity quoted fits it, and liquidity ${tooFew} holds too few tokens to mint (its mint reverted without data)`;
  return new QuoteError("insufficientCollateralForRange", { details: [{ param: "collateralAvailable", message }] });
}

/** §14: a mint the group refused otherwise than for its collateral: the decoded revert, as a trace names it. */
export function liquidityNotMinted(liquidity: bigint, revert: string): QuoteError {
  return new QuoteError("liquidityNotMinted", {
    details: [{ param: "marketId", message: `the mint of liquidity ${liquidity} in this range reverted with ${revert}, not InsufficientCollateral` }],
  });
}

export function positionNotFound(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("positionNotFound", { details });
}

/**
 * Semantics §11: a market or a position not found is not found at one block (a newer one may hold it, as a position
 * minted a moment ago): its detail names that block, by number and hash, in these words.
 */
export function atBlock(block: { readonly number: bigint; readonly hash: string }): string {
  return `at block ${block.number} (${block.hash})`;
}

/** A detail's words without the block they name: a "not found" at another block says the same. */
export function withoutBlock(message: string): string {
  return message.replace(/ at block \d+ \(0x[0-9a-fA-F]{64}\)/g, "");
}

/** A market or a position not found at a block: before it is answered, a newer block is looked for (semantics §11). */
export function isNotFound(error: QuoteError): boolean {
  return error.kind === "marketNotFound" || error.kind === "positionNotFound";
}

export function notTraderPosition(details?: ErrorDetail[]): QuoteError {
  return new QuoteError("notTraderPosition", { details });
}

/** §13: a taker that does not own the position cannot trade it: the detail names the owner. */
export function takerNotOwner(positionId: bigint, owner: string): QuoteError {
  return new QuoteError("takerNotOwner", {
    details: [{ param: "taker", message: `position ${positionId} is owned by ${owner}: only its owner can modify it; ask with taker=${owner}, or without taker` }],
  });
}

export function rpcUnavailable(retryAfterSeconds: number = DEFAULT_RETRY_AFTER_SECONDS, details?: ErrorDetail[]): QuoteError {
  return new QuoteError("rpcUnavailable", { retryAfterSeconds, details });
}

export function internalError(): QuoteError {
  return new QuoteError("internal");
}

/** A quote's error as its answer (a batch item's); anything else is thrown on. */
export function quoteErrorAsResult(error: unknown): { readonly ok: false; readonly error: QuoteError } {
  if (error instanceof QuoteError) return { ok: false, error };
  throw error;
}
