// `npm run exact-edge [-- --base REF] [-- --rounds N] [-- --record FILE]`: search=exact before and after the price
// edge, side by side, on one embedded chain. The base commit (default: where this branch leaves main) is exported by
// `git archive` into a temporary directory and runs from there with this checkout's node_modules; both versions quote
// the same requests at the same block, the bench's exact workload (bench/workload.ts EXACT_WORKLOAD, 144 quotes) and
// the exact grid (EXACT_GRID, 288), interleaved (each request asked of one version then the other, which goes first
// alternating), on the single-call strategy. Per set and version: candidates per quote (median, nearest rank, and
// most), gas per exact answer (what a node charges for the searcher's deployless call: GasMeter, as `npm run gas`),
// and the in-process time of a quote (p50 over the rounds); and whether every answer is the same but for
// `iterations` and `trace`. `--record FILE` writes the base's answers (test/http/exactEdge.test.ts holds the
// service to them).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { marketGroupAbi } from "../src/generated/contracts.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { parseQuoteRequest, type QuoteRequest } from "../src/quote/request.ts";
import { meterDeployless, rpcClient } from "../scripts/measure-gas.ts";
import { percentile } from "./stats.ts";
import { EXACT_GRID, EXACT_WORKLOAD, exactShapes, type MixEntry } from "./workload.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const { values } = parseArgs({ options: { base: { type: "string" }, rounds: { type: "string", default: "3" }, record: { type: "string" } } });
const git = (args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
const base = values.base ?? git(["merge-base", "HEAD", "main"]);
const head = git(["rev-parse", "--short", "HEAD"]);
const rounds = Number(values.rounds);

/** What a version offers the bench: its quoter, and its searcher's call data. */
type Version = {
  readonly name: string;
  readonly quote: (request: QuoteRequest) => Promise<{ status: number; body: Record<string, unknown> }>;
  readonly encodeSearch: (request: QuoteRequest) => `0x${string}`;
};

async function load(name: string, root: string, url: string): Promise<Version> {
  const { createQuoter } = await import(path.join(root, "src/service/quoter.ts"));
  // Before the chain's rooms (rpc/, searchers/), a base had them in src/chain/ itself.
  const chainModule = (room: string, file: string) => path.join(root, "src/chain", existsSync(path.join(root, "src/chain", room)) ? room : "", file);
  const { createChainRegistry } = await import(chainModule("rpc", "client.ts"));
  const { encodeSearch } = await import(chainModule("searchers", "searcher.ts"));
  const { QuoteError } = await import(path.join(root, "src/quote/quoteErrors.ts"));
  const quoter = createQuoter({ chains: createChainRegistry(new Map([[DEVCHAIN_ID, [url]]]), { timeoutMs: 30_000 }), strategy: "single-call" });
  const quote = async (request: QuoteRequest) => {
    try {
      return { status: 200, body: (await quoter.quote(request)) as Record<string, unknown> };
    } catch (error) {
      if (!(error instanceof QuoteError)) throw error;
      const { trace, ...extra } = (error as { extra?: Record<string, unknown> }).extra ?? {};
      return { status: 400, body: { error: (error as Error).message, details: (error as { details: unknown }).details, ...extra, trace } };
    }
  };
  return { name, quote, encodeSearch };
}

function parse(entry: MixEntry): QuoteRequest {
  const query: Record<string, string> = { expectedPrice: entry.expectedPrice, collateralAvailable: entry.collateralAvailable, search: "exact", trace: "true" };
  if (entry.priceLimit !== undefined) query.priceLimit = entry.priceLimit;
  const marketAddress = entry.group === "usdc" ? DEMO_USDC_MARKET_GROUP_ADDRESS : DEMO_MARKET_GROUP_ADDRESS;
  const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress, marketId: String(entry.marketId) }, query);
  if (!parsed.ok) throw new Error(`does not parse: ${JSON.stringify(entry)}`);
  return parsed.value;
}

/** An answer as both versions must give it: everything but how it was searched. */
const comparable = ({ status, body }: { status: number; body: Record<string, unknown> }) => {
  const { iterations: _iterations, trace: _trace, ...rest } = body;
  return JSON.stringify({ status, ...rest });
};

