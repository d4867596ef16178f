// A real quoter on a real chain: the embedded devchain served over JSON-RPC on loopback, the service's
// chain layer speaking HTTP to it, and the Fastify app answering through inject() or a socket.
import type { FastifyInstance } from "fastify";
import { createChainRegistry } from "../../src/chain/client.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { buildApp } from "../../src/http/app.ts";
import { createQuoter } from "../../src/service/quoter.ts";

export interface QuoterHarness {
  readonly devchain: Devchain;
  readonly app: FastifyInstance;
  /** GET a path and return the status and the parsed JSON body. */
  get(path: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** `/quoter/31337/<market group>/<id>?<query>` */
  quotePath(marketId: bigint | number | string, query: Record<string, string>): string;
  close(): Promise<void>;
}

export async function startQuoterHarness(options: { rpcUrls?: Map<number, string[]> } = {}): Promise<QuoterHarness> {
  const devchain = await startDevchain();
  const rpcUrls = options.rpcUrls ?? new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]);
  const chains = createChainRegistry(rpcUrls, { timeoutMs: 5_000 });
  // No rate limit here: these tests send hundreds of quotes from one address (test/http/protection.test.ts covers it).
  const app = buildApp({ quoter: createQuoter({ chains }), chains, protection: { rateLimitMax: 0 } });
  await app.ready();
  return {
    devchain,
    app,
    async get(path) {
      const response = await app.inject({ method: "GET", url: path });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    },
    quotePath(marketId, query) {
      return `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;
    },
    async close() {
      await app.close();
      await devchain.close();
    },
  };
}
