// The bench's liquidity workload (semantics §14): new liquidity positions on market 1 of both demo groups, over four
// ranges (the market's whole range, a narrow one around the price, one entirely above it and one entirely below) and
// budgets from 0.01 token to 10^6 tokens. Each answer is asked of the single-call service and the sequential one
// (the same bytes, or a failure), then timed one at a time at the proxy's delay, round after round. It reports the
// candidates per answer, the gas of the single-call searcher's one eth_call (GasMeter, as `npm run gas` measures the
// trader searches), the p50 per strategy with the JSON-RPC requests per answer, and what LPs care about: how often
// the group's own quote (quoteLiquidityPositionTokens) reverts when minted with the budget, leaves part of it unused,
// or is the largest.
import { createPublicClient, http, type Hex, type PublicClient } from "viem";
import { encodeLiquiditySearch } from "../src/chain/searchers/liquiditySearcher.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../src/devchain/demoMarkets.ts";
import { D18, formatD18, parseDecimalD18 } from "../src/quote/fixedPoint.ts";
import { parseLiquidityRequest } from "../src/quote/liquidityRequest.ts";
import { meterDeployless } from "../scripts/measure-gas.ts";
import { summarize, type LatencySummary } from "./stats.ts";

type Proxy = { setDelay(ms: number): Promise<void>; reset(): Promise<void>; counters(): Promise<{ rpcRequests: number }> };
type Strategy = "single-call" | "sequential";

const GROUPS = [DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS] as const;
const MARKET_ID = "1";
/** 0.01, 1, 100, 10^4 and 10^6 tokens, in 18-decimal wei whatever the token (semantics §10). */
const BUDGETS: readonly bigint[] = [D18 / 100n, D18, 100n * D18, 10n ** 4n * D18, 10n ** 6n * D18];

/** A range as the query asks it: each bound a decimal price, or absent (the market's own). */
type Range = { readonly name: string; readonly lowerPrice?: string; readonly upperPrice?: string };

/** Scaled by `percent` / 100, rounded down: a price near `price` (18-decimal text). */
function scaled(price: string, percent: bigint): string {
  const parsed = parseDecimalD18(price);
  if (!parsed.ok) throw new Error(`not a price: ${price}`);
  return formatD18((parsed.value * percent) / 100n);
}

/** The four ranges about the market's current price `price`. */
function rangesAround(price: string): readonly Range[] {
  return [
    { name: "whole market" },
    { name: "narrow, around the price", lowerPrice: scaled(price, 98n), upperPrice: scaled(price, 102n) },
    { name: "above the price", lowerPrice: scaled(price, 120n), upperPrice: scaled(price, 160n) },
    { name: "below the price", lowerPrice: scaled(price, 40n), upperPrice: scaled(price, 80n) },
  ];
}

type Ask = { readonly group: string; readonly range: Range; readonly budget: bigint };

const queryOf = ({ range, budget }: Ask, extra: bigint): Record<string, string> => ({
  collateralAvailable: (budget + extra).toString(),
  ...(range.lowerPrice === undefined ? {} : { lowerPrice: range.lowerPrice }),
  ...(range.upperPrice === undefined ? {} : { upperPrice: range.upperPrice }),
});
const pathOf = (ask: Ask, extra: bigint) => `/quoter/31337/${ask.group}/${MARKET_ID}/liquidity?${new URLSearchParams(queryOf(ask, extra))}`;

/** What the group's own quote does with the budget, beside the answer. */
type GroupVerdict = "reverts" | "leaves collateral unused" | "the largest" | "quote reverts";

type Answer = { liquidity: string; candidates: number; groupQuote: { liquidity: string; fits: boolean } | null };

function verdictOf(answer: Answer): GroupVerdict {
  if (answer.groupQuote === null) return "quote reverts";
  if (!answer.groupQuote.fits) return "reverts";
  return BigInt(answer.groupQuote.liquidity) < BigInt(answer.liquidity) ? "leaves collateral unused" : "the largest";
}

export interface LiquidityResult {
  readonly delayMs: number;
  readonly answers: number;
  readonly rounds: number;
  readonly candidates: { readonly median: number; readonly max: number };
  readonly gas: { readonly median: bigint; readonly max: bigint };
  /** Per strategy timed (the quick run times the single call alone: the sequential one takes some 20 requests an answer). */
  readonly latency: Partial<Record<Strategy, LatencySummary>>;
  readonly rpcRequestsPerAnswer: Partial<Record<Strategy, number>>;
  /** Per budget (tokens), how the group's own quote fares on the four ranges and both groups. */
  readonly groupQuote: readonly { readonly budget: string; readonly verdicts: Record<GroupVerdict, number> }[];
}

const median = <T>(sorted: readonly T[]): T => sorted[Math.floor((sorted.length - 1) / 2)]!;

/** The workload's asks: every group, range and budget (the ranges from each group's price now). */
async function asks(url: string): Promise<Ask[]> {
  const all: Ask[] = [];
  for (const group of GROUPS) {
    const response = await fetch(`${url}/quoter/31337/${group}/${MARKET_ID}/liquidity?collateralAvailable=${D18}`);
    const { currentPrice } = (await response.json()) as { currentPrice: string };
    for (const range of rangesAround(currentPrice)) for (const budget of BUDGETS) all.push({ group, range, budget });
  }
  return all;
}

