// What a quote asks of the chain, whichever way the answers are fetched (semantics §7: the strategies).
import type { SearchPoint } from "../quote/search.ts";
import type { Hex } from "viem";
import type { RawCall } from "./call.ts";

/**
 * The answers of one quote's chain reads, all at one block. The sequential strategy makes each call when
 * asked; the single-call strategy has made them on chain already and replays them in order, continuing the
 * search on chain when a call stopped short of its end.
 */
export interface MarketReader {
  readonly blockNumber: bigint;
  market(): Promise<RawCall>;
  referencePrice(): Promise<RawCall>;
  /** `getMarketGroup()` of the market group (semantics §10). */
  collateralGroup(): Promise<RawCall>;
  /** `decimals()` of the collateral token `asset`. */
  collateralDecimals(asset: Hex): Promise<RawCall>;
  /**
   * The candidate `signedSize`; for the bisection, with the `point` it is the midpoint of (a searcher on chain
   * resumes from there).
   */
  quote(signedSize: bigint, point?: SearchPoint): Promise<RawCall>;
  /** Called after the search: a replaying reader checks that every recorded candidate was asked for. */
  done?(): void;
}