type Measured = { candidates: number; gas: bigint; ms: number[]; answer: string; status: number; limitedBy?: unknown; yardstick?: number };

const directory = mkdtempSync(path.join(tmpdir(), "quoter-base-"));
const devchain = await startDevchain();
try {
  execFileSync("sh", ["-c", `git archive ${base} | tar -x -C ${directory}`], { cwd: ROOT });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(directory, "node_modules"));
  const url = devchain.endpoint.url;
  const client = rpcClient(url);
  const versions = [await load(`before (${base.slice(0, 7)})`, directory, url), await load(`after (${head})`, ROOT, url)];
  const price = (group: string, marketId: bigint) =>
    client.readContract({ address: group === "usdc" ? DEMO_USDC_MARKET_GROUP_ADDRESS : DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getReferencePrice", args: [marketId] });
  const shapes = exactShapes({ "main:1": await price("main", 1n), "main:2": await price("main", 2n), "main:4": await price("main", 4n), "usdc:1": await price("usdc", 1n) });
  const sets = { "exact workload": EXACT_WORKLOAD, "exact grid": EXACT_GRID, "exact shapes": shapes };
  const measured = new Map<string, Measured[][]>();
  for (const [set, entries] of Object.entries(sets)) {
    const rows = versions.map(() => [] as Measured[]);
    for (let round = 0; round < rounds; round++) {
      for (const [i, entry] of entries.entries()) {
        const request = parse(entry);
        const order = (i + round) % 2 === 0 ? [0, 1] : [1, 0];
        for (const v of order) {
          const started = performance.now();
          const answer = await versions[v]!.quote(request);
          const ms = performance.now() - started;
          if (round > 0) {
            rows[v]![i]!.ms.push(ms);
            continue;
          }
          const { gas } = await meterDeployless(client, versions[v]!.encodeSearch({ ...request, trace: false }));
          const trace = (answer.body.trace ?? []) as unknown[];
          const yardstick = v === 1 && answer.body.limitedBy === "collateral" ? await budgetYardstick(client, request, answer.body) : undefined;
          rows[v]![i] = { candidates: trace.length, gas, ms: [ms], answer: comparable(answer), status: answer.status, limitedBy: answer.body.limitedBy, ...(yardstick === undefined ? {} : { yardstick }) };
        }
      }
    }
    measured.set(set, rows);
  }
  if (values.record !== undefined) record(values.record, measured);
  report(measured, versions);
} finally {
  await devchain.close();
  rmSync(directory, { recursive: true, force: true });
}

/**
 * The base's answers, one line each: the request, and the answer but its block's hash (the demo chain's blocks are the
 * same on every start, but a change to the demo's deployment changes their hashes, not the answers).
 */
function record(file: string, measured: Map<string, Measured[][]>): void {
  // The recorded base answers are the workload's and the grid's (the shapes' depend on the demo's state too).
  const lines = [...EXACT_WORKLOAD, ...EXACT_GRID].map((entry, i) => {
    const [set, at] = i < EXACT_WORKLOAD.length ? ["exact workload", i] : ["exact grid", i - EXACT_WORKLOAD.length];
    const { blockHash: _hash, ...answer } = JSON.parse(measured.get(set)![0]![at]!.answer);
    const { marketId, expectedPrice, collateralAvailable, priceLimit } = entry;
    return JSON.stringify({ marketId, expectedPrice, collateralAvailable, ...(priceLimit === undefined ? {} : { priceLimit }), answer });
  });
  const answered = [...measured.values()].flatMap((rows) => rows[0]!).map((row) => JSON.parse(row.answer) as { blockNumber?: string });
  const { blockNumber } = answered.find((answer) => answer.blockNumber !== undefined)!;
  writeFileSync(file, `{"base":"${base}","blockNumber":"${blockNumber}","answers":[\n${lines.join(",\n")}\n]}\n`);
}

/**
 * A budget-bound answer's yardstick: the candidates an ideal search needs once it stands next to the edge, log2 of the
 * width of the plateau of requiredCollateral that ends at maxSize (the sizes needing what maxSize needs: where inside
 * it the edge lies is all the quotes can tell), plus the steps the search took before its first candidate within that
 * plateau's width of the edge (its approach).
 */
async function budgetYardstick(client: ReturnType<typeof rpcClient>, request: QuoteRequest, body: Record<string, unknown>): Promise<number> {
  const signed = BigInt(body.maxSize as string);
  const long = signed > 0n;
  const size = long ? signed : -signed;
  const required = async (s: bigint) => {
    const { result } = await client.simulateContract({ address: request.marketAddress, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [request.marketId, long ? s : -s] });
    return result[0];
  };
  const top = await required(size);
  // The plateau's start: doubling down from maxSize while the requirement stays, then halving.
  let width = 1n;
  while (width < size && (await required(size - width)) === top) width *= 2n;
  let inside = width / 2n;
  let outside = width < size ? width : size;
  while (outside - inside > 1n) {
    const middle = (inside + outside) / 2n;
    if ((await required(size - middle)) === top) inside = middle;
    else outside = middle;
  }
  const plateau = inside + 1n;
  const trace = (body.trace ?? []) as { size: string }[];
  const approach = trace.findIndex((entry) => {
    const s = BigInt(entry.size) < 0n ? -BigInt(entry.size) : BigInt(entry.size);
    return (s > size ? s - size : size - s) <= plateau;
  });
  return Math.ceil(Math.log2(Number(plateau) + 1)) + (approach < 0 ? trace.length : approach);
}

function report(measured: Map<string, Measured[][]>, versions: Version[]): void {
  const medianMax = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[(sorted.length - 1) >> 1]} / ${sorted.at(-1)}`;
  };
  const mean = (values: bigint[]) => values.reduce((a, b) => a + b, 0n) / BigInt(values.length);
  console.log(`search=exact before (${base.slice(0, 7)}) and after (${head}), ${rounds} round(s), one embedded chain, single-call`);
  console.log("| set | version | quotes | 200 (exact: true) | candidates median / most | price-bound | budget-bound | gas per exact answer (mean) | p50 ms |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [set, rows] of measured) {
    const gasBefore = mean(rows[0]!.filter((r) => r.status === 200).map((r) => r.gas));
    rows.forEach((row, v) => {
      const ok = row.filter((r) => r.status === 200);
      const exactTrue = ok.filter((r) => r.answer.includes('"exact":true')).length;
      const bound = (by: string) => medianMax(row.filter((r) => r.limitedBy === by).map((r) => r.candidates));
      const gas = mean(ok.map((r) => r.gas));
      const ratio = v === 0 ? "" : ` (${((100 * Number(gas)) / Number(gasBefore)).toFixed(0)}%)`;
      const p50 = percentile(row.flatMap((r) => r.ms).sort((a, b) => a - b), 50).toFixed(1);
      console.log(
        `| ${set} | ${versions[v]!.name} | ${row.length} | ${ok.length} (${exactTrue}) | ${medianMax(row.map((r) => r.candidates))} | ${bound("expectedPrice")} | ${bound("collateral")} | ${gas}${ratio} | ${p50} |`,
      );
    });
    const same = rows[0]!.filter((r, i) => r.answer === rows[1]![i]!.answer).length;
    console.log(`| ${set} | answers the same but for iterations and trace | ${same} of ${rows[0]!.length} | | | | | | |`);
  }
  // The yardsticks: a price-bound answer against 3 candidates (the edge read, the edge, one wei past it); a budget-bound
  // one against log2 of its last plateau's width plus its approach.
  console.log("\n| set (after) | price-bound candidates median / most (yardstick 3) | budget-bound candidates median / most | their yardstick median / most | over the yardstick |");
  console.log("|---|---|---|---|---|");
  for (const [set, rows] of measured) {
    const after = rows[1]!;
    const price = after.filter((r) => r.limitedBy === "expectedPrice").map((r) => r.candidates);
    const budget = after.filter((r) => r.yardstick !== undefined);
    const over = budget.filter((r) => r.candidates > r.yardstick!).length;
    console.log(`| ${set} | ${medianMax(price)} | ${medianMax(budget.map((r) => r.candidates))} | ${medianMax(budget.map((r) => r.yardstick!))} | ${over} of ${budget.length} |`);
  }
}
