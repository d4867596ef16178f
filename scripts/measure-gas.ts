// `npm run gas`: the gas of a single-call search on each demo market, on a fresh embedded chain: what a node
// charges for the same deployless call the service makes (the searcher's execution, measured by
// contracts/test/GasMeter.sol since the searcher always reverts, plus the call's intrinsic gas), and the gas
// each candidate's quote used. First the 10-candidate bisection, then the searcher's call data for the same
// request with search=exact, beside what the service answers to it (the exact search's course, call by call):
// whatever the searcher runs for that call data is what is measured. Last, single quotes on one liquidity range and
// across initialized ticks.
import { createPublicClient, decodeErrorResult, encodeDeployData, encodeFunctionData, hexToBytes, http, type Hex, type PublicClient } from "viem";
import { createChainRegistry } from "../src/chain/rpc/client.ts";
import { classifyCallError } from "../src/chain/rpc/chainErrors.ts";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_MARKETS } from "../src/devchain/demo.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { decodeFacts, encodeSearch } from "../src/chain/searchers/searcher.ts";
import { gasMeterAbi, gasMeterBytecode, marketGroupAbi } from "../src/generated/contracts.ts";
import { QuoteError } from "../src/quote/quoteErrors.ts";
import { statusOf } from "../src/http/httpErrors.ts";
import { parseQuoteRequest, type QuoteRequest } from "../src/quote/request.ts";
import { createQuoter } from "../src/service/quoter.ts";

export interface SearchGas {
  readonly group: string;
  readonly marketId: bigint;
  readonly request: string;
  /** Intrinsic gas of the deployless call plus the searcher's execution. */
  readonly gas: bigint;
  readonly candidates: number;
  /** Gas each candidate's quote used, in search order. */
  readonly candidateGas: readonly bigint[];
}

/** The searcher's call data for search=exact, measured, beside the exact search the service runs. */
export interface ExactSearchGas extends SearchGas {
  /** The service's answer to the request (sequential strategy): how the exact search runs its course. */
  readonly course: string;
  /** Whether the searcher quoted the service's exact candidates, size for size and in order. */
  readonly searcherRanExact: boolean;
  /** Whether `encodeSearch` gave the exact request the bisection's very call data. */
  readonly sameCallDataAsBisection: boolean;
}

/** A transaction's intrinsic gas for creation code `data`: base, creation, calldata, and initcode words. */
function intrinsicCreationGas(data: Hex): bigint {
  const bytes = hexToBytes(data);
  const calldata = bytes.reduce((sum, byte) => sum + (byte === 0 ? 4n : 16n), 0n);
  return 21_000n + 32_000n + calldata + 2n * BigInt(Math.ceil(bytes.length / 32));
}

/** Runs `measure` against `url`, or against a fresh embedded chain when none is given. */
async function onChain<T>(url: string | undefined, measure: (url: string) => Promise<T>): Promise<T> {
  if (url !== undefined) return measure(url);
  const devchain = await startDevchain();
  try {
    return await measure(devchain.endpoint.url);
  } finally {
    await devchain.close();
  }
}

/** Each demo market's example request (10 candidates for the bisection), parsed as the service parses it. */
function demoRequests(): { market: (typeof DEMO_MARKETS)[number]; query: Record<string, string>; request: QuoteRequest }[] {
  return DEMO_MARKETS.map((market) => {
    const query = { ...market.example, maxIterations: "10" };
    const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress: market.group, marketId: String(market.id) }, query);
    if (!parsed.ok) throw parsed.error;
    return { market, query, request: parsed.value };
  });
}

/**
 * What a node charges for the deployless call `search` (its intrinsic gas and the creation's execution), and what
 * the creation answered (a searcher's revert data).
 */
