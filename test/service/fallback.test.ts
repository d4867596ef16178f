// The fallback over a chain's endpoints, on the demo chain behind loopback proxies: a transport failure moves
// the quote to the next endpoint with one warning; any other outcome is the answer; none answering is a 503.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { ChainEndpoint } from "../../src/chain/client.ts";
import { sequentialReader } from "../../src/chain/sequential.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { answerFrom } from "../../src/service/answer.ts";
import { firstAnswer } from "../../src/service/fallback.ts";
import { rpcError, startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";
import { demoRequest, endpointsAt, recordWarnings } from "./support.ts";

/** A node error that is the transport's (semantics §1): it carries no revert data and names no EVM failure. */
const HEADER_NOT_FOUND = { code: -32000, message: "header not found" };

let devchain: Devchain;
let failing: RpcProxy;
let healthy: RpcProxy;
before(async () => {
  devchain = await startDevchain();
  failing = await startRpcProxy(devchain.endpoint.url, { reply: () => rpcError(HEADER_NOT_FOUND) });
  healthy = await startRpcProxy(devchain.endpoint.url);
});
after(async () => {
  await failing.close();
  await healthy.close();
  await devchain.close();
});

/** Quotes `marketId` sequentially at each endpoint in turn, as the service does. */
function quoteOn(urls: string[], marketId = 2n, signal = new AbortController().signal) {
  const request = demoRequest(devchain.marketGroup, { marketId });
  const { warn, warnings } = recordWarnings();
  const answerAt = async (endpoint: ChainEndpoint) =>
    answerFrom(await sequentialReader(endpoint, request.marketAddress, request.marketId, signal), request);
  const answer = firstAnswer(endpointsAt(urls), answerAt, signal, warn);
  return { answer, warnings };
}

const forget = () => {
  failing.methods.length = 0;
  healthy.methods.length = 0;
};

test("a failing first endpoint: the answer is the next one's, read there alone, after one warning", async () => {
  forget();
  const reference = await quoteOn([devchain.endpoint.url]).answer;
  const { answer, warnings } = quoteOn([failing.url, healthy.url]);
  assert.deepEqual(await answer, reference);
  assert.deepEqual(failing.methods, ["eth_blockNumber"]);
  assert.equal(healthy.methods[0], "eth_blockNumber", "the whole quote starts again at the next endpoint");
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.message, "RPC endpoint failed");
  assert.deepEqual(Object.keys(warnings[0]!.fields), ["chainId", "endpoint", "reason"]);
  assert.equal(warnings[0]!.fields.endpoint, endpointsAt([failing.url])[0]!.label);
  assert.match(String(warnings[0]!.fields.reason), /JSON-RPC error -32000/);
});

test("no endpoint answers: 503 Chain RPC unavailable, one warning per endpoint", async () => {
  const { answer, warnings } = quoteOn([failing.url, failing.url]);
  await assert.rejects(answer, { message: "Chain RPC unavailable" });
  assert.equal(warnings.length, 2);
});

test("an answer that is an error (here 404 Market not found) is the answer: the next endpoint is never asked", async () => {
  forget();
  const { answer, warnings } = quoteOn([healthy.url, failing.url], 99n);
  await assert.rejects(answer, { message: "Market not found" });
  assert.deepEqual(failing.methods, []);
  assert.deepEqual(warnings, []);
});

test("once the signal is aborted (the deadline passed), no further endpoint is asked", async () => {
  forget();
  const abandon = new AbortController();
  abandon.abort();
  const { answer, warnings } = quoteOn([healthy.url], 2n, abandon.signal);
  await assert.rejects(answer, { name: "AbortError" });
  assert.deepEqual(healthy.methods, []);
  assert.deepEqual(warnings, []);
});
