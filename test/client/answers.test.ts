// The packed client (npm pack, installed into a folder of its own, imported by its name) against a real service on
// the demo chain over real HTTP: every method answers exactly what the raw HTTP answers; every error status is a
// QuoterError with its body and Retry-After; a refused connection is a QuoterNetworkError; an aborted signal
// rejects each method at once with its reason; and `exact` reads a real answer's numbers exactly.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { closedPort } from "../support/closedPort.ts";
import { chainBehindProxy, trade, type ChainBehindProxy, type LiveService } from "../support/liveService.ts";
import { installPackedClient, type ClientModule, type PackedClient } from "../support/packedClient.ts";

const ONE = "1000000000000000000";
const THOUSAND = "1000000000000000000000";
const CHAIN = String(DEVCHAIN_ID);

let packed: PackedClient;
let client: ClientModule;
let setup: ChainBehindProxy;
let service: LiveService;
let group: string;

before(async () => {
  packed = await installPackedClient();
  client = packed.module;
  setup = await chainBehindProxy();
  // With the answer cache `npm start` has, so that no-cache has something to skip.
  service = await setup.serve({ answerCache: { maxEntries: 1000, maxBytes: 1 << 20 } });
  group = setup.devchain.marketGroup;
});
after(async () => {
  await setup?.close();
  packed?.remove();
});

/** The raw answer: status, headers and parsed body of a plain HTTP request. */
async function raw(path: string, init: { method?: "GET" | "POST"; body?: unknown; headers?: Record<string, string>; base?: string } = {}) {
  const response = await request(`${init.base ?? service.base}${path}`, {
    method: init.method ?? "GET",
    headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.statusCode, headers: response.headers, body: (await response.body.json()) as any };
}

const quotePath = (marketId: number, query: Record<string, string>) => `/quoter/${CHAIN}/${group}/${marketId}?${new URLSearchParams(query)}`;

/** What a call rejected with, to look at (assert.rejects checks a kind; these tests compare the fields). */
async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("the call did not fail");
}

