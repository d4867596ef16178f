// What the bench asks: a fixed mix of demo-market quotes that all succeed (200), both directions, deep and
// shallow markets, budgets that bind and price targets that bind; and, for the baseline, the very same
// searches as bare JSON-RPC `eth_call` bodies, exactly as the service's client sends them. And a wider grid of
// search=exact quotes, which the bench counts candidates and requests over.
import { numberToHex } from "viem";
import { DEFAULT_SEARCH_GAS_CAP, encodeSearch } from "../src/chain/searchers/searcher.ts";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import type { SearchMode } from "../src/quote/params.ts";
import { parseQuoteRequest } from "../src/quote/request.ts";

export interface MixEntry {
  readonly marketId: number;
  readonly expectedPrice: string;
  readonly collateralAvailable: string;
  /** The exact grid's entries only: a priceLimit between the price and expectedPrice. */
  readonly priceLimit?: string;
  /** The exact shapes' entries of the 6-decimal group: "usdc" (else the first group). */
  readonly group?: string;
  /** What the entry shows. */
  readonly note: string;
}

const E = (exponent: number) => `1${"0".repeat(exponent)}`;

/** The taker of the bench's quotes with `taker` (semantics §12): the demo's trader, Hardhat's second account. */
export const BENCH_TAKER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** Markets 1 (deep yes/no at 0.5) and 2 (shallow numeric at 1000) of the demo; every entry answers 200. */
export const MIX: readonly MixEntry[] = [
  { marketId: 1, expectedPrice: "0.55", collateralAvailable: E(21), note: "deep, LONG, budget binds" },
  { marketId: 1, expectedPrice: "0.45", collateralAvailable: E(21), note: "deep, SHORT, budget binds" },
  { marketId: 1, expectedPrice: "0.6", collateralAvailable: E(20), note: "deep, LONG, small budget" },
  { marketId: 1, expectedPrice: "0.4", collateralAvailable: E(19), note: "deep, SHORT, small budget" },
  { marketId: 2, expectedPrice: "1030", collateralAvailable: E(21), note: "shallow, LONG, price binds" },
  { marketId: 2, expectedPrice: "970", collateralAvailable: E(21), note: "shallow, SHORT, price binds" },
  { marketId: 2, expectedPrice: "1100", collateralAvailable: E(19), note: "shallow, LONG, budget binds" },
  { marketId: 2, expectedPrice: "900", collateralAvailable: E(23), note: "shallow, SHORT, large budget" },
];

/** Targets of the exact workload on one market, each with how far it is from the current price. */
interface ExactMarket {
  readonly marketId: number;
  readonly kind: string;
  readonly long: readonly (readonly [expectedPrice: string, distance: string])[];
  readonly short: readonly (readonly [expectedPrice: string, distance: string])[];
}

const EXACT_MARKETS: readonly ExactMarket[] = [
  {
    marketId: 1,
    kind: "deep",
    long: [["0.5005", "0.1%"], ["0.505", "1%"], ["0.55", "10%"], ["0.75", "50%"]],
    short: [["0.4995", "0.1%"], ["0.495", "1%"], ["0.45", "10%"], ["0.25", "50%"]],
  },
  {
    marketId: 2,
    kind: "shallow",
    long: [["1001", "0.1%"], ["1010", "1%"], ["1100", "10%"], ["1500", "50%"]],
    short: [["999", "0.1%"], ["990", "1%"], ["900", "10%"], ["600", "40%"]],
  },
  {
    // The thin market's range is [0.4, 0.6]: the farthest targets sit near its ends.
    marketId: 4,
    kind: "thin",
    long: [["0.5005", "0.1%"], ["0.505", "1%"], ["0.55", "10%"], ["0.59", "18%"]],
    short: [["0.4995", "0.1%"], ["0.495", "1%"], ["0.45", "10%"], ["0.41", "18%"]],
  },
];

/**
 * Budgets, as powers of ten of wei: from one just below what a SHORT of the smallest size (DUST) needs on market 2
 * (1003000001 wei) to far beyond any price bound.
 */
const EXACT_BUDGET_EXPONENTS = [9, 12, 15, 18, 21, 24];

/**
 * The search=exact workload: markets 1, 2 and 4 (thin) of the demo, LONG and SHORT, four price distances each,
 * six budgets. Not every entry answers 200: on market 2, a SHORT of 10^9 wei cannot pay for the smallest size.
 */
export const EXACT_WORKLOAD: readonly MixEntry[] = EXACT_MARKETS.flatMap((market) =>
  (["LONG", "SHORT"] as const).flatMap((direction) =>
    (direction === "LONG" ? market.long : market.short).flatMap(([expectedPrice, distance]) =>
      EXACT_BUDGET_EXPONENTS.map((exponent) => ({
        marketId: market.marketId,
        expectedPrice,
        collateralAvailable: E(exponent),
        note: `${market.kind}, ${direction}, ${distance} away, budget 10^${exponent}`,
      })),
    ),
  ),
);

/** The exact grid's targets on one market: [expectedPrice, priceLimit between the price and it]. */
const GRID_MARKETS: readonly { marketId: number; kind: string; targets: readonly (readonly [string, string])[] }[] = [
  {
    marketId: 1,
    kind: "deep",
    targets: [["0.502", "0.501"], ["0.52", "0.51"], ["0.6", "0.55"], ["0.9", "0.7"], ["0.498", "0.499"], ["0.48", "0.49"], ["0.4", "0.45"], ["0.1", "0.3"]],
  },
  {
    marketId: 2,
    kind: "shallow",
    targets: [["1003", "1001.5"], ["1050", "1025"], ["1200", "1100"], ["1900", "1450"], ["997", "998.5"], ["950", "975"], ["800", "900"], ["550", "775"]],
  },
  {
    marketId: 4,
    kind: "thin",
    targets: [["0.501", "0.5005"], ["0.52", "0.51"], ["0.56", "0.53"], ["0.594", "0.547"], ["0.499", "0.4995"], ["0.48", "0.49"], ["0.44", "0.47"], ["0.41", "0.455"]],
  },
];

