// The fallback over a chain's endpoints, on the demo chain behind loopback proxies: a transport failure moves
// the quote to the next endpoint with one warning; any other outcome is the answer; none answering is a failure
// of every endpoint, each named (the service answers it 503).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { ChainEndpoint } from "../../src/chain/rpc/client.ts";
import { sequentialReader } from "../../src/chain/searchers/sequential.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { answerFrom } from "../../src/service/answerAtBlock.ts";
import { firstAnswer } from "../../src/service/fallback.ts";
import { EndpointsFailedError } from "../../src/chain/rpc/chainErrors.ts";
import type { BlockPin } from "../../src/chain/rpc/call.ts";
import { chainBehindProxy, type ChainBehindProxy } from "../support/liveService.ts";
import { rpcError, type RpcProxy } from "../support/rpcProxy.ts";
import { bodyOf, demoRequest, endpointsAt, latestPin, recordWarnings } from "./support.ts";

/** A node error that is the transport's (semantics §1): it carries no revert data and names no EVM failure. */
const INTERNAL_ERROR = { code: -32603, message: "internal error" };

let setup: ChainBehindProxy;
let devchain: Devchain;
let failing: RpcProxy;
let healthy: RpcProxy;
let head: BlockPin;
before(async () => {
  ({ devchain, proxy: healthy } = setup = await chainBehindProxy());
  head = await latestPin(devchain.endpoint.url);
  // eth_chainId passes: the endpoint serves the chain, and fails every read.
  failing = await setup.startProxy({ reply: (request) => (request?.method === "eth_chainId" ? undefined : rpcError(INTERNAL_ERROR)) });
});
after(() => setup.close());

/** Quotes `marketId` sequentially at each endpoint in turn, as the service does. */
function quoteOn(urls: string[], marketId = 2n, signal = new AbortController().signal) {
  const request = demoRequest(devchain.marketGroup, { marketId });
  const { warn, warnings } = recordWarnings();
  const answerAt = async (endpoint: ChainEndpoint) =>
    bodyOf(await answerFrom(await sequentialReader(endpoint, request, { block: head, signal }), request));
  const answer = firstAnswer(endpointsAt(urls), answerAt, signal, warn);
  return { answer, warnings };
}

const forget = () => {
  failing.methods.length = 0;
  healthy.methods.length = 0;
};
/** Only what the quote itself asked (the endpoints' chain id is asked once, before their first quote). */
const reads = (proxy: RpcProxy) => proxy.methods.filter((method) => method !== "eth_chainId");

test("a failing first endpoint: the answer is the next one's, read there alone, after one warning", async () => {
  forget();
  const reference = await quoteOn([devchain.endpoint.url]).answer;
  const { answer, warnings } = quoteOn([failing.url, healthy.url]);
  assert.deepEqual(await answer, reference);
  assert.deepEqual(reads(failing), ["eth_call"], "its first read failed");
  assert.equal(reads(healthy).length, 14, "the whole quote starts again at the next endpoint: every read there");
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.message, "RPC endpoint failed");
  assert.deepEqual(Object.keys(warnings[0]!.fields), ["chainId", "endpoint", "reason"]);
  assert.equal(warnings[0]!.fields.endpoint, endpointsAt([failing.url])[0]!.label);
  assert.match(String(warnings[0]!.fields.reason), /JSON-RPC error -32603/);
});

test("no endpoint answers: each one named with its failure (the service answers 503), one warning per endpoint", async () => {
  const { answer, warnings } = quoteOn([failing.url, failing.url]);
  await assert.rejects(answer, (error: unknown) => {
    assert.ok(error instanceof EndpointsFailedError);
    assert.deepEqual(error.details.map((detail) => detail.param), ["chainId", "chainId"]);
    assert.match(error.details[0]!.message, /^RPC_URL_31337 \(URL 1 of 2\): JSON-RPC error -32603$/);
    return true;
  });
  assert.equal(warnings.length, 2);
});

test("an answer that is an error (here 404 Market not found) is the answer: the next endpoint is never asked", async () => {
  forget();
  const { answer, warnings } = quoteOn([healthy.url, failing.url], 99n);
  await assert.rejects(answer, { message: "Market not found" });
  assert.deepEqual(reads(failing), []);
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