describe("answers: each method's deep-equal to the raw HTTP answer", () => {
  test("quote: LONG, SHORT with the exact search and its trace, and a quote of the USDC group", async () => {
    const quoter = client.createQuoterClient({ baseUrl: service.base });
    const asked = [
      { marketId: 2, query: { expectedPrice: "1030", collateralAvailable: THOUSAND } },
      { marketId: 1, query: { expectedPrice: "0.45", collateralAvailable: THOUSAND, search: "exact", trace: "true" } },
      { marketId: 1, query: { expectedPrice: "0.55", collateralAvailable: ONE, maxIterations: "3", priceLimit: "0.5000001" } },
    ] as const;
    for (const { marketId, query } of asked) {
      const answer = await quoter.quote({ chainId: CHAIN, marketAddress: group, marketId: String(marketId), ...query });
      const expected = await raw(quotePath(marketId, query));
      assert.equal(expected.status, 200, JSON.stringify(expected.body));
      assert.deepEqual(answer, expected.body);
    }
    // The URL it asks is the one a curl line shows.
    assert.equal(
      quoter.quoteUrl({ chainId: CHAIN, marketAddress: group, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND }, { minBlock: 7n }),
      `${service.base}${quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND, minBlock: "7" })}`,
    );
  });

  test("batch: every result (a bad item's 400 among them) as the POST answers it", async () => {
    const quoter = client.createQuoterClient({ baseUrl: `${service.base}/` });
    const quotes = [
      { marketAddress: group, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND },
      { marketAddress: group, marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND, search: "exact" as const },
      { marketAddress: group, marketId: "1", expectedPrice: "0", collateralAvailable: ONE },
    ];
    const answer = await quoter.batch({ chainId: CHAIN, quotes });
    const expected = await raw(`/quoter/${CHAIN}/batch`, { method: "POST", body: { quotes } });
    assert.equal(expected.status, 200);
    assert.deepEqual(answer, expected.body);
    assert.deepEqual(answer.results.map((result) => result.status), [200, 200, 400]);
  });

  test("depth: listed prices, and levels spaced to a price", async () => {
    const quoter = client.createQuoterClient({ baseUrl: service.base });
    const queries: ({ collateralAvailable: string } & Record<string, string>)[] = [{ collateralAvailable: THOUSAND, prices: "1010,1030,1050" }, { collateralAvailable: THOUSAND, to: "1100", levels: "4" }];
    for (const query of queries) {
      const answer = await quoter.depth({ chainId: CHAIN, marketAddress: group, marketId: "2", ...query });
      const expected = await raw(`/quoter/${CHAIN}/${group}/2/depth?${new URLSearchParams(query)}`);
      assert.equal(expected.status, 200, JSON.stringify(expected.body));
      assert.deepEqual(answer, expected.body);
      assert.ok(answer.levels.length >= 3);
    }
  });

  test("noCache sends Cache-Control: no-cache (the endpoint is asked again), minBlock waits for a trade's block", async () => {
    const quoter = client.createQuoterClient({ baseUrl: service.base });
    const request = { chainId: CHAIN, marketAddress: group, marketId: "1", expectedPrice: "0.6", collateralAvailable: THOUSAND };
    await quoter.quote(request);
    setup.proxy.clear();
    await quoter.quote(request);
    assert.equal(setup.proxy.counters().rpcRequests, 0, `the kept answer: no request to the endpoint (${setup.proxy.methods})`);
    await quoter.quote(request, { noCache: true });
    assert.ok(setup.proxy.counters().rpcRequests > 0, "no-cache: searched again");

    const traded = await trade(setup.devchain);
    const onTrade = { ...request, marketId: "2", expectedPrice: "1030" };
    const answer = await quoter.quote(onTrade, { minBlock: traded.blockNumber });
    assert.ok(BigInt(answer.blockNumber) >= traded.blockNumber, `${answer.blockNumber} >= ${traded.blockNumber}`);
    const query = { expectedPrice: "1030", collateralAvailable: THOUSAND, minBlock: String(traded.blockNumber) };
    assert.deepEqual(answer, (await raw(quotePath(2, query))).body);
    const batch = await quoter.batch({ chainId: CHAIN, quotes: [{ marketAddress: group, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND }] }, { minBlock: String(traded.blockNumber) });
    assert.ok(BigInt(batch.blockNumber) >= traded.blockNumber);
    const depth = await quoter.depth({ chainId: CHAIN, marketAddress: group, marketId: "2", collateralAvailable: THOUSAND, prices: "1030" }, { minBlock: traded.blockNumber, noCache: true });
    assert.ok(BigInt(depth.blockNumber) >= traded.blockNumber);
  });
});

