// Semantics §1: one classification on every node. Each recorded JSON-RPC answer of the devchain (EDR), anvil
// and ganache, for the same state, is served as is on loopback and read through the service's own eth_call:
// execution failures are reverts whatever the wording, everything else that is not an answer is the transport's.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ethCall, refusesBlockObject, type RawCall } from "../../src/chain/rpc/call.ts";
import { createChainClient } from "../../src/chain/rpc/client.ts";
import { BlockUnknownError, ChainUnavailableError } from "../../src/chain/rpc/chainErrors.ts";
import { startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";

type Recorded = { status: number; body: { id?: number; error?: unknown; result?: string } };
const recorded = JSON.parse(readFileSync(new URL("../fixtures/node-error-bodies.json", import.meta.url), "utf8")) as {
  cases: Record<string, Record<string, Recorded>>;
};

type Reading = "revert-with-recorded-data" | "revert-without-data" | "answer" | "transport";

/** What each case must read as: the same on every node, or per node where a node was asked something else. */
const EXPECTED: Record<string, Reading | Record<string, Reading>> = {
  "custom error, no args (getMarket(99): InvalidMarket())": "revert-with-recorded-data",
  "custom error with args (quote m4 size 1e30: PoolPriceOutOfRange)": "revert-with-recorded-data",
  'Error(string) (odd m4 LONG: revert("odd"))': "revert-with-recorded-data",
  "bare revert (market group, unknown selector 0xdeadbeef)": "revert-without-data",
  "bare revert (odd m1 LONG: revert())": "revert-without-data",
  "panic 0x12 division by zero (odd m1 SHORT)": "revert-with-recorded-data",
  // Not an execution: the call asked for less gas than its intrinsic cost, which a node refuses before running
  // anything (the quoter never asks that). ganache attaches `0x` data, which reads as a revert by the data rule.
  "gas 0x5208 (quote m1 1e18)": { devchain: "transport", anvil: "transport", ganache: "revert-without-data" },
  "out of gas in execution (gas 0x7530, quote m1 1e18)": "revert-without-data",
  "out of gas at the node's cap (odd m2 LONG: mstore at 2^40, no gas given)": "revert-without-data",
  "INVALID opcode 0xfe (odd m2 SHORT)": "revert-without-data",
  "deployless (no to): probe code, gas 30M": "answer",
  "deployless (no to): creation code that reverts with 32 bytes": "revert-with-recorded-data",
  // ganache (Shanghai) cannot run MCOPY: an invalid opcode, so a revert without data; the others answer.
  "deployless (no to): QuoteSearcher, m1 0.55 1e21, gas 30M": { devchain: "answer", anvil: "answer", ganache: "revert-without-data" },
  "no code at address (getMarket(1) to 0x…dEaD)": "answer",
  "getMarket(1) on the demo group (MCOPY: cancun)": { devchain: "answer", anvil: "answer", ganache: "revert-without-data" },
};

/** A fake node: it answers every request with the recorded answer being served, given the request's id. */
let node: RpcProxy;
let serving: Recorded | undefined;
before(async () => {
  node = await startRpcProxy(undefined, { reply: () => serving });
});
after(() => node.close());

async function callRecorded(answer: Recorded): Promise<RawCall | "transport"> {
  serving = answer;
  const [endpoint] = createChainClient(1, [node.url], { timeoutMs: 2_000 }).endpoints;
  try {
    return await ethCall(endpoint!, { to: "0x000000000000000000000000000000000000dEaD", data: "0x", block: 1n });
  } catch (error) {
    assert.ok(error instanceof ChainUnavailableError, String(error));
    return "transport";
  }
}

function recordedData(answer: Recorded): string {
  const error = answer.body.error as { data?: string | { data?: string } };
  return typeof error.data === "string" ? error.data : error.data!.data!;
}

describe("semantics §1: every node's answer reads alike", () => {
  test("every recorded case has its expected reading", () => {
    assert.deepEqual(Object.keys(recorded.cases).sort(), Object.keys(EXPECTED).sort());
  });

  for (const [name, nodes] of Object.entries(recorded.cases)) {
    for (const [node, answer] of Object.entries(nodes)) {
      test(`${name} on ${node}`, async () => {
        const rule = EXPECTED[name]!;
        const expected = typeof rule === "string" ? rule : rule[node]!;
        const read = await callRecorded(answer);
        if (expected === "transport") return assert.equal(read, "transport");
        assert.notEqual(read, "transport", "an execution's outcome is never a transport failure");
        const call = read as RawCall;
        if (expected === "answer") return assert.deepEqual(call, { success: true, data: answer.body.result });
        assert.equal(call.success, false);
        assert.equal(call.data, expected === "revert-without-data" ? "0x" : recordedData(answer));
      });
    }
  }

  test("the same execution failure reads the same on all three nodes", async () => {
    for (const name of [
      "out of gas in execution (gas 0x7530, quote m1 1e18)",
      "out of gas at the node's cap (odd m2 LONG: mstore at 2^40, no gas given)",
      "INVALID opcode 0xfe (odd m2 SHORT)",
    ]) {
      const reads = [];
      for (const answer of Object.values(recorded.cases[name]!)) reads.push(await callRecorded(answer));
      assert.equal(reads.length, 3);
      assert.deepEqual(reads, [reads[0], reads[0], reads[0]], name);
    }
  });
});

describe("a JSON-RPC error that is not an execution stays a transport failure", () => {
  for (const message of [
    "header not found",
    "gas required exceeds allowance (30000000)",
    "intrinsic gas too low",
    "exceeds block gas limit",
    "EVM error CallerGasLimitMoreThanBlock",
    "rate limited",
  ]) {
    test(message, async () => {
      assert.equal(await callRecorded({ status: 200, body: { jsonrpc: "2.0", error: { code: -32000, message } } as never }), "transport");
    });
  }
  test("an HTTP error whose body names an out-of-gas is still the transport's", async () => {
    assert.equal(await callRecorded({ status: 500, body: { error: { code: -32603, message: "EVM error OutOfGas" } } }), "transport");
  });
});

describe("a node that takes no EIP-1898 block object: its refusal, and only it, is told apart", () => {
  // ganache 7.9.2's words (its stack left out), asked eth_call at { blockHash } and at a number it does not have.
  const refusal = { code: -32700, message: 'Cannot wrap a "object" as a json-rpc type' };
  const unknownBlock = { code: -32700, message: "header not found" };

  test("ganache's refusal is one; its `header not found` under the same code, and every recorded error, are not", () => {
    assert.equal(refusesBlockObject(refusal), true);
    assert.equal(refusesBlockObject({ code: -32602, message: "Invalid params: invalid type: map, expected a 0x-prefixed hex string" }), true, "OpenEthereum's");
    assert.equal(refusesBlockObject(unknownBlock), false);
    for (const nodes of Object.values(recorded.cases)) {
      for (const { body } of Object.values(nodes)) if (body.error) assert.equal(refusesBlockObject(body.error as never), false, JSON.stringify(body.error));
    }
  });

  test("the call is made again by number, its block checked by hash; the endpoint is read so from then on", async () => {
    const blockHash = `0x${"ab".repeat(32)}`;
    let hashAtSeven = blockHash;
    const proxy = await startRpcProxy(undefined, {
      reply: (request) => {
        if (request?.method === "eth_getBlockByNumber") return { body: { jsonrpc: "2.0", result: { number: "0x7", hash: hashAtSeven } } };
        const block = request?.params?.[1];
        return typeof block === "object" ? { body: { jsonrpc: "2.0", error: refusal } } : { body: { jsonrpc: "2.0", result: "0x2a" } };
      },
    });
    try {
      const [endpoint] = createChainClient(1, [proxy.url], { timeoutMs: 2_000 }).endpoints;
      const call = () => ethCall(endpoint!, { to: "0x000000000000000000000000000000000000dEaD", data: "0x", block: { number: 7n, hash: blockHash as `0x${string}` } });
      assert.deepEqual(await call(), { success: true, data: "0x2a" });
      assert.deepEqual(proxy.methods, ["eth_call", "eth_call", "eth_getBlockByNumber"]);
      assert.equal(endpoint!.state.blocksByNumber, true);
      proxy.clear();
      assert.deepEqual(await call(), { success: true, data: "0x2a" });
      assert.deepEqual(proxy.methods, ["eth_call", "eth_getBlockByNumber"], "no block object asked again");
      hashAtSeven = `0x${"cd".repeat(32)}`;
      await assert.rejects(call(), (error: unknown) => error instanceof BlockUnknownError && /has another block than 0xabab/.test(error.reason));
    } finally {
      await proxy.close();
    }
  });
});
