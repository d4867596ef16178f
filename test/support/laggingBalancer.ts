// A load balancer of which some backends lag, in front of the embedded chain: each request, by a seeded draw, goes
// to the real node or to a backend a block or two behind it, which answers the latest block as that older one,
// null for a block it does not have yet (by number or hash), and "header not found" for a call pinned to such a
// block, as geth words it.
import { numberToHex } from "viem";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { rpcError, type JsonRpcRequest, type RpcProxy } from "./rpcProxy.ts";

export type LaggingBalancer = RpcProxy & { lagged: () => number };

/** `proxy`, in front of `devchain`'s node, made such a balancer: `share` of the requests (0.4 by default) lag. */
export async function laggingBalancer(devchain: Devchain, proxy: RpcProxy, seed: number, share = 0.4): Promise<LaggingBalancer> {
  let state = seed;
  const draw = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31), state / 2 ** 31);
  let lagged = 0;
  const headerNotFound = rpcError({ code: -32000, message: "header not found" });
  const node = (method: string, params: unknown[]) => devchain.chain.provider.request({ method, params } as never) as Promise<any>;
  // The proxy's replier is synchronous: the lagging backend's view is read from the node beforehand, each time.
  let latest = 0n;
  const hashes = new Map<string, bigint>();
  const refresh = async () => {
    const block = await node("eth_getBlockByNumber", ["latest", false]);
    latest = BigInt(block.number);
    hashes.set(block.hash, latest);
  };
  await refresh();
  const timer = setInterval(() => void refresh().catch(() => undefined), 5);
  proxy.reply = (request: JsonRpcRequest | undefined) => {
    if (request === undefined) return undefined;
    const lag = draw() < share ? (draw() < 0.5 ? 1n : 2n) : 0n;
    if (lag === 0n) return undefined;
    const behind = latest - lag;
    if (request.method === "eth_getBlockByNumber" && request.params?.[0] === "latest") {
      lagged++;
      return { forward: { ...request, params: [numberToHex(behind), false] } }; // the older block, as that backend's latest
    }
    const asked = request.method === "eth_getBlockByNumber" ? request.params?.[0] : undefined;
    if (typeof asked === "string" && asked.startsWith("0x") && BigInt(asked) > behind) {
      lagged++;
      return { body: { jsonrpc: "2.0", result: null } }; // a block that backend does not have yet
    }
    if (request.method === "eth_getBlockByHash" && (hashes.get(String(request.params?.[0])) ?? 0n) > behind) {
      lagged++;
      return { body: { jsonrpc: "2.0", result: null } };
    }
    const pinned = (request.params?.[1] as { blockHash?: string } | undefined)?.blockHash;
    if (request.method === "eth_call" && pinned !== undefined) {
      const number = hashes.get(pinned) ?? latest;
      if (number > behind) {
        lagged++;
        return headerNotFound;
      }
    }
    return undefined;
  };
  const close = proxy.close.bind(proxy);
  return Object.assign(proxy, { lagged: () => lagged, close: async () => (clearInterval(timer), await close()) });
}
