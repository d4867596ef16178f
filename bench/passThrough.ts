// The floor of the service's costs on this machine: Fastify with its defaults (no logger, no plugin) and one GET
// route on the quote's path that forwards the next of a list of JSON-RPC requests through the service's own
// transport (src/chain/rpc/transport.ts) and answers a fixed body. It parses nothing, searches nothing and decodes
// nothing, so what it costs (CPU per answer, latency over a bare eth_call) is what any quoter built on this stack
// that makes one JSON-RPC round trip per quote costs at least. bench/cpu.ts and bench/run.ts measure it beside the
// service.
//
// `node --import tsx bench/passThrough.ts`, with PASS_THROUGH_RPC_URL (where to forward), PASS_THROUGH_REQUESTS (a
// JSON file: an array of `{ method, params }`, forwarded in turn) and PASS_THROUGH_BODY (the answer, JSON; `{}` by
// default). A forwarded request that gets no answer, or an answer that is neither a result nor an error with data
// (the searcher's facts), is answered 502: the bench counts every answer that is not a 200.
import { readFileSync } from "node:fs";
import Fastify from "fastify";
import { postJsonRpc, rpcTarget } from "../src/chain/rpc/transport.ts";

interface ForwardedRequest {
  readonly method: string;
  readonly params: readonly unknown[];
}

const rpcUrl = process.env.PASS_THROUGH_RPC_URL;
const requestsFile = process.env.PASS_THROUGH_REQUESTS;
if (!rpcUrl || !requestsFile) throw new Error("PASS_THROUGH_RPC_URL and PASS_THROUGH_REQUESTS are required");
const requests = JSON.parse(readFileSync(requestsFile, "utf8")) as ForwardedRequest[];
if (requests.length === 0) throw new Error(`${requestsFile} lists no request`);
const body = JSON.parse(process.env.PASS_THROUGH_BODY ?? "{}") as Record<string, unknown>;
const target = rpcTarget(rpcUrl, 30_000);

let next = 0;
const app = Fastify();
app.get("/quoter/:chainId/:marketAddress/:marketId", async (_request, reply) => {
  const { method, params } = requests[next++ % requests.length]!;
  try {
    const answer = await postJsonRpc(target, method, params);
    if (answer.error === undefined || typeof answer.error.data === "string") return body;
    return reply.code(502).send({ error: `the node answered ${answer.error.message}` });
  } catch (error) {
    return reply.code(502).send({ error: error instanceof Error ? error.message : String(error) });
  }
});
const address = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(`pass-through listening on ${address}`);
