// Endpoints as public ones behave (semantics §6, §11), each on the real wire in front of the embedded chain: a load
// balancer whose backends lag a block or two ("header not found", as geth words it), a node of another chain, a
// slow node past the quotes' deadline, a rate limit with Retry-After, and answers far too large.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "undici";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { THOUSAND } from "../../src/http/docExamples.ts";
import { chainBehindProxy, type ChainBehindProxy } from "../support/liveService.ts";
import { startProcess } from "../support/processes.ts";
import { laggingBalancer } from "../support/laggingBalancer.ts";

let setup: ChainBehindProxy;
let devchain: Devchain;
before(async () => ({ devchain } = setup = await chainBehindProxy()));
after(() => setup.close());

const path = (marketId: number, query: Record<string, string>, chainId = DEVCHAIN_ID) =>
  `/quoter/${chainId}/${devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;
const node = (method: string, params: unknown[] = []) => devchain.chain.provider.request({ method, params } as never) as Promise<any>;

describe("a load balancer whose backends lag a block or two", () => {
  for (const [mode, pushed] of [["polled through it", false], ["pushed by the node's WebSocket", true]] as const) {
    test(`500 quotes while blocks are mined, the head ${mode}: no 503, and never an answer older than the head seen before it was sent`, async () => {
      const balancer = await laggingBalancer(devchain, await setup.startProxy(), pushed ? 7 : 3);
      const mining = setInterval(() => void node("evm_mine").catch(() => undefined), 60);
      try {
        await setup.withService(
          { rpc: balancer.url, headPollMs: 50, webSocket: pushed },
          async (service) => {
            const statuses = new Map<number, number>();
            let quotes = 0;
            const failures: string[] = [];
            const worker = async (w: number) => {
              // At least 500, and on until the backends' lag was met often enough to say something (a loaded
              // machine mines fewer blocks meanwhile), up to 2,000.
              while ((quotes < 500 || balancer.lagged() <= 20) && quotes < 2_000) {
                const i = quotes++;
                const seen = await service.head();
                const answer = await service.get(path(1 + (i % 2), { expectedPrice: i % 2 ? "1030" : "0.55", collateralAvailable: `${THOUSAND}${w}` }));
                statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
                if (answer.status !== 200) failures.push(JSON.stringify(answer.body));
                if (answer.status === 200 && seen !== undefined) {
                  assert.ok(BigInt(answer.body.blockNumber) >= BigInt(seen.blockNumber), `an answer at ${answer.body.blockNumber} after ${seen.blockNumber} was seen`);
                }
              }
            };
            await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
            assert.deepEqual([...statuses], [[200, statuses.get(200)]], `statuses: ${JSON.stringify([...statuses])} ${failures.slice(0, 3).join("\n")}`);
            assert.ok(balancer.lagged() > 20, `${balancer.lagged()} answers came from a lagging backend`);
          },
        );
      } finally {
        clearInterval(mining);
        await balancer.close();
      }
    });
  }
});

describe("an endpoint of another chain", () => {
  test("at start-up: the service stops with one line naming the variable and both chain ids", async () => {
    const started = startProcess("node", ["--import", "tsx", "src/main.ts"], { RPC_URL_10: devchain.endpoint.url, PORT: "0", LOG_LEVEL: "silent" }, /never/, 20_000);
    const error = await started.then(() => assert.fail("it started"), (error: Error) => error.message);
    assert.match(error, /exited with 1/);
    const printed = error.split("\n").filter((line) => line.startsWith("quoter:"));
    assert.deepEqual(printed, ["quoter: RPC_URL_10 serves chain 31337, not chain 10: point RPC_URL_10 at a node of chain 10"]);
  });

  test("later: never a 200; a 503 whose details name the variable and both chain ids", async () => {
    await setup.withService({ rpc: new Map([[10, [devchain.endpoint.url]]]) }, async (service) => {
      for (let i = 0; i < 3; i++) {
        const answer = await service.get(path(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }, 10));
        assert.equal(answer.status, 503);
        assert.deepEqual(answer.body.details, [{ param: "chainId", message: "RPC_URL_10 serves chain 31337, not 10: point RPC_URL_10 at a node of chain 10" }]);
      }
    });
  });

  test("an endpoint that comes back from a failure as a node of another chain is found out before it answers", async () => {
    let chainId = "0x7a69";
    let failing = false;
    setup.proxy.reply = (request) => (failing ? "reset" : request?.method === "eth_chainId" ? { body: { jsonrpc: "2.0", result: chainId } } : undefined);
    try {
      await setup.withService({}, async (service) => {
        const quote = () => service.get(path(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }));
        assert.equal((await quote()).status, 200);
        failing = true;
        assert.equal((await quote()).status, 503);
        [failing, chainId] = [false, "0x1"];
        const after = await quote();
        assert.equal(after.status, 503);
        assert.match(after.body.details[0].message, /serves chain 1, not 31337/);
      });
    } finally {
      setup.proxy.reply = undefined;
    }
  });
});

test("a quote's queued RPC requests are dropped at its deadline: never sent (counted at the proxy)", async () => {
  const slow = await setup.startProxy({ delayMs: 250 });
  try {
    await setup.withService(
      { rpc: slow.url, maxInFlight: 1, deadlineMs: 600, probe: true, webSocket: true },
      async (service) => {
        assert.equal((await service.get(path(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }))).status, 200, "one call, 250 ms");
        slow.clear();
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) => service.get(path(2, { expectedPrice: "1030", collateralAvailable: `${THOUSAND}${i}` }))),
        );
        const statuses = answers.map((answer) => answer.status).sort();
        assert.ok(statuses.filter((status) => status === 503).length >= 7, `statuses ${statuses}`);
        const calls = () => slow.methods.filter((method) => method === "eth_call").length;
        // A request that left just before its quote's deadline reaches the proxy a moment after the 503: let it
        // arrive. A queued one would follow 250 ms after the one before it, within the 1.5 s watched below.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const sent = calls();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        assert.equal(calls(), sent, "nothing is sent for quotes already answered");
        // One at a time, 250 ms each, within a 600 ms deadline: about 3 (more when a busy machine staggers the
        // quotes' arrivals, and so their deadlines), never the 10 the quotes queued.
        assert.ok(sent < 10, `${sent} searches sent: only those that started before their quote's deadline`);
      },
    );
  } finally {
    await slow.close();
  }
});

