// What a live quote tells its watchers (liveQuotes.ts): the events, and each answer as a watch keeps it, with what it
// says but its block (two answers that say the same are told once) and whether it ends the watch.
import type { Hex } from "viem";
import { QuoteError, withoutBlock } from "../quote/quoteErrors.ts";
import { err, ok, type Result } from "../quote/result.ts";
import type { AnswerBody } from "./answerAtBlock.ts";
import type { BatchAnswer, QuoteRecord } from "./api.ts";

/**
 * Why a watch ended for good: its market settled, or its trading ended (every quote reverts), or the held position it
 * quotes changed owner (semantics §13: the quote was its former owner's question).
 */
export type LiveEndReason = "settled" | "expired" | "transferred";

/** What a watcher is told: the answer at a block (a body or an error), or that the watch ended. */
export type LiveEvent =
  | { readonly type: "quote"; readonly body: AnswerBody; readonly blockNumber: bigint }
  | { readonly type: "batch"; readonly batch: BatchAnswer; readonly blockNumber: bigint }
  | { readonly type: "error"; readonly error: unknown; readonly blockNumber: bigint | undefined }
  | { readonly type: "end"; readonly reason: LiveEndReason };

/**
 * An answer as a watch keeps it: the event, what it says but its block, and the block's hash; with `end`, the watch
 * ends after it (told first, unless `untold`: a position's answer for its new owner).
 */
export type Answer = {
  readonly event: Exclude<LiveEvent, { type: "end" }>;
  readonly sameness: string;
  readonly blockHash: Hex | undefined;
  readonly end?: LiveEndReason;
  readonly untold?: boolean;
};

const EXPIRED_REVERTS = new Set(["ExpiredMarket", "ExpiredMarketNotSettled"]);

/**
 * What an answer says but its block: two answers that differ only there are the same to a watcher (a body without
 * `blockNumber` and `blockHash`; an error, its kind and body, without the block a "not found" names).
 */
function sayingOf(answer: Result<AnswerBody, QuoteError>): unknown {
  if (!answer.ok) {
    const { details, ...body } = answer.error.toBody();
    return [answer.error.kind, { ...body, details: details.map(({ param, message }) => ({ param, message: withoutBlock(message) })) }];
  }
  const { blockNumber: _number, blockHash: _hash, ...rest } = answer.value;
  return rest;
}

/** A batch's answers: the same to a watcher when every one is, but for its block. */
export function batchAnswerOf(event: Extract<LiveEvent, { type: "batch" }>, blockHash: Hex): Answer {
  return { event, sameness: JSON.stringify(event.batch.answers.map(sayingOf)), blockHash };
}

export function answerOf(event: Extract<LiveEvent, { type: "quote" }>, blockHash: Hex): Answer {
  return { event, sameness: JSON.stringify(sayingOf(ok(event.body))), blockHash };
}

export function failureOf(error: unknown, record: QuoteRecord): Answer {
  const event = { type: "error" as const, error, blockNumber: record.blockNumber };
  const sameness = error instanceof QuoteError ? JSON.stringify(sayingOf(err(error))) : `internal: ${String(error)}`;
  const end: LiveEndReason | undefined =
    error instanceof QuoteError && error.kind === "marketSettled"
      ? "settled"
      : record.stoppedBy !== undefined && EXPIRED_REVERTS.has(record.stoppedBy)
        ? "expired"
        : undefined;
  return { event, sameness, blockHash: record.blockHash, ...(end === undefined ? {} : { end }) };
}