/** The gas a node charges for the single-call searcher's one eth_call answering `ask`. */
async function searchGas(client: PublicClient, ask: Ask): Promise<bigint> {
  const parsed = parseLiquidityRequest({ chainId: "31337", marketAddress: ask.group, marketId: MARKET_ID }, queryOf(ask, 0n));
  if (!parsed.ok) throw new Error(`the bench's own ask is refused: ${pathOf(ask, 0n)}`);
  return (await meterDeployless(client, encodeLiquiditySearch(parsed.value) as Hex)).gas;
}

/** The workload against `urls` at `delayMs` (the chain at `nodeUrl` for the gas); a difference between the strategies, or a single call of more than one request, is a failure. */
export async function liquidityWorkload(
  proxy: Proxy,
  urls: Record<Strategy, string>,
  nodeUrl: string,
  timed: { readonly delayMs: number; readonly rounds: number; readonly strategies: readonly Strategy[] },
  failures: string[],
): Promise<LiquidityResult> {
  const { delayMs, rounds } = timed;
  await proxy.setDelay(0);
  const client = createPublicClient({ transport: http(nodeUrl, { retryCount: 0 }) }) as PublicClient;
  const workload = await asks(urls["single-call"]);
  const candidates: number[] = [];
  const gas: bigint[] = [];
  const groupQuote = BUDGETS.map((budget) => ({ budget: formatD18(budget), verdicts: { reverts: 0, "leaves collateral unused": 0, "the largest": 0, "quote reverts": 0 } }));
  for (const ask of workload) {
    const path = pathOf(ask, 0n);
    const [single, sequential] = await Promise.all([fetch(`${urls["single-call"]}${path}`), fetch(`${urls.sequential}${path}`)]);
    const [a, b] = [await single.text(), await sequential.text()];
    if (single.status !== 200 || a !== b) {
      failures.push(`liquidity: ${path} answered ${single.status} (single-call) and ${sequential.status}, ${a === b ? "alike" : "differently"}`);
      continue;
    }
    const answer = JSON.parse(a) as Answer;
    candidates.push(answer.candidates);
    gas.push(await searchGas(client, ask));
    groupQuote[BUDGETS.indexOf(ask.budget)]!.verdicts[verdictOf(answer)] += 1;
  }
  await proxy.setDelay(delayMs);
  const latency: Partial<Record<Strategy, LatencySummary>> = {};
  const rpcRequestsPerAnswer: Partial<Record<Strategy, number>> = {};
  for (const strategy of timed.strategies) {
    const samples: number[] = [];
    await proxy.reset();
    for (let round = 1; round <= rounds; round++) {
      for (const ask of workload) {
        const started = performance.now();
        await (await fetch(`${urls[strategy]}${pathOf(ask, BigInt(round))}`)).text();
        samples.push(performance.now() - started);
      }
    }
    latency[strategy] = summarize(samples);
    rpcRequestsPerAnswer[strategy] = (await proxy.counters()).rpcRequests / samples.length;
  }
  await proxy.setDelay(0);
  if (rpcRequestsPerAnswer["single-call"] !== undefined && rpcRequestsPerAnswer["single-call"] !== 1) failures.push(`liquidity: single-call ${rpcRequestsPerAnswer["single-call"]} RPC requests per answer, not 1`);
  const sortedCandidates = [...candidates].sort((x, y) => x - y);
  const sortedGas = [...gas].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return {
    delayMs,
    answers: workload.length,
    rounds,
    candidates: { median: median(sortedCandidates), max: sortedCandidates.at(-1) ?? 0 },
    gas: { median: median(sortedGas), max: sortedGas.at(-1) ?? 0n },
    latency,
    rpcRequestsPerAnswer,
    groupQuote,
  };
}

/** The workload's lines for the console and RESULTS.md. */
export function renderLiquidityLines(result: LiquidityResult | undefined): string {
  if (result === undefined) return "";
  const cell = (strategy: Strategy) => {
    const latency = result.latency[strategy];
    const requests = result.rpcRequestsPerAnswer[strategy];
    if (latency === undefined || requests === undefined) return [];
    return [`- ${strategy} p50 ${latency.p50.toFixed(1)} ms (p99 ${latency.p99.toFixed(1)}), ${requests.toFixed(2)} RPC requests per answer`];
  };
  const perBudget = result.groupQuote.map(({ budget, verdicts }) => `| ${budget} | ${verdicts.reverts} | ${verdicts["leaves collateral unused"]} | ${verdicts["the largest"]} | ${verdicts["quote reverts"]} |`);
  return [
    `### New liquidity positions (${result.answers} answers: 4 ranges × 5 budgets × 2 groups, ${result.rounds} round${result.rounds === 1 ? "" : "s"} timed, ${result.delayMs} ms per RPC request)`,
    "",
    `- candidates per answer: median ${result.candidates.median}, most ${result.candidates.max}`,
    `- gas of the single-call searcher's eth_call per answer: median ${result.gas.median}, most ${result.gas.max}`,
    ...cell("single-call"),
    ...cell("sequential"),
    "",
    "The group's own quote (quoteLiquidityPositionTokens) for the budget, minted with it (of 8 ranges and groups per budget):",
    "",
    "| budget (tokens) | reverts InsufficientCollateral | leaves collateral unused | the largest | the quote itself reverts |",
    "|---|---|---|---|---|",
    ...perBudget,
  ].join("\n");
}