describe("errors: every non-2xx a QuoterError with its body; no answer a QuoterNetworkError", () => {
  /** Asserts `error` is the QuoterError of the raw answer `expected`. */
  function assertErrorOf(error: any, expected: { status: number; headers: Record<string, unknown>; body: any }, message: string) {
    assert.ok(error instanceof client.QuoterError, `${message}: ${error}`);
    assert.equal(error.name, "QuoterError");
    assert.equal(error.status, expected.status, message);
    assert.equal(error.error, message);
    assert.deepEqual(error.details, expected.body.details);
    assert.deepEqual(error.body, expected.body);
    assert.ok(error.details.length > 0);
    const header = expected.headers["retry-after"];
    if (header === undefined) assert.equal(error.retryAfter, undefined);
    else assert.ok(Math.abs(error.retryAfter! - Number(header)) <= 1, `Retry-After ${header}, retryAfter ${error.retryAfter}`);
  }

  test("400 and 404 of each method, with the details the raw answer gives", async () => {
    const quoter = client.createQuoterClient({ baseUrl: service.base });
    const badQuery = { expectedPrice: "1030", collateralAvailable: "1.5" };
    assertErrorOf(await failure(quoter.quote({ chainId: CHAIN, marketAddress: group, marketId: "2", ...badQuery })), await raw(quotePath(2, badQuery)), "Invalid query parameters");
    const nowhere = "0x0000000000000000000000000000000000000001";
    const notFound = await raw(`/quoter/${CHAIN}/${nowhere}/2?expectedPrice=1030&collateralAvailable=${THOUSAND}`);
    assertErrorOf(await failure(quoter.quote({ chainId: CHAIN, marketAddress: nowhere, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND })), notFound, "Market not found");
    assertErrorOf(await failure(quoter.depth({ chainId: CHAIN, marketAddress: nowhere, marketId: "2", collateralAvailable: THOUSAND, prices: "1030" })), notFound, "Market not found");
    const unreadable = await raw(`/quoter/${CHAIN}/batch`, { method: "POST", body: { quotes: [] } });
    assertErrorOf(await failure(quoter.batch({ chainId: CHAIN, quotes: [] })), unreadable, "Invalid request body");
    // A search failure asked with trace=true carries its trace in the error's body.
    const thin = { expectedPrice: "0.59", collateralAvailable: ONE, trace: "true" };
    const failed = await failure(quoter.quote({ chainId: CHAIN, marketAddress: group, marketId: "4", ...thin }));
    assertErrorOf(failed, await raw(quotePath(4, thin)), "Insufficient liquidity. Try a smaller size.");
    assert.ok(failed.body.trace.length > 0);
    // A live stream's parameters are judged before it starts: the same 400.
    const stream = quoter.watch({ chainId: CHAIN, marketAddress: group, marketId: "2", ...badQuery });
    assertErrorOf(await failure(stream.next()), await raw(quotePath(2, badQuery)), "Invalid query parameters");
  });

  test("429: past the rate limit, with retryAfter from Retry-After", async () => {
    const limited = await setup.serve({ protection: { rateLimitMax: 1, rateLimitWindowMs: 60_000 } });
    const quoter = client.createQuoterClient({ baseUrl: limited.base });
    const query = { expectedPrice: "1030", collateralAvailable: THOUSAND };
    await quoter.quote({ chainId: CHAIN, marketAddress: group, marketId: "2", ...query });
    const error = await failure(quoter.quote({ chainId: CHAIN, marketAddress: group, marketId: "2", ...query }));
    const expected = await raw(quotePath(2, query), { base: limited.base });
    assert.equal(expected.status, 429);
    assertErrorOf(error, expected, "Too many requests");
    assert.ok(error.retryAfter > 0);
    await limited.close();
  });

  test("503: every endpoint failing, with retryAfter; the batch and the depth ladder alike", async () => {
    const failing = await setup.startProxy({ reply: () => "http-500" });
    const down = await setup.serve({ rpc: failing.url, timeoutMs: 400 });
    const quoter = client.createQuoterClient({ baseUrl: down.base });
    const query = { expectedPrice: "1030", collateralAvailable: THOUSAND };
    const expected = await raw(quotePath(2, query), { base: down.base });
    assert.equal(expected.status, 503, JSON.stringify(expected.body));
    assertErrorOf(await failure(quoter.quote({ chainId: CHAIN, marketAddress: group, marketId: "2", ...query })), expected, "Chain RPC unavailable");
    const batch = await failure(quoter.batch({ chainId: CHAIN, quotes: [{ marketAddress: group, marketId: "2", ...query }] }));
    assert.equal(batch.status, 503);
    assert.ok(batch.retryAfter > 0);
    const depth = await failure(quoter.depth({ chainId: CHAIN, marketAddress: group, marketId: "2", collateralAvailable: THOUSAND, prices: "1030" }));
    assert.equal(depth.status, 503);
    assert.ok(depth.retryAfter > 0);
    await down.close();
  });

  test("a refused connection: QuoterNetworkError with its cause and URL, from every method", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const quoter = client.createQuoterClient({ baseUrl });
    const quote = { chainId: CHAIN, marketAddress: group, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND };
    const calls = [
      () => quoter.quote(quote),
      () => quoter.batch({ chainId: CHAIN, quotes: [{ marketAddress: group, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND }] }),
      () => quoter.depth({ chainId: CHAIN, marketAddress: group, marketId: "2", collateralAvailable: THOUSAND, prices: "1030" }),
      async () => (await quoter.watch(quote, { retry: { maxAttempts: 0 } }).next()).value,
    ];
    for (const call of calls) {
      const error = await failure(call());
      assert.ok(error instanceof client.QuoterNetworkError, String(error));
      assert.equal(error.name, "QuoterNetworkError");
      assert.ok(error.cause instanceof Error, "the fetch's own error as its cause");
      assert.ok(error.url.startsWith(`${baseUrl}/quoter/${CHAIN}/`), error.url);
      assert.ok(!(error instanceof client.QuoterError));
    }
  });
});