export async function meterDeployless(client: PublicClient, search: Hex): Promise<{ gas: bigint; answer: Hex }> {
  const data = encodeDeployData({ abi: gasMeterAbi, bytecode: gasMeterBytecode, args: [search] });
  const answer = await client.call({ data, gas: 60_000_000n }).then(
    () => ({ kind: "transport" }) as const,
    (error: unknown) => classifyCallError(error),
  );
  if (answer.kind !== "reverted") throw new Error("the gas meter did not answer with its measurement");
  const measured = decodeErrorResult({ abi: gasMeterAbi, data: answer.data });
  if (measured.errorName !== "Measured") throw new Error("the gas meter did not measure");
  const [used, , facts] = measured.args;
  return { gas: intrinsicCreationGas(search) - 32_000n + used, answer: facts };
}

/** The gas of the deployless call `search` and the searcher's facts, as a node charges and answers it. */
async function meter(client: PublicClient, search: Hex) {
  const { gas, answer } = await meterDeployless(client, search);
  const { candidates } = decodeFacts({ success: false, data: answer });
  return {
    gas,
    candidates: candidates.length,
    candidateGas: candidates.map((candidate) => candidate.gasUsed),
    sizes: candidates.map((candidate) => candidate.size.toString()),
  };
}

/** Over JSON-RPC, as the service asks: the searcher's revert reads as it does in production. */
export const rpcClient = (url: string) => createPublicClient({ transport: http(url, { retryCount: 0 }) }) as PublicClient;

/** The 10-candidate bisection on each demo market; `url`: a demo chain already running (else a fresh one). */
export async function measureSearchGas(url?: string): Promise<SearchGas[]> {
  return onChain(url, async (endpoint) => {
    const client = rpcClient(endpoint);
    const rows: SearchGas[] = [];
    for (const { market, query, request } of demoRequests()) {
      const { gas, candidates, candidateGas } = await meter(client, encodeSearch(request));
      rows.push({ group: market.group, marketId: market.id, request: new URLSearchParams(query).toString(), gas, candidates, candidateGas });
    }
    return rows;
  });
}

/**
 * The searcher's call data for each demo market's example request with search=exact (`encodeSearch`, the
 * default maximum of exact candidates), measured like the bisection; beside it the service's own answer to the
 * same request, quoted call by call, whose trace says which candidates the exact search quotes and how it ends.
 */
export async function measureExactSearchGas(url?: string): Promise<ExactSearchGas[]> {
  return onChain(url, async (endpoint) => {
    const client = rpcClient(endpoint);
    const quoter = createQuoter({ chains: createChainRegistry(new Map([[DEVCHAIN_ID, [endpoint]]]), { timeoutMs: 10_000 }), strategy: "sequential" });
    const rows: ExactSearchGas[] = [];
    for (const { market, query, request } of demoRequests()) {
      const exact: QuoteRequest = { ...request, search: "exact" };
      const search = encodeSearch(exact);
      const { gas, candidates, candidateGas, sizes } = await meter(client, search);
      const answer = await exactAnswer(quoter, exact);
      rows.push({
        group: market.group,
        marketId: market.id,
        request: new URLSearchParams({ ...query, search: "exact" }).toString(),
        gas,
        candidates,
        candidateGas,
        course: answer.course,
        searcherRanExact: sizes.join() === answer.sizes.join(),
        sameCallDataAsBisection: search === encodeSearch(request),
      });
    }
    return rows;
  });
}

/** The service's exact answer in words, and the sizes its search quoted (its trace). */
async function exactAnswer(quoter: ReturnType<typeof createQuoter>, request: QuoteRequest): Promise<{ course: string; sizes: string[] }> {
  const sizesOf = (trace: unknown) => ((trace ?? []) as { size: string }[]).map((entry) => entry.size);
  try {
    const body = (await quoter.quote({ ...request, trace: true })) as { iterations: number; exact: boolean; upperBound?: string; trace: unknown };
    const bound = body.exact ? "proven" : `not proven, upperBound ${body.upperBound}`;
    return { course: `200 after ${body.iterations} candidates, ${bound}`, sizes: sizesOf(body.trace) };
  } catch (error) {
    if (!(error instanceof QuoteError)) throw error;
    return { course: `${statusOf(error)} ${error.message}`, sizes: sizesOf(error.extra?.trace) };
  }
}

