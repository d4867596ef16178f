// The JSON-RPC transport on the real wire: what it sends, and that every way of not getting an answer is a
// transport failure (semantics §1, §6) whose reason names the failure and never the endpoint's URL.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { ethCall, latestBlockNumber } from "../../src/chain/rpc/call.ts";
import { createChainClient, type RpcEvent } from "../../src/chain/rpc/client.ts";
import { ChainUnavailableError } from "../../src/chain/rpc/chainErrors.ts";
import { rpcError, startRpcProxy, type Reply, type RpcProxy } from "../support/rpcProxy.ts";

const CALL = { to: "0x000000000000000000000000000000000000dEaD", data: "0x", block: 1n } as const;

let node: RpcProxy;
let serving: Reply | undefined;
before(async () => {
  node = await startRpcProxy(undefined, { reply: () => serving });
});
after(() => node.close());

/** The reason of the transport failure `read` ends in, and the outcomes the endpoint's observer was told. */
async function failure(reply: Reply, read: typeof ethCall | typeof latestBlockNumber = ethCall, timeoutMs = 2_000) {
  serving = reply;
  const events: RpcEvent[] = [];
  const [endpoint] = createChainClient(1, [node.url], { timeoutMs, observer: (event) => events.push(event) }).endpoints;
  const error = await (read === ethCall ? ethCall(endpoint!, CALL) : latestBlockNumber(endpoint!)).then(
    () => assert.fail("answered"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ChainUnavailableError, String(error));
  assert.ok(!error.reason.includes("127.0.0.1") && !error.message.includes("127.0.0.1"), error.message);
  return { reason: error.reason, outcomes: events.map((event) => event.outcome) };
}

describe("no answer is a transport failure, named", () => {
  const cases: [string, Reply, RegExp][] = [
    ["HTTP 500 with a text body", "http-500", /^HTTP 500$/],
    ["a JSON-RPC error on an HTTP error", { status: 503, body: { jsonrpc: "2.0", error: { code: -32005, message: "limit exceeded" } } }, /^JSON-RPC error -32005 \(HTTP 503\)$/],
    ["a truncated body", "malformed-json", /^the answer is not JSON$/],
    ["JSON that is not a JSON-RPC answer", { body: { jsonrpc: "2.0" } }, /^the answer is not a JSON-RPC answer$/],
    ["an error member that is not an object", { body: { jsonrpc: "2.0", error: "busy" } }, /^the answer is not a JSON-RPC answer$/],
    ["a JSON-RPC error that is no execution's", "rpc-error", /^JSON-RPC error -32000$/],
    ["a connection dropped", "reset", /^request failed \(\w+\)$/],
    ["an eth_call result that is not hex data", { body: { jsonrpc: "2.0", result: 12 } }, /not hex data/],
    ["an eth_call result with a character that is not hex", { body: { jsonrpc: "2.0", result: "0x12zz" } }, /not hex data/],
  ];
  for (const [name, reply, reason] of cases) {
    test(name, async () => {
      const read = await failure(reply);
      assert.match(read.reason, reason);
      assert.deepEqual(read.outcomes, ["transport_failure"]);
    });
  }
  test("no answer within the request timeout", async () => {
    const read = await failure("hang", ethCall, 300);
    assert.equal(read.reason, "timed out after 300 ms");
  });
  test("an eth_blockNumber result that is not a quantity", async () => {
    for (const result of ["0x", "12", null]) {
      const read = await failure({ body: { jsonrpc: "2.0", result } }, latestBlockNumber);
      assert.match(read.reason, /not a quantity/);
    }
    assert.match((await failure(rpcError({ code: -32000, message: "internal error" }), latestBlockNumber)).reason, /^JSON-RPC error -32000$/);
  });
});

test("an answer: a null eth_call result is empty data; eth_blockNumber's quantity is read as a number", async () => {
  const [endpoint] = createChainClient(1, [node.url], { timeoutMs: 2_000 }).endpoints;
  serving = { body: { jsonrpc: "2.0", result: null } };
  assert.deepEqual(await ethCall(endpoint!, CALL), { success: true, data: "0x" });
  serving = { body: { jsonrpc: "2.0", result: "0x1b4" } };
  assert.equal(await latestBlockNumber(endpoint!), 436n);
});

test("what is sent: one JSON-RPC 2.0 request per POST, the URL's credentials as Basic authentication, not in the URL", async () => {
  const seen: { url: string | undefined; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      seen.push({ url: request.url, headers: request.headers, body });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: "0x2a" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as { port: number };
    const [endpoint] = createChainClient(1, [`http://alice:p%40ss@127.0.0.1:${port}/v3/key?x=1`], { timeoutMs: 2_000 }).endpoints;
    assert.equal(endpoint!.label.includes("alice") || endpoint!.label.includes("ss"), false);
    assert.equal(await latestBlockNumber(endpoint!), 42n);
    assert.deepEqual(await ethCall(endpoint!, CALL), { success: true, data: "0x2a" });
    assert.equal(seen.length, 2);
    for (const request of seen) {
      assert.equal(request.url, "/v3/key?x=1");
      assert.equal(request.headers.authorization, `Basic ${Buffer.from("alice:p@ss").toString("base64")}`);
      assert.equal(request.headers["content-type"], "application/json");
      assert.equal(request.headers.accept, "application/json");
      assert.equal(request.headers["user-agent"], "quoter");
      assert.equal(request.body.jsonrpc, "2.0");
      assert.equal(typeof request.body.id, "number");
    }
    assert.deepEqual([seen[0]!.body.method, seen[0]!.body.params], ["eth_blockNumber", []]);
    assert.deepEqual([seen[1]!.body.method, seen[1]!.body.params], ["eth_call", [{ to: CALL.to, data: "0x" }, "0x1"]]);
    assert.notEqual(seen[0]!.body.id, seen[1]!.body.id);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test("a moved endpoint: 307 and 308 are followed with the same request, a few times at most (then the 3xx is the failure)", async () => {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const hop = /^\/hop\/(\d+)$/.exec(request.url ?? "");
      if (hop) {
        response.writeHead(308, { location: `/hop/${Number(hop[1]) + 1}` });
        return void response.end();
      }
      if (request.url !== "/moved/here") {
        response.writeHead(request.url === "/old" ? 307 : 308, { location: request.url === "/old" ? "/moved" : "/moved/here" });
        return void response.end();
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: body.method === "eth_blockNumber" && request.method === "POST" ? "0x7" : "0x0" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as { port: number };
    const [moved] = createChainClient(1, [`http://127.0.0.1:${port}/old`], { timeoutMs: 2_000 }).endpoints;
    assert.equal(await latestBlockNumber(moved!), 7n);
    const [endless] = createChainClient(1, [`http://127.0.0.1:${port}/hop/0`], { timeoutMs: 2_000 }).endpoints;
    await assert.rejects(latestBlockNumber(endless!), (error: unknown) => error instanceof ChainUnavailableError && error.reason === "HTTP 308");
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
