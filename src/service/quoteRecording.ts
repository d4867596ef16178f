// What a quote did, written into the record its caller passed (its log line and metrics): from the cache lookup,
// or from the facts of the search that answered.
import type { BlockHeader } from "../chain/head/follower.ts";
import type { AnswerBody, Searched } from "./answerAtBlock.ts";
import type { QuoteRecord } from "./api.ts";

/** Whether the quote was answered from the cache, and then what it answered (its log line, the hit rate). */
export function recordCacheLookup(record: QuoteRecord, cached: AnswerBody | undefined, head: BlockHeader): void {
  record.cache = cached === undefined ? "miss" : "hit";
  if (cached === undefined) return;
  // A liquidity answer (semantics §14) has no direction.
  if ("direction" in cached) record.direction = cached.direction;
  record.blockNumber = head.number;
  record.blockHash = head.hash;
}

/** What the search that answered did (an earlier attempt's facts, at another head, are replaced). */
export function recordSearch(record: QuoteRecord, { facts }: Searched, head: BlockHeader): void {
  delete record.direction;
  delete record.candidates;
  delete record.stoppedBy;
  Object.assign(record, facts, { blockHash: head.hash });
}
