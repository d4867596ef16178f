// Semantics §7: gas never decides an answer. On a market whose quotes cost millions of gas (fragmented
// liquidity), a single-call search under a small gas cap continues at the same block in further calls, a
// candidate no whole call can fund is quoted alone, and the answer is byte for byte the sequential one.
// Semantics §1: the same execution failure, in any node's words, is a revert.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import fc from "fast-check";
import { createPublicClient, decodeFunctionData, formatUnits, http, type Address, type Hex } from "viem";
import { decodeFacts, encodeSearch } from "../../src/chain/searchers/searcher.ts";
import { classifyCallError } from "../../src/chain/rpc/chainErrors.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { createLogger } from "../../src/observability/logger.ts";
import { parseQuoteRequest } from "../../src/quote/request.ts";
import type { SearchStrategy } from "../../src/service/quoter.ts";
import { quoterApp } from "../support/quoterHarness.ts";
import { deployFragmentedMarketGroup, GAS_PER_TICK, ticksCrossed, type Fragmentation } from "../support/fragmentedMarketGroup.ts";
import { quoteRequests, rpcError, startRpcProxy, type JsonRpcRequest, type RpcProxy, type RpcProxyOptions } from "../support/rpcProxy.ts";
import { meterDeployless } from "../../scripts/measure-gas.ts";

/** JSON-RPC answers of the devchain, anvil and ganache recorded on the same state (semantics §1). */
const recorded = JSON.parse(readFileSync(new URL("../fixtures/node-error-bodies.json", import.meta.url), "utf8")) as {
  cases: Record<string, Record<string, { body: { error: Record<string, unknown> } }>>;
};
const E18 = 10n ** 18n;
/**
 * A cap that holds a whole light search (the exact search's 32 candidates on a demo market's v3 pool, checked in
 * `before` against the gas the demo markets' candidates use) but not one heavy candidate.
 */
const CAP = 7_000_000n;
/** Up to 4,000 ticks: one large candidate needs about 8.8M gas, more than the cap; a search 10M and more. */
const FRAGMENTATION: Fragmentation = { sizePerTick: 10n ** 14n, baseTicks: 50n, maxTicks: 4_000n };
/** Gas of a candidate besides its ticks: the quote itself on the v3 pool and the calls around it (a generous bound, checked in `before`). */
const CANDIDATE_OVERHEAD = 200_000n;

let devchain: Devchain;
let fragmented: Address;
before(async () => {
  devchain = await startDevchain();
  fragmented = await deployFragmentedMarketGroup(devchain.chain, devchain.marketGroup, FRAGMENTATION);
  // What a candidate costs on the demo markets (reverting ones included), from the searcher's own measurement.
  const client = createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0 }) });
  let heaviest = 0n;
  for (const [marketId, expectedPrice] of [["1", "0.55"], ["2", "1030"], ["4", "0.59"]] as const) {
    const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress: devchain.marketGroup, marketId }, { expectedPrice, collateralAvailable: "1000000000000000000000" });
    if (!parsed.ok) throw parsed.error;
    const { answer } = await meterDeployless(client as never, encodeSearch(parsed.value));
    for (const candidate of decodeFacts({ success: false, data: answer }).candidates) heaviest = candidate.gasUsed > heaviest ? candidate.gasUsed : heaviest;
  }
  assert.ok(heaviest > 0n && heaviest + 20_000n <= CANDIDATE_OVERHEAD, `a candidate uses ${heaviest} gas`);
  assert.ok(32n * heaviest + 300_000n <= CAP, "the cap holds an exact search of 32 light candidates");
});
after(() => devchain.close());

const appFor = (url: string, strategy: SearchStrategy, searchGasCap?: bigint) =>
  quoterApp({ rpc: url, strategy, searchGasCap, timeoutMs: 30_000, deadlineMs: 120_000, probe: true });

async function withProxy<T>(options: RpcProxyOptions, run: (proxy: RpcProxy) => Promise<T>): Promise<T> {
  const proxy = await startRpcProxy(devchain.endpoint.url, options);
  try {
    return await run(proxy);
  } finally {
    await proxy.close();
  }
}