describe("an aborted signal ends each method at once, with its reason", () => {
  const quote = () => ({ chainId: CHAIN, marketAddress: group, marketId: "1", expectedPrice: "0.57", collateralAvailable: THOUSAND, search: "exact" as const });

  test("a signal aborted before the call: rejected with its reason, nothing sent", async () => {
    const quoter = client.createQuoterClient({ baseUrl: service.base });
    const reason = new Error("the user left");
    const signal = AbortSignal.abort(reason);
    setup.proxy.clear();
    const { chainId: _chainId, ...item } = quote();
    const calls = [
      () => quoter.quote(quote(), { signal }),
      () => quoter.batch({ chainId: CHAIN, quotes: [item] }, { signal }),
      () => quoter.depth({ chainId: CHAIN, marketAddress: group, marketId: "1", collateralAvailable: THOUSAND, prices: "0.57" }, { signal }),
      () => quoter.watch(quote(), { signal }).next(),
    ];
    for (const call of calls) assert.equal(await failure(call()), reason);
    assert.equal(setup.proxy.counters().rpcRequests, 0, "no quote was searched");
  });

  test("a signal aborted while the service searches (a slow endpoint): each call rejects within 300 ms", async () => {
    const slow = await setup.startProxy({ delayMs: 3_000 });
    const slowService = await setup.serve({ rpc: slow.url, timeoutMs: 10_000 });
    const quoter = client.createQuoterClient({ baseUrl: slowService.base });
    const calls: ((signal: AbortSignal) => Promise<unknown>)[] = [
      (signal) => quoter.quote({ ...quote(), expectedPrice: "0.571" }, { signal }),
      (signal) => quoter.batch({ chainId: CHAIN, quotes: [{ marketAddress: group, marketId: "1", expectedPrice: "0.572", collateralAvailable: THOUSAND }] }, { signal }),
      (signal) => quoter.depth({ chainId: CHAIN, marketAddress: group, marketId: "1", collateralAvailable: THOUSAND, prices: "0.573" }, { signal }),
      (signal) => quoter.watch({ ...quote(), expectedPrice: "0.574" }, { signal }).next(),
    ];
    for (const [index, call] of calls.entries()) {
      const controller = new AbortController();
      const reason = new Error(`stop ${index}`);
      const pending = failure(call(controller.signal));
      await new Promise((resolve) => setTimeout(resolve, 150));
      const aborted = Date.now();
      controller.abort(reason);
      assert.equal(await pending, reason, `call ${index}`);
      assert.ok(Date.now() - aborted < 300, `call ${index} rejected ${Date.now() - aborted} ms after the abort`);
    }
    await slowService.close();
  });

  test("watch: waiting for the next event, an abort rejects it at once; a break closes the stream", async () => {
    const quoter = client.createQuoterClient({ baseUrl: service.base });
    const controller = new AbortController();
    const events = quoter.watch({ ...quote(), expectedPrice: "0.575" }, { signal: controller.signal });
    const first = await events.next();
    assert.equal(first.done, false);
    assert.equal(first.value?.type, "quote");
    const waiting = failure(events.next()); // the chain is quiet: no event comes
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reason = new DOMException("stopped", "AbortError");
    const aborted = Date.now();
    controller.abort(reason);
    assert.equal(await waiting, reason);
    assert.ok(Date.now() - aborted < 300);

    for await (const event of quoter.watch({ ...quote(), expectedPrice: "0.576" })) {
      assert.equal(event.type, "quote");
      break;
    }
  });
});