/** One quote's gas on a demo market, and how many of its initialized ticks the swap crossed. */
export interface CandidateGas {
  readonly marketId: bigint;
  readonly size: bigint;
  /** Execution gas of quoteCreateTraderPosition called alone (the call's gasUsed less its intrinsic gas). */
  readonly gas: bigint;
  readonly ticksCrossed: number;
}

/**
 * The gas of single quotes on market 1 (three liquidity ranges: four initialized ticks inside the range besides its
 * ends) for sizes that stay inside the inner ranges and sizes that cross one or two of their bounds each way, and on
 * market 2 (one range): what one candidate costs on one range and across ticks. Measured with debug_traceCall.
 */
export async function measureCandidateGas(url?: string): Promise<CandidateGas[]> {
  return onChain(url, async (endpoint) => {
    const client = rpcClient(endpoint);
    const cases: [bigint, bigint][] = [
      [1n, 10n ** 21n], [1n, 2n * 10n ** 23n], [1n, 35n * 10n ** 22n], [1n, -(10n ** 21n)], [1n, -2n * 10n ** 23n], [1n, -4n * 10n ** 23n],
      [2n, 10n ** 16n], [2n, -(10n ** 16n)],
    ];
    const rows: CandidateGas[] = [];
    for (const [marketId, size] of cases) {
      const args = [marketId, size] as const;
      const data = encodeFunctionData({ abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args });
      const trace = (await client.request({ method: "debug_traceCall", params: [{ to: DEMO_MARKET_GROUP_ADDRESS, data }, "latest", { tracer: "callTracer" }] } as never)) as { gasUsed: Hex; error?: string };
      if (trace.error !== undefined) throw new Error(`the quote of ${size} on market ${marketId} reverted: ${trace.error}`);
      const { result: [, , priceAfter] } = await client.simulateContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args });
      const price = await client.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getReferencePrice", args: [marketId] });
      const ranges = await client.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getLiquidityRanges", args: [marketId] });
      const [low, high] = priceAfter > price ? [price, priceAfter] : [priceAfter, price];
      const ticks = ranges.flatMap((r) => [r.sqrtLowerX96, r.sqrtUpperX96]).map((sqrt) => (sqrt * sqrt * 10n ** 18n) >> 192n);
      const intrinsic = intrinsicCallGas(data);
      rows.push({ marketId, size, gas: BigInt(trace.gasUsed) - intrinsic, ticksCrossed: ticks.filter((t) => t > low && t < high).length });
    }
    return rows;
  });
}

/** A call's intrinsic gas: base and call data. */
function intrinsicCallGas(data: Hex): bigint {
  return hexToBytes(data).reduce((sum, byte) => sum + (byte === 0 ? 4n : 16n), 21_000n);
}

/** One line per measurement, as `npm run gas` prints it. */
export function gasLine(row: SearchGas | ExactSearchGas): string {
  const perCandidate = row.candidateGas.length ? `, per candidate ${row.candidateGas.join(" ")}` : "";
  const head = `group ${row.group} market ${row.marketId}${"course" in row ? ", search=exact" : ""}: ${row.gas} gas, ${row.candidates} candidates${perCandidate}`;
  if (!("course" in row)) return `${head}  (${row.request})`;
  return `${head}  (${row.request}; the service's exact search: ${row.course}; the searcher quoted ${searcherQuoted(row)})`;
}

/** What the searcher quoted for the exact request, against the service's exact search. */
export function searcherQuoted(row: ExactSearchGas): string {
  if (row.searcherRanExact) return row.candidates === 0 ? "no candidate, like the exact search" : "the exact search's candidates";
  return `other candidates than the exact search's${row.sameCallDataAsBisection ? " (its call data is the bisection's)" : ""}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await onChain(undefined, async (url) => {
    for (const row of await measureSearchGas(url)) console.log(gasLine(row));
    for (const row of await measureExactSearchGas(url)) console.log(gasLine(row));
    for (const row of await measureCandidateGas(url)) {
      console.log(`market ${row.marketId}, one quote of ${row.size}: ${row.gas} gas, ${row.ticksCrossed} initialized ticks crossed`);
    }
  });
}
