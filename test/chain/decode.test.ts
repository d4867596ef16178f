// The decoders fed by src/chain/rpc/decode.ts read every answer as viem's own functions read it: the same values, the
// same errors by name and arguments, the same refusals of data that does not decode.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeErrorResult, encodeErrorResult, getAbiItem, hexToBytes, parseAbi, type Hex } from "viem";
import { bytesOf, errorSelector, errorsBySelector, decodeError } from "../../src/chain/rpc/decode.ts";
import { decodeFacts, encodeSearch, DEFAULT_SEARCH_GAS_CAP } from "../../src/chain/searchers/searcher.ts";
import { decodeRevert } from "../../src/chain/searchers/marketGroup.ts";
import { exactQuoteSearcherAbi, marketGroupAbi, quoteSearcherAbi } from "../../src/generated/contracts.ts";
import { ethCall } from "../../src/chain/rpc/call.ts";
import { createChainClient } from "../../src/chain/rpc/client.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { startDevchain } from "../../src/devchain/devchain.ts";
import { parseQuoteRequest } from "../../src/quote/request.ts";

const hex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString("hex")}`;

describe("bytesOf is viem's hexToBytes", () => {
  test("for any even-length hex, upper or lower case, from any byte on", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), fc.nat(8), (bytes, upper, skip) => {
        const data = (upper ? `0x${hex(bytes).slice(2).toUpperCase()}` : hex(bytes)) as Hex;
        const from = Math.min(skip, bytes.length);
        assert.deepEqual([...bytesOf(data, from)], [...hexToBytes(data).subarray(from)]);
      }),
      { numRuns: 500 },
    );
  });
  test("odd length reads as viem reads it; a character that is not hex throws as viem's does", () => {
    assert.deepEqual([...bytesOf("0xabc")], [...hexToBytes("0xabc")]);
    assert.throws(() => hexToBytes("0x12zz"));
    assert.throws(() => bytesOf("0x12zz"));
  });
});

describe("errors by selector", () => {
  const errors = marketGroupAbi.filter((item) => item.type === "error");
  /** A value of a uintN or intN type: 12345678901234567890, or the type's largest (negated for intN) when smaller. */
  const sampleNumber = (type: string): bigint => {
    const signed = type.startsWith("int");
    const bits = BigInt(type.slice(signed ? 3 : 4) || "256") - (signed ? 1n : 0n);
    const value = 12345678901234567890n < (1n << bits) - 1n ? 12345678901234567890n : (1n << bits) - 1n;
    return signed ? -value : value;
  };
  test("every error of the market group decodes to viem's name and arguments", () => {
    const bySelector = errorsBySelector(errors);
    for (const error of errors) {
      const args = error.inputs.map((input) => (input.type === "string" ? "a reason" : input.type === "address" ? DEMO_MARKET_GROUP_ADDRESS : sampleNumber(input.type)));
      const data = encodeErrorResult({ abi: [error], errorName: error.name, args } as never);
      const ours = decodeError(bySelector, data);
      const viems = decodeErrorResult({ abi: errors, data });
      assert.equal(ours?.error.name, viems.errorName);
      assert.deepEqual(ours?.args, viems.args ?? []);
      assert.equal(decodeError(bySelector, data.toUpperCase().replace("0X", "0x") as Hex)?.error.name, error.name, "selectors match whatever the case");
    }
  });
  test("Solidity's Error(string) and Panic(uint256) are known, with viem's argument names", () => {
    const errorString = encodeErrorResult({ abi: parseAbi(["error Error(string)"]), errorName: "Error", args: ["odd"] });
    assert.deepEqual(decodeRevert(errorString), { name: "Error", args: { message: "odd" } });
    const panic = encodeErrorResult({ abi: parseAbi(["error Panic(uint256)"]), errorName: "Panic", args: [0x12n] });
    assert.deepEqual(decodeRevert(panic), { name: "Panic", args: { reason: "18" } });
  });
  test("an unknown selector, data shorter than a selector, or arguments that do not decode", () => {
    const bySelector = errorsBySelector(errors);
    assert.equal(decodeError(bySelector, "0xdeadbeef"), undefined);
    assert.equal(decodeError(bySelector, "0x1234"), undefined);
    const withArgs = errors.find((error) => error.inputs.length > 0)!;
    assert.throws(() => decodeError(bySelector, errorSelector(withArgs)));
    assert.equal(decodeRevert(errorSelector(withArgs)), undefined);
  });
});

describe("the searcher's facts", () => {
  test("both searchers answer with the same SearchFacts", () => {
    const bisection = getAbiItem({ abi: quoteSearcherAbi, name: "SearchFacts" });
    const exact = getAbiItem({ abi: exactQuoteSearcherAbi, name: "SearchFacts" });
    assert.deepEqual(exact, bisection);
  });

  test("decodeFacts reads a real answer as viem's decodeErrorResult does, and refuses anything else", async () => {
    const devchain = await startDevchain();
    try {
      const [endpoint] = createChainClient(DEVCHAIN_ID, [devchain.endpoint.url], { timeoutMs: 10_000 }).endpoints;
      for (const [marketId, search] of [["1", "bisection"], ["2", "exact"], ["3", "bisection"], ["99", "exact"]] as const) {
        const parsed = parseQuoteRequest(
          { chainId: String(DEVCHAIN_ID), marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId },
          { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000", search },
        );
        assert.ok(parsed.ok);
        const answer = await ethCall(endpoint!, { data: encodeSearch(parsed.value), block: "latest", gas: DEFAULT_SEARCH_GAS_CAP, answersByReverting: true });
        const viems = decodeErrorResult({ abi: quoteSearcherAbi, data: answer.data });
        assert.equal(viems.errorName, "SearchFacts");
        assert.deepEqual(decodeFacts(answer), viems.args[0]);
        assert.throws(() => decodeFacts({ success: true, data: answer.data }), { name: "SearcherUnsupportedError" });
        assert.throws(() => decodeFacts({ success: false, data: answer.data.slice(0, 200) as Hex }), { name: "SearcherUnsupportedError" });
      }
    } finally {
      await devchain.close();
    }
  });
});