describe("Retry-After", () => {
  test("an endpoint answering 429 rests that long: the next URL answers meanwhile; alone, it is a 503 with its Retry-After", async () => {
    let limited = true;
    const busy = await setup.startProxy({
      reply: (request) => (limited && request?.method === "eth_call" ? { status: 429, body: { jsonrpc: "2.0", error: { code: 429, message: "Too Many Requests" } } } : undefined),
    });
    const calls = () => busy.methods.filter((method) => method === "eth_call").length;
    // Retry-After comes as a header: the proxy's replies have none, so a server of its own adds it.
    const withHeader = await retryAfterServer(busy.url, 2);
    try {
      await setup.withService({ rpc: [withHeader.url, devchain.endpoint.url] }, async (service) => {
        let limitedCalls = 0;
        for (let i = 0; i < 5; i++) {
          const answer = await service.get(path(2, { expectedPrice: "1030", collateralAvailable: `${THOUSAND}${i}` }));
          assert.equal(answer.status, 200, "the second URL takes over");
          if (i === 0) limitedCalls = calls();
        }
        assert.equal(limitedCalls, 1, "the first quote asked it once, and was answered 429");
        assert.equal(calls(), limitedCalls, "the resting endpoint is not asked again in its 2 s");
        limited = false;
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        const answered = busy.methods.length;
        assert.equal((await service.get(path(2, { expectedPrice: "1030", collateralAvailable: `${THOUSAND}9` }))).status, 200);
        assert.ok(calls() > limitedCalls, "asked again once its rest is over");
        assert.ok(busy.methods.length > answered, "and it answered the quote (the first URL, no longer limited)");
      });
      limited = true;
      await setup.withService({ rpc: withHeader.url }, async (service) => {
        const first = await service.get(path(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }));
        const second = await service.get(path(2, { expectedPrice: "1030", collateralAvailable: `${THOUSAND}1` }));
        for (const answer of [first, second]) {
          assert.equal(answer.status, 503);
          assert.ok(Number(answer.headers["retry-after"]) >= 1 && Number(answer.headers["retry-after"]) <= 2, String(answer.headers["retry-after"]));
        }
        assert.match(second.body.details[0].message, /^RPC_URL_31337: rate limited: resting for \d s more/);
      });
    } finally {
      await withHeader.close();
      await busy.close();
    }
  });
});

/** Forwards to `target`, adding `Retry-After: <seconds>` to every 429. */
async function retryAfterServer(target: string, seconds: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const upstream = await httpRequest(target, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
    const text = await upstream.body.text();
    outgoing.writeHead(upstream.statusCode, { "content-type": "application/json", ...(upstream.statusCode === 429 ? { "retry-after": String(seconds) } : {}) });
    outgoing.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test("64 concurrent answers of 20 MB leave the service's resident memory within 100 MiB of where it started", async () => {
  const header = { number: "0x6", hash: `0x${"66".repeat(32)}`, parentHash: `0x${"55".repeat(32)}`, timestamp: "0x6" };
  const huge = Buffer.from(`"0x${"ab".repeat(10 * 1024 * 1024)}"`); // a 20 MB result
  const fake = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const { id, method } = JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string };
    outgoing.writeHead(200, { "content-type": "application/json" });
    if (method === "eth_chainId") return outgoing.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x7a69" }));
    if (method === "eth_getBlockByNumber") return outgoing.end(JSON.stringify({ jsonrpc: "2.0", id, result: header }));
    outgoing.write(`{"jsonrpc":"2.0","id":${id},"result":`);
    for (let offset = 0; offset < huge.length && !outgoing.destroyed; offset += 1 << 20) {
      if (!outgoing.write(huge.subarray(offset, offset + (1 << 20)))) await new Promise((resolve) => outgoing.once("drain", resolve).once("close", resolve));
    }
    outgoing.end("}");
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const rpc = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  const service = await startProcess("node", ["--import", "tsx", "src/main.ts"], { RPC_URL_31337: rpc, PORT: "0", LOG_LEVEL: "silent" }, /Quoter listening on (http:\/\/\S+)\/quoter/);
  try {
    const base = service.match[1]!;
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${service.child.pid}/status`, "utf8"))![1]) * 1024;
    const quote = async (i: number) =>
      (await httpRequest(`${base}/quoter/31337/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=${THOUSAND}${i}`)).statusCode;
    for (let i = 0; i < 3; i++) assert.equal(await quote(i), 503, "each answer is cut off: the endpoint failed");
    const start = rss();
    const statuses = await Promise.all(Array.from({ length: 64 }, (_, i) => quote(100 + i)));
    assert.ok(statuses.every((status) => status === 503), `statuses ${statuses}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const end = rss();
    assert.ok(end - start < 100 * 1024 * 1024, `resident memory grew by ${Math.round((end - start) / 1024 / 1024)} MiB (from ${Math.round(start / 1024 / 1024)} MiB)`);
  } finally {
    await service.stop();
    await new Promise<void>((resolve) => fake.close(() => resolve()));
    fake.closeAllConnections();
  }
});

