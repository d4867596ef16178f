// A quoter app listening on loopback, asked over real HTTP (undici); the demo chain with a counting proxy in front
// of it, on which tests start such services; and trades on the demo chain that move a market's price: what the
// tests of the chain's head need (a quote after a trade, during a reorg).
import { after, before } from "node:test";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { parseUnits, type Hex } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { quoterApp, type QuoterAppOptions } from "./quoterHarness.ts";
import { startRpcProxy, type RpcProxy, type RpcProxyOptions } from "./rpcProxy.ts";
import { tradeInOneBlock } from "./demoTrades.ts";

export { waitFor } from "./waitFor.ts";

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
 * Options of a service on a chain behind a proxy: the app's own (`quoterApp`), its endpoints (`rpc`, by default the
 * proxy alone) and where its new heads come from.
 */
export interface ServeOptions extends QuoterAppOptions {
  /**
   * New heads pushed over the node's own WebSocket rather than polled through the endpoints: the proxy then sees the
   * quotes' requests and the endpoint's one eth_chainId, nothing per block.
   */
  readonly webSocket?: boolean;
}

/** The demo chain and a counting proxy in front of it; the services and proxies started from it close with it. */
export interface ChainBehindProxy {
  readonly devchain: Devchain;
  /** What every request of a service on the proxy crosses, counted. */
  readonly proxy: RpcProxy;
  /** A service on this chain, listening on loopback: on the proxy unless `rpc` names other endpoints. */
  serve(options?: ServeOptions): Promise<LiveService>;
  /** `run` with a service started with `options`, closed after it whatever happens. */
  withService<T>(options: ServeOptions, run: (service: LiveService) => Promise<T>): Promise<T>;
  /** Another proxy in front of the node (a slow one, one that answers some requests itself). */
  startProxy(options?: RpcProxyOptions): Promise<RpcProxy>;
  /** Closes what is still open: the services, the proxies, then the chain. */
  close(): Promise<void>;
}

/** A fresh demo chain and a proxy in front of it (with `options`: a delay, answers of its own). */
export async function chainBehindProxy(options: RpcProxyOptions = {}): Promise<ChainBehindProxy> {
  const devchain = await startDevchain();
  // What a test leaves open (a failed assertion skips its own close) is closed with the chain, services first.
  const open = { services: new Set<LiveService>(), proxies: new Set<RpcProxy>() };
  const startProxy = async (proxyOptions: RpcProxyOptions = {}) => tracked(open.proxies, await startRpcProxy(devchain.endpoint.url, proxyOptions));
  const proxy = await startProxy(options);
  const serve = async ({ webSocket, ...appOptions }: ServeOptions = {}) =>
    tracked(
      open.services,
      await liveService({
        rpc: proxy.url,
        ...(webSocket ? { webSocketUrls: new Map([[DEVCHAIN_ID, devchain.endpoint.webSocketUrl]]) } : {}),
        ...appOptions,
      }),
    );
  return {
    devchain,
    proxy,
    serve,
    async withService(serviceOptions, run) {
      const service = await serve(serviceOptions);
      try {
        return await run(service);
      } finally {
        await service.close();
      }
    },
    startProxy,
    async close() {
      for (const service of [...open.services]) await service.close();
      for (const each of [...open.proxies]) await each.close();
      await devchain.close();
    },
  };
}

/**
 * A chain behind a proxy and one service on it (started with `options`) for the tests of one file: started before
 * them, closed after them. Read its fields inside the tests.
 */
export function servedForFile(options: ServeOptions | ((chain: ChainBehindProxy) => ServeOptions) = {}): { readonly chain: ChainBehindProxy; readonly service: LiveService } {
  const served = {} as { chain: ChainBehindProxy; service: LiveService };
  before(async () => {
    served.chain = await chainBehindProxy();
    served.service = await served.chain.serve(typeof options === "function" ? options(served.chain) : options);
  });
  after(() => served.chain?.close());
  return served;
}

/** `item`, in `open` until it is closed; closing it again does nothing. */
function tracked<T extends { close(): Promise<void> }>(open: Set<T>, item: T): T {
  const close = item.close.bind(item);
  open.add(item);
  return Object.assign(item, {
    close: async () => {
      if (open.delete(item)) await close();
    },
  });
}

/** A chain behind a proxy with one service on it. */
export interface ServiceBehindProxy extends ChainBehindProxy {
  readonly service: LiveService;
}

/** A chain behind a proxy with one service on it, started with `options` (the proxy's own under `proxy`). */
export async function serviceBehindProxy(options: ServeOptions & { readonly proxy?: RpcProxyOptions } = {}): Promise<ServiceBehindProxy> {
  const { proxy: proxyOptions, ...serveOptions } = options;
  const chain = await chainBehindProxy(proxyOptions);
  try {
    return { ...chain, service: await chain.serve(serveOptions) };
  } catch (error) {
    await chain.close();
    throw error;
  }
}

/** A LONG of `size` (default 0.01) on demo market 2, mined in one block (tradeInOneBlock); its receipt's block. */
export async function trade(devchain: Devchain, size = parseUnits("0.01", 18)): Promise<{ blockNumber: bigint; blockHash: Hex }> {
  const receipt = await tradeInOneBlock(devchain.chain, { group: devchain.marketGroup, marketId: 2n, size });
  if (receipt.status !== "success") throw new Error("the trade reverted");
  return { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
}

/** A file's service on the node itself with its head pushed over the node's WebSocket: what live streams follow. */
export const pushedServiceForFile = () => servedForFile((chain) => ({ rpc: chain.devchain.endpoint.url, webSocket: true }));

/**
 * A file's pair for searches under a gas cap: a single-call service under `searchGasCap` behind the proxy (whose
 * requests the test reads) and a sequential one on the node, each quote given 60 s; both started before the file's
 * tests, closed after them.
 */
export function gasBoundedPairForFile(searchGasCap: bigint): { readonly setup: () => ServiceBehindProxy; readonly apps: () => readonly [FastifyInstance, FastifyInstance] } {
  let setup: ServiceBehindProxy;
  let apps: [FastifyInstance, FastifyInstance];
  before(async () => {
    setup = await serviceBehindProxy({ strategy: "single-call", searchGasCap, timeoutMs: 60_000, probe: true });
    const sequential = await setup.serve({ rpc: setup.devchain.endpoint.url, strategy: "sequential", timeoutMs: 60_000, probe: true });
    apps = [setup.service.app, sequential.app];
  });
  after(() => setup.close());
  return { setup: () => setup, apps: () => apps };
}
