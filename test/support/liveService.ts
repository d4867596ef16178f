// A quoter app listening on loopback, asked over real HTTP (undici), and trades on the demo chain that move a
// market's price: what the tests of the chain's head need (a quote after a trade, during a reorg).
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { maxUint256, parseUnits, type Hex } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chainId.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { quoterApp, type QuoterAppOptions } from "./quoterHarness.ts";
import { startRpcProxy, type RpcProxy } from "./rpcProxy.ts";

export interface LiveService {
  readonly app: FastifyInstance;
  readonly base: string;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** The chain's head as /health shows it. */
  head(): Promise<{ blockNumber: string; blockHash: string } | undefined>;
  close(): Promise<void>;
}

export async function liveService(options: QuoterAppOptions): Promise<LiveService> {
  const app = await quoterApp(options);
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
  const get: LiveService["get"] = async (path, headers = {}) => {
    const response = await request(`${base}${path}`, { headers });
    return { status: response.statusCode, body: await response.body.json(), headers: response.headers };
  };
  return {
    app,
    base,
    get,
    async head() {
      return (await get("/health")).body.chains?.[0]?.head;
    },
    close: () => app.close(),
  };
}

/**
 * The demo chain, a counting proxy in front of it and a service on the proxy, whose endpoint was probed for the
 * deployless searcher by a first quote (once per endpoint): what a test then counts at the proxy is its own.
 */
export async function probedServiceBehindProxy(options: Omit<QuoterAppOptions, "rpc"> = {}) {
  const devchain = await startDevchain();
  const proxy: RpcProxy = await startRpcProxy(devchain.endpoint.url);
  const service = await liveService({ ...options, rpc: proxy.url });
  await request(`${service.base}/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/1?expectedPrice=0.7&collateralAvailable=${10n ** 18n}`).then((response) => response.body.dump());
  return {
    devchain,
    proxy,
    service,
    async close() {
      await service.close();
      await proxy.close();
      await devchain.close();
    },
  };
}

/** A LONG of `size` (default 0.01) on demo market 2, mined; its receipt's block. */
export async function trade(devchain: Devchain, size = parseUnits("0.01", 18)): Promise<{ blockNumber: bigint; blockHash: Hex }> {
  const { traderClient, publicClient } = devchain.chain;
  const hash = await traderClient.writeContract({
    address: devchain.marketGroup,
    abi: marketGroupAbi,
    functionName: "executeTrade",
    args: [2n, size, maxUint256],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 5 });
  if (receipt.status !== "success") throw new Error("the trade reverted");
  return { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
}

/** Waits until `condition` holds, checking every 10 ms, for at most `ms`. */
export async function waitFor(condition: () => Promise<boolean> | boolean, ms = 5_000, what = "a condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