describe("exact: an answer's amounts as bigint, its prices as exact 18-decimal fixed point", () => {
  /** A D18 price text as the integer of 10^-18 units, by string arithmetic alone. */
  const d18 = (text: string) => {
    const [whole, fraction = ""] = text.split(".");
    return BigInt(whole! + fraction.padEnd(18, "0"));
  };

  test("a real quote with its trace, a batch and a depth ladder", async () => {
    const quoter = client.createQuoterClient({ baseUrl: service.base });
    const answer = await quoter.quote({ chainId: CHAIN, marketAddress: group, marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND, trace: "true" });
    const read = client.exact(answer);
    assert.equal(read.maxSize, BigInt(answer.maxSize));
    assert.ok(read.maxSize < 0n, "a SHORT");
    for (const field of ["collateralAvailable", "requiredCollateral", "maxCollateral", "blockNumber"] as const) assert.equal(read[field], BigInt(answer[field]));
    for (const field of ["currentPrice", "expectedPrice", "fillPrice", "priceAfter"] as const) assert.deepEqual(read[field], { value: d18(answer[field]), decimals: 18 });
    // The pool's price as the group reads it, to the last of its 18 places.
    const price = await setup.devchain.chain.publicClient.readContract({ address: group as `0x${string}`, abi: marketGroupAbi, functionName: "getReferencePrice", args: [1n], blockNumber: read.blockNumber });
    assert.equal(read.currentPrice.value, price);
    assert.equal(read.blockHash, answer.blockHash);
    assert.equal(read.iterations, answer.iterations);
    assert.deepEqual(read.trace!.map((entry) => entry.size), answer.trace!.map((entry) => BigInt(entry.size)));
    assert.deepEqual(read.trace![0]!.priceAfter, { value: d18(answer.trace![0]!.priceAfter!), decimals: 18 });

    const batch = await quoter.batch({ chainId: CHAIN, quotes: [{ marketAddress: group, marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND }, { marketAddress: group, marketId: "3", expectedPrice: "0.6", collateralAvailable: ONE }] });
    const readBatch = client.exact(batch);
    assert.equal(readBatch.blockNumber, BigInt(batch.blockNumber));
    const [ok, settled] = readBatch.results;
    assert.ok(ok && "maxSize" in ok.body && typeof ok.body.maxSize === "bigint");
    assert.deepEqual(settled?.body, batch.results[1]!.body, "an error body has no amount to read");

    const depth = client.exact(await quoter.depth({ chainId: CHAIN, marketAddress: group, marketId: "2", collateralAvailable: THOUSAND, prices: "1010.5,1030" }));
    assert.deepEqual(depth.levels.map((level) => ("expectedPrice" in level ? level.expectedPrice : undefined)), [{ value: 1010500000000000000000n, decimals: 18 }, { value: 1030n * 10n ** 18n, decimals: 18 }]);
  });

  test("the edges: 18 places, a revert's raw arguments kept, numbers the service never sends refused", () => {
    const read = client.exact({ fillPrice: "0.000000000000000001", priceAfter: "123456789012345678901234567890.123456789012345678", size: "-5", trace: [{ size: "7", outcome: "reverted" as const, revertArgs: { size: "9", poolPrice: "1" } }] });
    assert.deepEqual(read.fillPrice, { value: 1n, decimals: 18 });
    assert.equal(read.priceAfter.value, 123456789012345678901234567890123456789012345678n);
    assert.equal(read.size, -5n);
    assert.deepEqual(read.trace[0], { size: 7n, outcome: "reverted", revertArgs: { size: "9", poolPrice: "1" } });
    assert.throws(() => client.exact({ fillPrice: "0.0000000000000000001" }), RangeError);
    assert.throws(() => client.exact({ fillPrice: "1e3" }), RangeError);
    assert.throws(() => client.exact({ maxSize: "1.5" }), RangeError);
  });
});
