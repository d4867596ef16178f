// What the documents' examples have in common: each names a request on the embedded demo chain, whose answer
// there is the example's value (a test replays every one).
import { DEMO_MARKET_GROUP } from "../quote/params.ts";
import { atBlock } from "../quote/quoteErrors.ts";
import { BASE_PATH } from "./paths.ts";

/** One token and a thousand, in wei (18 decimals): the examples' amounts, which the tests quote with too. */
export const ONE = "1000000000000000000";
export const THOUSAND = "1000000000000000000000";

/** An example request on the embedded demo chain. */
export function demoRequest(marketId: number, query: Record<string, string>): string {
  return `GET ${BASE_PATH}/31337/${DEMO_MARKET_GROUP}/${marketId}?${new URLSearchParams(query)}`;
}

/** The demo chain's head, block 9, where its answers are until something trades: the same on every embedded chain. */
export const DEMO_BLOCK_NUMBER = "9";
export const DEMO_BLOCK_HASH = "0x12c3d13947d715f9abbaa437f326abf0aafdb2b998429055a8a299f7f99128c8";
/** That block as a "not found" names it (semantics §11). */
export const DEMO_AT_BLOCK = atBlock({ number: BigInt(DEMO_BLOCK_NUMBER), hash: DEMO_BLOCK_HASH });