/** The plain eth_calls of quoteCreateTraderPosition a proxy saw: the candidates quoted alone, with their block. */
function plainQuotes(requests: readonly JsonRpcRequest[]): { size: bigint; block: string }[] {
  return requests.flatMap((request) => {
    const [call, pin] = (request.params ?? []) as [{ to?: string; data?: Hex; input?: Hex } | undefined, { blockHash: string } | undefined];
    const data = call?.data ?? call?.input;
    if (request.method !== "eth_call" || !call?.to || !data || pin === undefined) return [];
    const block = pin.blockHash;
    try {
      const decoded = decodeFunctionData({ abi: marketGroupAbi, data });
      return decoded.functionName === "quoteCreateTraderPosition" ? [{ size: decoded.args[1], block }] : [];
    } catch {
      return []; // a read of the collateral (not in the market group's own ABI)
    }
  });
}

type Tally = { light: number; heavy: number; multiCall: number; statuses: Map<number, number> };

/**
 * `numRuns` random requests, light and heavy, with `search`, under SEARCH_GAS_CAP: byte-identical to sequential,
 * one request per light quote, and for a heavy one between what its candidates' gas needs and a bound near twice it.
 */
async function gasBoundedProperty(search: "bisection" | "exact", numRuns: number, seed: number): Promise<Tally> {
  return withProxy({}, async (proxy) => {
      const single = await appFor(proxy.url, "single-call", CAP);
      const sequential = await appFor(devchain.endpoint.url, "sequential");
      const prices = new Map([[1n, E18 / 2n], [2n, 1000n * E18], [4n, E18 / 2n]]);
      const near = (price: bigint) => fc.bigInt({ min: -400_000n, max: 400_000n }).map((ppm) => price + (price * ppm) / 1_000_000n);
      const tally: Tally = { light: 0, heavy: 0, multiCall: 0, statuses: new Map<number, number>() };
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            heavy: fc.boolean(),
            marketId: fc.constantFrom(1n, 2n, 2n, 4n),
            collateral: fc.tuple(fc.integer({ min: 12, max: 24 }), fc.bigInt({ min: 1n, max: 9n })).map(([e, m]) => m * 10n ** BigInt(e)),
            maxIterations: fc.integer({ min: 1, max: 10 }),
          }).chain((r) => fc.record({ request: fc.constant(r), expected: near(prices.get(r.marketId)!), limit: fc.option(near(prices.get(r.marketId)!), { nil: undefined, freq: 3 }) })),
          async ({ request, expected, limit }) => {
            const group = request.heavy ? fragmented : devchain.marketGroup;
            const query = new URLSearchParams({
              expectedPrice: formatUnits(expected, 18),
              collateralAvailable: request.collateral.toString(),
              maxIterations: String(request.maxIterations),
              trace: "true",
            });
            if (search === "exact") query.set("search", "exact");
            if (limit !== undefined) query.set("priceLimit", formatUnits(limit, 18));
            const url = `/quoter/${DEVCHAIN_ID}/${group}/${request.marketId}?${query}`;
            const before = quoteRequests(proxy.methods).length;
            const a = await single.inject({ url });
            const requests = quoteRequests(proxy.methods).length - before;
            const b = await sequential.inject({ url });
            assert.equal(a.statusCode, b.statusCode, `${url}\n${a.body}\n${b.body}`);
            assert.equal(a.body, b.body, url);
            tally.statuses.set(a.statusCode, (tally.statuses.get(a.statusCode) ?? 0) + 1);
            const trace: { size: string }[] = a.json().trace ?? [];
            if (!request.heavy) {
              tally.light++;
              assert.equal(requests, 1, `a light quote takes one request: ${url}`);
              return;
            }
            tally.heavy++;
            const ticks = trace.map(({ size }) => ticksCrossed(FRAGMENTATION, BigInt(size)));
            // A candidate quoted alone uses the node's own cap: at most one request each, however heavy.
            const least = ticks.reduce((sum, t) => sum + (t * 2_100n < CAP ? t * 2_100n : CAP), 0n);
            const most = ticks.reduce((sum, t) => sum + t * GAS_PER_TICK + CANDIDATE_OVERHEAD, 0n);
            const tooHeavyForOneCall = ticks.filter((t) => (t * GAS_PER_TICK * 4n) / 3n > CAP).length;
            const calls = (gas: bigint, per: bigint) => Number((gas + per - 1n) / per);
            assert.ok(requests >= Math.max(1, calls(least, CAP)), `${requests} requests for at least ${least} gas: ${url}`);
            assert.ok(requests <= 1 + 2 * calls((most * 4n) / 3n, CAP / 2n) + 2 * tooHeavyForOneCall, `${requests} requests for at most ${most} gas: ${url}`);
            if (requests > 1) tally.multiCall++;
          },
        ),
        { numRuns, seed },
      );
      await single.close();
      await sequential.close();
      return tally;
  });
}