/**
 * A wider grid of search=exact quotes than the workload's, for the edge's figures (bench/exactEdge.ts) and the test
 * that holds its answers to the ones recorded before it (test/http/exactEdge.test.ts): markets 1, 2 and 4, LONG and
 * SHORT, four targets each, budgets 10^12 to 10^27 wei, each without and with a priceLimit: 288 quotes.
 */
export const EXACT_GRID: readonly MixEntry[] = GRID_MARKETS.flatMap((market) =>
  market.targets.flatMap(([expectedPrice, limit]) =>
    [12, 15, 18, 21, 24, 27].flatMap((exponent) =>
      [undefined, limit].map((priceLimit) => ({
        marketId: market.marketId,
        expectedPrice,
        collateralAvailable: E(exponent),
        ...(priceLimit === undefined ? {} : { priceLimit }),
        note: `${market.kind}, ${expectedPrice}${priceLimit === undefined ? "" : `, priceLimit ${priceLimit}`}, budget 10^${exponent}`,
      })),
    ),
  ),
);

/** The distances of the exact shapes' targets from the price, in parts per million, down to 100 ppm. */
const SHAPE_DISTANCES_PPM = [100, 300, 1_000, 10_000, 100_000, 400_000];
/** Budgets of the exact shapes: 10^10 to 10^25 wei, fifteen orders of magnitude. */
const SHAPE_BUDGET_EXPONENTS = [10, 13, 16, 19, 22, 25];

/** A decimal price `ppm` parts per million above (or below) `price` (a decimal of at most 6 fraction digits' scale). */
function shifted(price: bigint, ppm: number, up: boolean): string {
  const moved = (price * BigInt(1_000_000 + (up ? ppm : -ppm))) / 1_000_000n;
  const whole = moved / 10n ** 18n;
  const fraction = (moved % 10n ** 18n).toString().padStart(18, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * search=exact on every shape the demo's markets give: the deep, shallow and thin
 * markets and the 6-decimal group's, LONG and SHORT, at 100 ppm to 40% of the price, with budgets over fifteen orders of
 * magnitude (288 quotes); and the settled and the expired market, which no size fills. Prices are the markets' created
 * ones (0.5 and 1000): a test or bench on a demo whose trades moved a price places its targets from the price it reads.
 */
export function exactShapes(prices: { readonly [marketId: string]: bigint }): MixEntry[] {
  const markets: { group?: string; marketId: number; kind: string }[] = [
    { marketId: 1, kind: "deep" },
    { marketId: 2, kind: "shallow" },
    { marketId: 4, kind: "thin" },
    { group: "usdc", marketId: 1, kind: "6-decimal" },
  ];
  const entries: MixEntry[] = markets.flatMap(({ group, marketId, kind }) => {
    const price = prices[`${group ?? "main"}:${marketId}`]!;
    return [true, false].flatMap((up) =>
      SHAPE_DISTANCES_PPM.flatMap((ppm) =>
        SHAPE_BUDGET_EXPONENTS.map((exponent) => ({
          marketId,
          ...(group === undefined ? {} : { group }),
          expectedPrice: shifted(price, ppm, up),
          collateralAvailable: E(exponent),
          note: `${kind}, ${up ? "LONG" : "SHORT"}, ${ppm} ppm away, budget 10^${exponent}`,
        })),
      ),
    );
  });
  for (const marketId of [3, 5]) entries.push({ marketId, expectedPrice: "0.55", collateralAvailable: E(18), note: `market ${marketId}: no size fills` });
  return entries;
}

/**
 * The service path of an entry: `/quoter/31337/<market group>/<id>?expectedPrice=&collateralAvailable=`, with
 * `&search=exact` for the exact search, `&taker=` with a taker (semantics §12). `extraWei` is added to the budget: the bench makes every quote distinct
 * this way, so that the service's coalescing of identical in-flight requests never answers two quotes with one search.
 */
export function quotePath(entry: MixEntry, extraWei = 0, search: SearchMode = "bisection", taker?: string): string {
  const collateralAvailable = (BigInt(entry.collateralAvailable) + BigInt(extraWei)).toString();
  const query = new URLSearchParams({ expectedPrice: entry.expectedPrice, collateralAvailable });
  if (entry.priceLimit !== undefined) query.set("priceLimit", entry.priceLimit);
  // The default is left out, so that the bisection's paths stay those of earlier runs.
  if (search !== "bisection") query.set("search", search);
  if (taker !== undefined) query.set("taker", taker);
  return `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/${entry.marketId}?${query}`;
}

/**
 * The JSON-RPC body of the single-call search of an entry, as the service's viem client sends it: the
 * deployless calldata of `encodeSearch`, the default gas cap, at the latest block.
 */
export function bareSearchBody(entry: MixEntry, id = 0): string {
  const parsed = parseQuoteRequest(
    { chainId: String(DEVCHAIN_ID), marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: String(entry.marketId) },
    { expectedPrice: entry.expectedPrice, collateralAvailable: entry.collateralAvailable },
  );
  if (!parsed.ok) throw new Error(`bench mix entry does not parse: ${JSON.stringify(entry)}`);
  const call = { data: encodeSearch(parsed.value), gas: numberToHex(DEFAULT_SEARCH_GAS_CAP) };
  return JSON.stringify({ jsonrpc: "2.0", id, method: "eth_call", params: [call, "latest"] });
}
