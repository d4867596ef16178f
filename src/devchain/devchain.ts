// A ready demo chain: the embedded node with the demo deployment, serving JSON-RPC.
import type { Address } from "viem";
import { startEmbeddedChain, type EmbeddedChain } from "./chain.ts";
import { deployDemo } from "./demo.ts";

export interface JsonRpcEndpoint {
  readonly url: string;
  /** The same node's JSON-RPC over WebSocket (anvil serves both on one port): where new heads are pushed. */
  readonly webSocketUrl: string;
  close(): Promise<void>;
}

export interface Devchain {
  readonly chain: EmbeddedChain;
  readonly marketGroup: Address;
  readonly endpoint: JsonRpcEndpoint;
  close(): Promise<void>;
}

/** Starts the embedded chain on `host:port` (port 0: any free port) and deploys the demo on it. */
export async function startDevchain(options: { host?: string; port?: number } = {}): Promise<Devchain> {
  const chain = await startEmbeddedChain({ host: options.host ?? "127.0.0.1", port: options.port ?? 0 });
  try {
    const marketGroup = await deployDemo(chain);
    const endpoint = { url: chain.url, webSocketUrl: chain.url.replace(/^http/, "ws"), close: () => chain.close() };
    return { chain, marketGroup, endpoint, close: () => chain.close() };
  } catch (error) {
    await chain.close();
    throw error;
  }
}