describe("a search heavier than the gas cap (semantics §7)", () => {
  test(`SEARCH_GAS_CAP=${CAP}: 100 random requests, light and heavy, byte-identical to sequential; one request per light quote, about gas/cap per heavy one`, async () => {
    const tally = await gasBoundedProperty("bisection", 100, 10);
    assert.ok(tally.light >= 30 && tally.heavy >= 30, JSON.stringify({ light: tally.light, heavy: tally.heavy }));
    assert.ok(tally.multiCall >= 15, `too few searches needed more than one call: ${tally.multiCall}`);
    assert.ok((tally.statuses.get(200) ?? 0) >= 25, JSON.stringify([...tally.statuses]));
  });

  test(`search=exact, SEARCH_GAS_CAP=${CAP}: 100 random requests resume the exact search on chain from its state, byte-identical to sequential`, async () => {
    const tally = await gasBoundedProperty("exact", 100, 11);
    assert.ok(tally.light >= 10 && tally.heavy >= 10, JSON.stringify({ light: tally.light, heavy: tally.heavy }));
    assert.ok(tally.multiCall >= 8, `too few searches needed more than one call: ${tally.multiCall}`);
    assert.ok((tally.statuses.get(200) ?? 0) >= 15, JSON.stringify([...tally.statuses]));
  });

  test("a candidate that needs more gas than a whole call is quoted alone at the pinned block, never read as too large", async () => {
    // Market 1 (price 0.5): with a budget of 10^21 the first candidates cross all 4,000 ticks, about 8.8M gas each.
    const url = `/quoter/${DEVCHAIN_ID}/${fragmented}/1?expectedPrice=0.55&collateralAvailable=1000000000000000000000&trace=true`;
    const sequential = await appFor(devchain.endpoint.url, "sequential");
    const expected = await sequential.inject({ url });
    assert.equal(expected.statusCode, 200, expected.body);
    await withProxy({}, async (proxy) => {
      const single = await appFor(proxy.url, "single-call", CAP);
      proxy.clear();
      const answer = await single.inject({ url });
      assert.equal(answer.body, expected.body);
      const body = answer.json() as { blockHash: string; trace: { size: string; outcome: string }[] };
      const alone = plainQuotes(proxy.requests);
      assert.ok(alone.length >= 1, "some candidate was quoted alone");
      for (const { size, block } of alone) {
        assert.equal(block, body.blockHash, "at the block every other read was pinned to, named by its hash");
        assert.ok(ticksCrossed(FRAGMENTATION, size) * GAS_PER_TICK > CAP, `only a candidate too heavy for a call: ${size}`);
        const entry = body.trace.find((candidate) => BigInt(candidate.size) === size);
        assert.ok(entry && entry.outcome !== "reverted", `the heavy candidate ${size} was quoted, not read as too large`);
      }
      await single.close();
    });
    await sequential.close();
  });

  test("on chain, a candidate starved of gas is not recorded; given enough, it is", async () => {
    const parsed = parseQuoteRequest(
      { chainId: String(DEVCHAIN_ID), marketAddress: fragmented, marketId: "1" },
      { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" },
    );
    assert.ok(parsed.ok);
    const data = encodeSearch(parsed.value);
    const client = createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0 }) });
    const factsWith = async (gas: bigint) =>
      decodeFacts(await client.call({ data, gas }).then(
        () => assert.fail("the searcher always reverts with its facts"),
        (error: unknown) => {
          const failure = classifyCallError(error);
          assert.equal(failure.kind, "reverted");
          return { success: false, data: (failure as { data: Hex }).data };
        },
      ));
    const starved = await factsWith(CAP);
    assert.equal(starved.priceRead, true);
    assert.equal(starved.candidates.length, 0, "the first candidate needs ~8.8M gas: starved under the cap, so not recorded");
    const funded = await factsWith(30_000_000n);
    assert.ok(funded.candidates.length >= 3);
    const first = funded.candidates[0]!;
    assert.equal(first.success, true, "with the gas it needs, the same candidate is quoted");
    assert.ok(first.gasUsed > ticksCrossed(FRAGMENTATION, first.size) * 2_100n, `measured ${first.gasUsed}`);
  });
});

