// Why a quote ends in 503, said in its details: what it waited for (its block, minBlock, an endpoint that had
// the head) when its deadline passed, a full request queue, or what each endpoint did.
import type { BlockHeader } from "../chain/head/follower.ts";
import { EndpointsFailedError } from "../chain/rpc/chainErrors.ts";
import { ChainOverloadedError } from "../chain/rpc/limiter.ts";
import { DEFAULT_RETRY_AFTER_SECONDS, rpcUnavailable, type ErrorDetail } from "../quote/quoteErrors.ts";
import { QuoteDeadlineError } from "./deadline.ts";
import type { Warn } from "./warnings.ts";

/**
 * Where a quote stands, for the details of the 503 it ends in when its deadline passes; `newestRead`: the latest block
 * was read before a "not found" (once a request, semantics §11).
 */
export type Progress = { stage: "head" | "minBlock" | "search" | "lagging"; head?: BlockHeader; failure?: EndpointsFailedError; newestRead?: boolean };

/**
 * The chain did not answer in time, its request queue is full, or no endpoint answered: 503, never a partial
 * answer, with details that say what was waited for and what each endpoint did.
 */
export function toQuoteError(
  error: unknown,
  context: { chainId: number; deadlineMs: number; minBlock: bigint | undefined; progress: Progress; newest: BlockHeader | undefined; warn: Warn },
): unknown {
  const { chainId, deadlineMs, progress, warn } = context;
  if (error instanceof QuoteDeadlineError) {
    warn({ chainId, deadlineMs, stage: progress.stage }, "quote deadline passed");
    return rpcUnavailable(DEFAULT_RETRY_AFTER_SECONDS, deadlineDetails(context));
  }
  if (error instanceof ChainOverloadedError) {
    warn({ chainId }, "RPC queue full: quote refused");
    return rpcUnavailable(DEFAULT_RETRY_AFTER_SECONDS, [
      { param: "chainId", message: "too many RPC requests are waiting for this chain; retry later" },
    ]);
  }
  if (error instanceof EndpointsFailedError) return rpcUnavailable(error.retryAfterSeconds, [...error.details]);
  return error;
}

function deadlineDetails({
  chainId,
  deadlineMs,
  minBlock,
  progress,
  newest,
}: {
  chainId: number;
  deadlineMs: number;
  minBlock: bigint | undefined;
  progress: Progress;
  newest: BlockHeader | undefined;
}): ErrorDetail[] {
  const within = `within QUOTE_DEADLINE_MS (${deadlineMs} ms)`;
  const seen = newest ? `block ${newest.number}` : "none";
  if (progress.stage === "minBlock" && minBlock !== undefined) {
    return [
      {
        param: "minBlock",
        message: `chain ${chainId} did not reach block ${minBlock} ${within}: the newest block seen is ${newest?.number ?? "none"}; retry once the block is mined, or check that the transaction is on chain ${chainId}`,
      },
    ];
  }
  if (progress.stage === "lagging" && progress.head && progress.failure) {
    return [
      {
        param: "chainId",
        message: `no endpoint of chain ${chainId} served its head, block ${progress.head.number} (${progress.head.hash}), ${within}; an endpoint that lags behind the chain cannot answer at its newest block`,
      },
      ...progress.failure.details,
    ];
  }
  return [{ param: "chainId", message: `chain ${chainId} did not answer ${within} (the newest block seen: ${seen})` }];
}
