// How each endpoint is quoted, on the demo chain behind a loopback proxy: probed once, then one deployless
// call per quote; sequential from the first answer that is not the searcher's facts (at the probe or at a
// quote), remembered with one warning; a transport failure decides nothing.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { ChainEndpoint } from "../../src/chain/rpc/client.ts";
import { ChainUnavailableError } from "../../src/chain/rpc/chainErrors.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../../src/chain/searchers/searcher.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { answerAtEndpoint } from "../../src/service/answerAtBlock.ts";
import { createEndpointStrategy, type EndpointStrategy } from "../../src/service/endpointStrategy.ts";
import { rpcError, startRpcProxy, type JsonRpcRequest, type RpcProxy } from "../support/rpcProxy.ts";
import { demoRequest, endpointsAt, latestPin, recordWarnings, type Warning } from "./support.ts";
import type { BlockPin } from "../../src/chain/rpc/call.ts";

/** ganache (Shanghai) ran the Cancun searcher into an invalid opcode: a revert, but not the searcher's facts. */
const INVALID_OPCODE = (
  JSON.parse(readFileSync(new URL("../fixtures/node-error-bodies.json", import.meta.url), "utf8")) as {
    cases: Record<string, Record<string, { body: { error: Record<string, unknown> } }>>;
  }
).cases["deployless (no to): QuoteSearcher, m1 0.55 1e21, gas 30M"]!.ganache!.body.error;
/** A node error that is the transport's: it decides nothing about the endpoint. */
const INTERNAL_ERROR = { code: -32603, message: "internal error" };
const WARNING = "endpoint does not run the deployless searcher: quoting sequentially";

type Answer = Record<string, unknown> | undefined;

interface Behind {
  endpoint: ChainEndpoint;
  proxy: RpcProxy;
  /** Deployless calls received (the probe's and the quotes'). */
  deployless: number;
  /** How the proxy answers the `nth` deployless call: `undefined` forwards it to the chain. */
  answer: (nth: number) => Answer;
}

/** An endpoint behind a proxy that answers its deployless calls as `answer` says. */
async function endpointBehind(answer: Behind["answer"] = () => undefined): Promise<Behind> {
  const behind = { answer, deployless: 0 } as Behind;
  behind.proxy = await startRpcProxy(devchain.endpoint.url, {
    reply: (request) => {
      if (request === undefined || !isDeployless(request)) return undefined;
      const error = behind.answer(++behind.deployless);
      return error === undefined ? undefined : rpcError(error);
    },
  });
  behind.endpoint = endpointsAt([behind.proxy.url])[0]!;
  return behind;
}

const isDeployless = (request: JsonRpcRequest) =>
  request.method === "eth_call" && !(request.params?.[0] as { to?: string } | undefined)?.to;

function strategyOf(singleCall: boolean): { strategy: EndpointStrategy; warnings: Warning[] } {
  const { warn, warnings } = recordWarnings();
  return { strategy: createEndpointStrategy({ singleCall, searchGasCap: DEFAULT_SEARCH_GAS_CAP, exactMaxCandidates: 32, warn }), warnings };
}

/** The demo request's answer, with its trace, through `strategy` at `endpoint`. */
function quote(strategy: EndpointStrategy, endpoint: ChainEndpoint) {
  const request = demoRequest(devchain.marketGroup, { trace: true });
  return answerAtEndpoint(strategy, endpoint, request, { block: head, signal: new AbortController().signal });
}

let devchain: Devchain;
/** The block every quote here is pinned to. */
let head: BlockPin;
/** The answer call by call, straight from the chain. */
let sequentialAnswer: unknown;
before(async () => {
  devchain = await startDevchain();
  head = await latestPin(devchain.endpoint.url);
  sequentialAnswer = await quote(strategyOf(false).strategy, endpointsAt([devchain.endpoint.url])[0]!);
});
after(() => devchain.close());

test("an endpoint that runs the searcher: probed once, then one deployless call per quote, answering as call by call", async () => {
  const behind = await endpointBehind();
  const { endpoint, proxy } = behind;
  const { strategy, warnings } = strategyOf(true);
  await strategy.probe([endpoint]);
  await strategy.probe([endpoint]);
  assert.deepEqual(proxy.methods, ["eth_call"], "known after one probe");
  assert.deepEqual(await quote(strategy, endpoint), sequentialAnswer);
  assert.deepEqual(proxy.methods, ["eth_call", "eth_call"]);
  assert.equal(behind.deployless, 2);
  assert.deepEqual(warnings, []);
  await proxy.close();
});

test("sequential by configuration: never probed, one request per read", async () => {
  const behind = await endpointBehind();
  const { endpoint, proxy } = behind;
  const { strategy, warnings } = strategyOf(false);
  await strategy.probe([endpoint]);
  assert.deepEqual(proxy.methods, []);
  assert.deepEqual(await quote(strategy, endpoint), sequentialAnswer);
  assert.equal(proxy.methods.length, 14, "four reads and ten candidates, each its own eth_call");
  assert.ok(proxy.methods.every((method) => method === "eth_call"));
  assert.equal(behind.deployless, 0);
  assert.deepEqual(warnings, []);
  await proxy.close();
});

for (const [when, passes, decidedBy] of [
  ["at the probe", 0, "the probe"],
  ["at a quote's first answer", 1, "a quote's answer"],
] as const) {
  test(`an endpoint that cannot run the searcher, found ${when}: one warning, then sequential with no deployless call`, async () => {
    const behind = await endpointBehind((nth) => (nth > passes ? INVALID_OPCODE : undefined));
    const { strategy, warnings } = strategyOf(true);
    await strategy.probe([behind.endpoint]);
    for (let i = 0; i < 3; i++) assert.deepEqual(await quote(strategy, behind.endpoint), sequentialAnswer);
    await strategy.probe([behind.endpoint]);
    assert.equal(behind.deployless, passes + 1, "no deployless call once it was decided");
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.equal(warnings[0]!.message, WARNING);
    assert.equal(warnings[0]!.fields.decidedBy, decidedBy);
    assert.equal(warnings[0]!.fields.endpoint, behind.endpoint.label);
    // The quote's answer names what the endpoint answered; the probe's refusal is the whole story.
    assert.equal("reason" in warnings[0]!.fields, passes === 1);
    await behind.proxy.close();
  });
}

test("a transport failure decides nothing: the probe is swallowed and tried again at the next quote", async () => {
  const behind = await endpointBehind(() => INTERNAL_ERROR);
  const { strategy, warnings } = strategyOf(true);
  await strategy.probe([behind.endpoint]);
  await assert.rejects(quote(strategy, behind.endpoint), ChainUnavailableError, "the quote's own probe fails: the endpoint has failed");
  assert.equal(behind.deployless, 2);
  behind.answer = () => undefined;
  assert.deepEqual(await quote(strategy, behind.endpoint), sequentialAnswer);
  assert.equal(behind.deployless, 4, "probed, then quoted in one deployless call");
  assert.deepEqual(warnings, []);
  await behind.proxy.close();
});
