// A ready demo chain: the embedded EVM with the demo deployment, served over JSON-RPC on loopback.
import type { Address } from "viem";
import { serveJsonRpc, startEmbeddedChain, type EmbeddedChain, type JsonRpcEndpoint } from "./chain.ts";
import { deployDemo } from "./demo.ts";

export interface Devchain {
  readonly chain: EmbeddedChain;
  readonly marketGroup: Address;
  readonly endpoint: JsonRpcEndpoint;
  close(): Promise<void>;
}

/** Starts the embedded chain, deploys the demo, and serves it on `host:port` (port 0: any free port). */
export async function startDevchain(options: { host?: string; port?: number } = {}): Promise<Devchain> {
  const chain = await startEmbeddedChain();
  const marketGroup = await deployDemo(chain);
  const endpoint = await serveJsonRpc(chain, options.host ?? "127.0.0.1", options.port ?? 0);
  return { chain, marketGroup, endpoint, close: () => endpoint.close() };
}
