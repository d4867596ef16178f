// What a quote asks of the chain, whichever way the answers are fetched (semantics §7: the strategies).
import type { ExactRuleInput, ExactState } from "../../quote/exactState.ts";
import type { SearchPoint } from "../../quote/search.ts";
import type { Hex } from "viem";
import type { BlockPin, RawCall } from "../rpc/call.ts";
import type { EdgeCall } from "./priceEdge.ts";

/**
 * Where a search stands when it asks for a candidate: the bisection's point, or the exact search's state with the
 * price edge it searches by.
 */
export type SearchPosition =
  | { readonly search: "bisection"; readonly point: SearchPoint }
  | {
      readonly search: "exact";
      readonly state: ExactState;
      /** What the rule reads of the market besides the request: its worst settlement price, fee and pool liquidity. */
      readonly market: ExactMarket;
      /** The price edge's QuoterV2 call, planned from the market's answer; none for a market without one. */
      readonly edgeCall: EdgeCall | undefined;
    };

/** What the exact search's rule reads of the market at the block (src/quote/exactState.ts ExactRuleInput). */
export type ExactMarket = Pick<ExactRuleInput, "worstPrice" | "feeRate" | "liquidity">;

/**
 * The answers of one quote's chain reads, all at one block. The sequential strategy makes each call when
 * asked; the single-call strategy has made them on chain already and replays them in order, continuing the
 * search on chain when a call stopped short of its end.
 */
export interface MarketReader {
  /** The block every read is made at, by number and hash. */
  readonly block: BlockPin;
  market(): Promise<RawCall>;
  referencePrice(): Promise<RawCall>;
  /** `getMarketGroup()` of the market group (semantics §10). */
  collateralGroup(): Promise<RawCall>;
  /** `decimals()` of the collateral token `asset`. */
  collateralDecimals(asset: Hex): Promise<RawCall>;
  /** `liquidity()` of the market's pool `pool`: the exact search's first guesses read it (semantics §4b). */
  poolLiquidity(pool: Hex): Promise<RawCall>;
  /**
   * The price edge of an exact search: the market's QuoterV2 answering `at.edgeCall` (semantics §4b), when the search
   * standing at `at` asks for it.
   */
  edge(at: Extract<SearchPosition, { search: "exact" }> & { readonly edgeCall: EdgeCall }): Promise<RawCall>;
  /**
   * The candidate `signedSize`, with where the search stands when it asks for it (a searcher on chain resumes
   * from there).
   */
  quote(signedSize: bigint, at?: SearchPosition): Promise<RawCall>;
  /** Called after the search: a replaying reader checks that every recorded candidate was asked for. */
  done?(): void;
}
