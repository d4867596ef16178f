// A ready demo chain: the embedded node with the demo, serving JSON-RPC. By default it loads the state the build
// saved (a fraction of a second); `deploy` deploys the demo on a fresh node instead, as the build itself does.
import type { Address } from "viem";
import { startEmbeddedChain, type EmbeddedChain } from "./chain.ts";
import { deployDemo, DEMO_MARKET_GROUP_ADDRESS } from "./demo.ts";
import { DEMO_STATE_COMMAND, DEMO_STATE_FILE, DemoStateError, readDemoState } from "./demoState.ts";

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

export interface DevchainOptions {
  readonly host?: string;
  /** 0 (default): any free port. */
  readonly port?: number;
  /** Deploy the demo from scratch instead of loading the build's saved state. */
  readonly deploy?: boolean;
}

/**
 * Starts the embedded chain on `host:port` with the demo: loaded from the build's saved state, checked to be this
 * code's and to end at the block it was saved at (a {@link DemoStateError} naming the command that makes it
 * again, if not), or deployed when `deploy` is set.
 */
export async function startDevchain(options: DevchainOptions = {}): Promise<Devchain> {
  const address = { host: options.host ?? "127.0.0.1", port: options.port ?? 0 };
  const saved = options.deploy ? undefined : readDemoState();
  const chain = await startEmbeddedChain({ ...address, ...(saved ? { loadState: { file: DEMO_STATE_FILE, headTimestamp: BigInt(saved.head.timestamp) } } : {}) });
  try {
    let marketGroup: Address;
    if (saved) {
      const head = await chain.publicClient.getBlock();
      if (head.hash !== saved.head.hash) {
        throw new DemoStateError(`the embedded chain loaded ${DEMO_STATE_FILE} but its head is ${head.hash}, not ${saved.head.hash}: run \`${DEMO_STATE_COMMAND}\` to make it again`);
      }
      marketGroup = DEMO_MARKET_GROUP_ADDRESS;
    } else {
      marketGroup = await deployDemo(chain);
    }
    const endpoint = { url: chain.url, webSocketUrl: chain.url.replace(/^http/, "ws"), close: () => chain.close() };
    return { chain, marketGroup, endpoint, close: () => chain.close() };
  } catch (error) {
    await chain.close();
    throw error;
  }
}
