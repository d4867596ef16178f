// Semantics §4b: search=exact answers the largest feasible size above DUST, proven at the pinned block. Each
// answer is checked against an independent brute force in the test (exponential search from DUST, then
// bisection to the wei, every size quoted directly at the answer's block), and both strategies answer alike.
// The default strategy runs the exact search on chain: a recording proxy sees one JSON-RPC request per quote.
import { after, before, describe, test } from "node:test";
import type { FastifyInstance } from "fastify";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createPublicClient, decodeFunctionResult, encodeFunctionData, formatUnits, http } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_HEAD_BLOCK, DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { serviceBehindProxy, type ServiceBehindProxy } from "../support/liveService.ts";
import { quoteRequests } from "../support/rpcProxy.ts";

const E18 = 10n ** 18n;
const DUST = 10n ** 6n;
const MAX = 2n ** 255n - 1n;

let setup: ServiceBehindProxy;
/** The demo markets' reference prices at the demo's head, read from the chain before the tests. */
const PRICES = new Map<bigint, bigint>();
/** [single-call behind the proxy, sequential on the node]. */
let apps: FastifyInstance[];
before(async () => {
  setup = await serviceBehindProxy({ strategy: "single-call", timeoutMs: 10_000, probe: true });
  const sequential = await setup.serve({ rpc: setup.devchain.endpoint.url, strategy: "sequential", timeoutMs: 10_000, probe: true });
  apps = [setup.service.app, sequential.app];
  const client = createPublicClient({ transport: http(setup.devchain.endpoint.url, { retryCount: 0 }) });
  for (const marketId of [1n, 2n, 4n]) {
    PRICES.set(marketId, await client.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getReferencePrice", args: [marketId], blockNumber: DEMO_HEAD_BLOCK }));
  }
});
after(() => setup.close());

type Request = { marketId: bigint; expected: bigint; limit?: bigint; collateral: bigint };
type Class = "short" | "feasible" | "too-large";

/** The §4 classification of one size, quoted directly at `block`, written here again from the rules. */
async function classify(request: Request, currentPrice: bigint, size: bigint, block: bigint): Promise<Class> {
  const client = createPublicClient({ transport: http(setup.devchain.endpoint.url, { retryCount: 0 }) });
  const long = request.expected > currentPrice;
  const data = encodeFunctionData({ abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [request.marketId, long ? size : -size] });
  let result: readonly [bigint, bigint, bigint];
  try {
    const { data: returned } = await client.call({ to: DEMO_MARKET_GROUP_ADDRESS, data, blockNumber: block });
    result = decodeFunctionResult({ abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", data: returned! });
  } catch {
    return "too-large";
  }
  const [required, , after] = result;
  const limit = request.limit ?? currentPrice;
  if (required > request.collateral) return "too-large";
  if (long ? after > request.expected : after < request.expected) return "too-large";
  if (long ? after <= limit : after >= limit) return "short";
  return "feasible";
}

/** The largest feasible size >= DUST by brute force, or undefined when none is. */
async function bruteForceMaximum(request: Request, currentPrice: bigint, block: bigint): Promise<bigint | undefined> {
  const at = (size: bigint) => classify(request, currentPrice, size, block);
  if ((await at(DUST)) === "too-large") return undefined;
  let low = DUST;
  let high = DUST * 2n;
  while (high <= MAX && (await at(high)) !== "too-large") {
    low = high;
    high *= 2n;
  }
  if (high > MAX) high = MAX + 1n;
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    if ((await at(mid)) === "too-large") high = mid;
    else low = mid;
  }
  return (await at(low)) === "feasible" ? low : undefined;
}

describe("search=exact (semantics §4b)", () => {
  test("200 random requests: every exact answer is the brute-force maximum, no 400 while a size fits, both strategies alike, one JSON-RPC request each", async () => {
    const tally = { exact: 0, inexact: 0, failures: 0, candidates: [] as number[] };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1n, 1n, 2n, 2n, 4n).chain((marketId) => {
          const price = PRICES.get(marketId)!;
          const away = fc.integer({ min: 1, max: 900 }).chain((permille) =>
            fc.boolean().map((up) => (up ? price + (price * BigInt(permille)) / 1000n : price - (price * BigInt(permille)) / 1000n)),
          );
          return fc.record({
            marketId: fc.constant(marketId),
            expected: away,
            limit: fc.option(away, { nil: undefined, freq: 3 }),
            collateral: fc.tuple(fc.integer({ min: 0, max: 30 }), fc.bigInt({ min: 1n, max: 9n })).map(([e, m]) => m * 10n ** BigInt(e)),
          });
        }),
        async (request) => {
          const query = new URLSearchParams({
            expectedPrice: formatUnits(request.expected, 18),
            collateralAvailable: request.collateral.toString(),
            maxIterations: "10",
            search: "exact",
          });
          if (request.limit !== undefined) query.set("priceLimit", formatUnits(request.limit, 18));
          const url = `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/${request.marketId}?${query}`;
          const before = setup.proxy.requests.length;
          const [single, sequential] = await Promise.all(apps.map((app) => app.inject({ url })));
          assert.equal(single!.body, sequential!.body, url);
          const requests = quoteRequests(setup.proxy.requests.slice(before));
          assert.deepEqual(requests.map((r) => r.method), ["eth_call"], `${url}: one deployless eth_call`);
          const body = single!.json();
          const currentPrice = PRICES.get(request.marketId)!;
          const block = DEMO_HEAD_BLOCK;
          const truth = await bruteForceMaximum(request, currentPrice, block);
          if (single!.statusCode === 200) {
            assert.equal(body.blockNumber, String(DEMO_HEAD_BLOCK));
            const size = BigInt(body.maxSize) < 0n ? -BigInt(body.maxSize) : BigInt(body.maxSize);
            assert.ok(size >= DUST);
            assert.equal(await classify(request, currentPrice, size, block), "feasible", `${url}: the answer fits`);
            tally.candidates.push(body.iterations);
            if (body.exact) {
              tally.exact++;
              assert.equal(size, truth, `${url}: exact answer ${size}, brute force ${truth}`);
              assert.equal(body.upperBound, undefined);
            } else {
              tally.inexact++;
              assert.ok(truth !== undefined && size <= truth);
              const upper = BigInt(body.upperBound) < 0n ? -BigInt(body.upperBound) : BigInt(body.upperBound);
              assert.ok(upper > truth, "the upper bound is above the true maximum");
            }
          } else {
            tally.failures++;
            assert.equal(single!.statusCode, 400, single!.body);
            assert.equal(truth, undefined, `${url}: 400 although ${truth} fits`);
          }
        },
      ),
      { numRuns: 200, seed: 12 },
    );
    const total = tally.exact + tally.inexact;
    const sorted = [...tally.candidates].sort((a, b) => a - b);
    if (process.env.EXACT_STATS) console.log(JSON.stringify({ ...tally, candidates: undefined, median: sorted[sorted.length >> 1], max: sorted.at(-1), p90: sorted[Math.floor(sorted.length * 0.9)] }));
    assert.ok(total >= 80, `too few sizes found to compare: ${JSON.stringify(tally)}`);
    assert.ok(tally.exact >= 0.95 * total, `exact on ${tally.exact} of ${total}`);
  });

  test("where the bisection answers 400 because the true maximum is below cap/1024, search=exact finds it", async () => {
    // Market 2 at 1030 with 10^27 wei: the bisection's smallest step is far above what the price allows.
    const base = `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000000000`;
    const bisection = await apps[0]!.inject({ url: base });
    assert.equal(bisection.statusCode, 400);
    const exact = await apps[0]!.inject({ url: `${base}&search=exact` });
    assert.equal(exact.statusCode, 200, exact.body);
    const body = exact.json();
    assert.equal(body.exact, true);
    const truth = await bruteForceMaximum({ marketId: 2n, expected: 1030n * E18, collateral: 10n ** 27n }, PRICES.get(2n)!, DEMO_HEAD_BLOCK);
    assert.equal(BigInt(body.maxSize), truth);
  });

  test("no size fills because even DUST goes too far: DUST itself is quoted, and the 400 says so, proven", async () => {
    // Market 2 at 1000: expectedPrice 100 wei above it, which one wei of size already passes on the demo market.
    const url = `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/2?expectedPrice=1000.0000000000000001&collateralAvailable=${E18}&search=exact&trace=true`;
    const answers = await Promise.all(apps.map((app) => app.inject({ url })));
    assert.equal(answers[0]!.body, answers[1]!.body, "both strategies alike");
    assert.equal(answers[0]!.statusCode, 400);
    const body = answers[0]!.json();
    assert.equal(body.error, "Could not find a valid position size that satisfies the price constraints");
    const dust = body.trace.find((entry: { size: string }) => BigInt(entry.size) === DUST);
    assert.equal(dust?.outcome, "beyond-expected", "DUST quoted, and too far");
    assert.equal(await classify({ marketId: 2n, expected: 1000n * E18 + 100n, collateral: E18 }, PRICES.get(2n)!, DUST, DEMO_HEAD_BLOCK), "too-large");
    assert.match(body.details[0].message, /^no size fits: the smallest size the exact search quotes, 1000000 wei/);
    assert.ok(body.trace.length <= 12, `${body.trace.length} candidates`);
  });

  test("search takes bisection or exact only; the default answer is unchanged to the byte", async () => {
    const base = `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000`;
    const bad = await apps[0]!.inject({ url: `${base}&search=fast` });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json().details, [{ param: "search", message: "must be bisection or exact" }]);
    const plain = await apps[0]!.inject({ url: base });
    const explicit = await apps[0]!.inject({ url: `${base}&search=bisection` });
    assert.equal(explicit.body, plain.body);
    assert.equal(plain.json().exact, undefined);
  });
});
