// What a quote asks of the chain, whichever way the answers are fetched (semantics §7: the strategies).
import type { RawCall } from "./call.ts";

/**
 * The answers of one quote's chain reads, all at one block. The sequential strategy makes each call when
 * asked; the single-call strategy has made them all on chain already and replays them in order.
 */
export interface MarketReader {
  readonly blockNumber: bigint;
  market(): Promise<RawCall>;
  referencePrice(): Promise<RawCall>;
  quote(signedSize: bigint): Promise<RawCall>;
  /** Called after the search: a replaying reader checks that every recorded candidate was asked for. */
  done?(): void;
}