describe("an execution failure in any node's words is a revert (semantics §1)", () => {
  const isQuote = (request: JsonRpcRequest) => plainQuotes([request]).length === 1;

  for (const name of ["out of gas in execution (gas 0x7530, quote m1 1e18)", "INVALID opcode 0xfe (odd m2 SHORT)"]) {
    test(`${name}: anvil's body (no data) answers what the devchain's does, 400, never 503`, async () => {
      const url = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/1?expectedPrice=0.55&collateralAvailable=1000000000000000000000&trace=true`;
      const answers = new Map<string, { status: number; body: string }>();
      for (const node of ["devchain", "anvil", "ganache"]) {
        const error = recorded.cases[name]![node]!.body.error;
        await withProxy({ reply: (request) => (request && isQuote(request) ? rpcError(error) : undefined) }, async (proxy) => {
          const app = await appFor(proxy.url, "sequential");
          const response = await app.inject({ url });
          answers.set(node, { status: response.statusCode, body: response.body });
          await app.close();
        });
      }
      const devchainAnswer = answers.get("devchain")!;
      assert.equal(devchainAnswer.status, 400, devchainAnswer.body);
      assert.equal(JSON.parse(devchainAnswer.body).error, "Insufficient liquidity. Try a smaller size.");
      assert.deepEqual(answers.get("anvil"), devchainAnswer);
      assert.deepEqual(answers.get("ganache"), devchainAnswer);
    });
  }
});

describe("an endpoint that cannot run the searcher is quoted sequentially, decided once (semantics §7)", () => {
  // ganache (Shanghai) ran the Cancun searcher into an invalid opcode: a revert without the searcher's facts.
  const invalidOpcode = recorded.cases["deployless (no to): QuoteSearcher, m1 0.55 1e21, gas 30M"]!.ganache!.body.error;
  const isDeployless = (request: JsonRpcRequest) =>
    request.method === "eth_call" && !(request.params?.[0] as { to?: string } | undefined)?.to;

  for (const [when, passes] of [["at the probe", 0], ["at a quote's first answer", 1]] as const) {
    test(`${when}: one warning, every quote answers as sequential does, no deployless call after`, async () => {
      let deployless = 0;
      const reply = (request?: JsonRpcRequest) => (request && isDeployless(request) && ++deployless > passes ? rpcError(invalidOpcode) : undefined);
      await withProxy({ reply }, async (proxy) => {
        // Warnings go to the quote's own logger (the request's, in the app) or to the service's: both are this one.
        const warnings: { msg: string }[] = [];
        const stream = new Writable({
          write(chunk, _encoding, done) {
            for (const text of chunk.toString().split("\n").filter(Boolean)) {
              const line = JSON.parse(text) as { level: number; msg: string };
              if (line.level === 40) warnings.push(line);
            }
            done();
          },
        });
        const logger = createLogger({ level: "warn", stream });
        const single = await quoterApp({ rpc: proxy.url, logger, probe: true });
        const sequential = await appFor(devchain.endpoint.url, "sequential");
        for (const [marketId, expectedPrice] of [[1, "0.55"], [2, "1030"], [4, "0.59"], [1, "0.45"]] as const) {
          const url = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?expectedPrice=${expectedPrice}&collateralAvailable=1000000000000000000&trace=true`;
          const [a, b] = [await single.inject({ url }), await sequential.inject({ url })];
          assert.equal(a.body, b.body, url);
        }
        assert.equal(warnings.length, 1, JSON.stringify(warnings));
        assert.equal(warnings[0]!.msg, "endpoint does not run the deployless searcher: quoting sequentially");
        assert.equal(deployless, passes + 1, "no deployless call once it was decided");
        await single.close();
        await sequential.close();
      });
    });
  }
});
