// One quoter app per search strategy over the same endpoint, for tests that check both answer alike.
import type { FastifyInstance } from "fastify";
import { createChainRegistry } from "../../src/chain/client.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { buildApp } from "../../src/http/app.ts";
import { createQuoter, type SearchStrategy } from "../../src/service/quoter.ts";

/** An app quoting chain 31337 at `url` with `strategy`, probed, without a rate limit. */
export async function strategyApp(url: string, strategy: SearchStrategy): Promise<FastifyInstance> {
  const quoter = createQuoter({ chains: createChainRegistry(new Map([[DEVCHAIN_ID, [url]]]), { timeoutMs: 10_000 }), strategy });
  await quoter.probe();
  return buildApp({ quoter, protection: { rateLimitMax: 0 } });
}

/** [single-call, sequential] apps on the same endpoint. */
export async function bothStrategies(url: string): Promise<FastifyInstance[]> {
  return [await strategyApp(url, "single-call"), await strategyApp(url, "sequential")];
}
