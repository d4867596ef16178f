// Reads at the chain's head: which head a quote is answered at, a newer one looked for before a "not found", how a
// read there waits out an endpoint that does not have that block yet, and a market's reference price read alone (a
// depth ladder spaced from it, where the endpoint does not run the ladder searcher, which reads the price in its own
// call).
import type { BlockHeader } from "../chain/head/follower.ts";
import type { ChainClient } from "../chain/rpc/client.ts";
import { EndpointsFailedError } from "../chain/rpc/chainErrors.ts";
import type { HeadFollower } from "../chain/head/follower.ts";
import { interpretReferencePrice } from "../chain/searchers/marketGroup.ts";
import { sequentialReader } from "../chain/searchers/sequential.ts";
import { isNotFound, type QuoteError } from "../quote/quoteErrors.ts";
import type { Result } from "../quote/result.ts";
import type { MarketAt } from "./api.ts";
import { firstAnswer } from "./fallback.ts";
import type { Progress } from "./unavailable.ts";
import { warnFailures, type Warn } from "./warnings.ts";

/** The block to answer at: the chain's head as its follower knows it (read first when `fresh`), at least `minBlock`. */
export async function headFor(
  on: { readonly follower: HeadFollower; readonly warn: Warn },
  minBlock: bigint | undefined,
  fresh: boolean,
  signal: AbortSignal,
  progress: Progress,
): Promise<BlockHeader> {
  progress.stage = minBlock === undefined ? "head" : "minBlock";
  const head = await on.follower.headFor({ minBlock, fresh, signal }).catch((error: unknown) => {
    if (error instanceof EndpointsFailedError) warnFailures(error, on.warn);
    throw error;
  });
  progress.head = head;
  return head;
}

/**
 * Semantics §11: "not found" is about the newest block. Before one of `answers` is answered as a market or a position
 * not found at `head`, the endpoints' latest block is read, once a request (`progress` keeps it): true when it is
 * newer than `head` (or `head` was replaced), so that the request is answered again at the follower's head, that
 * block or a newer one. A failure to read it leaves the answers about `head`.
 */
export async function newerThanNotFound(
  follower: HeadFollower,
  head: BlockHeader,
  answers: readonly Result<unknown, QuoteError>[],
  signal: AbortSignal,
  progress: Progress,
): Promise<boolean> {
  if (progress.newestRead === true || !answers.some((answer) => !answer.ok && isNotFound(answer.error))) return false;
  progress.newestRead = true;
  progress.stage = "head";
  const latest = await follower.refresh(signal).catch(() => undefined);
  signal.throwIfAborted();
  return follower.isReplaced(head.hash) || (latest !== undefined && latest.number > head.number);
}

/**
 * `error` is an endpoint that does not have the head yet (it lags), or no longer (a reorg the follower is about to
 * see): waits until the head moved or the endpoint had a moment to catch up, to be asked again. Never at an older
 * block. Any other error is thrown.
 */
export async function waitOutLag(error: unknown, follower: HeadFollower, attempt: number, signal: AbortSignal, progress: Progress): Promise<void> {
  if (!(error instanceof EndpointsFailedError && error.lagging)) throw error;
  progress.stage = "lagging";
  progress.failure = error;
  void follower.refresh().catch(() => undefined);
  await follower.waitForChange(Math.min(25 * 2 ** attempt, 500), signal);
  signal.throwIfAborted();
}

/** The market's reference price at `head` (undefined: it has none there); undefined itself when it must be read again. */
export async function readPriceAt(
  on: { readonly chain: ChainClient; readonly follower: HeadFollower; readonly warn: Warn },
  market: MarketAt,
  head: BlockHeader,
  signal: AbortSignal,
  attempt: number,
  progress: Progress,
): Promise<{ readonly price: bigint | undefined } | undefined> {
  progress.stage = "search";
  try {
    const raw = await firstAnswer(on.chain.endpoints, async (endpoint) => (await sequentialReader(endpoint, market, { block: head, signal })).referencePrice(), signal, on.warn);
    return { price: interpretReferencePrice(raw) };
  } catch (error) {
    await waitOutLag(error, on.follower, attempt, signal, progress);
    return undefined;
  }
}
