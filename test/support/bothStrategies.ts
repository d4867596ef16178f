// One test file's service in both strategies on one embedded chain: the single-call one behind the counting proxy,
// the sequential one on the node; `ask` gets both answers to a GET (which must be the same bytes) and the JSON-RPC
// requests of the single call's.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import type { FastifyInstance } from "fastify";
import { serviceBehindProxy, type ServiceBehindProxy } from "./liveService.ts";
import { quoteRequests } from "./rpcProxy.ts";

export type BothStrategies = {
  /** The chain, its proxy and the single-call service, once `before` ran. */
  readonly setup: () => ServiceBehindProxy;
  /** [single-call behind the proxy, sequential on the node], once `before` ran. */
  readonly apps: () => readonly FastifyInstance[];
  readonly ask: (url: string) => Promise<{ status: number; body: any; requests: string[] }>;
};

/** Registers the file's before and after hooks. */
export function servedBothWays(timeoutMs = 20_000): BothStrategies {
  let setup: ServiceBehindProxy;
  let apps: FastifyInstance[];
  before(async () => {
    setup = await serviceBehindProxy({ strategy: "single-call", timeoutMs, probe: true });
    const sequential = await setup.serve({ rpc: setup.devchain.endpoint.url, strategy: "sequential", timeoutMs, probe: true });
    apps = [setup.service.app, sequential.app];
  });
  after(() => setup.close());
  return {
    setup: () => setup,
    apps: () => apps,
    async ask(url) {
      setup.proxy.clear();
      const single = await apps[0]!.inject({ url });
      const requests = quoteRequests(setup.proxy.methods);
      const sequential = await apps[1]!.inject({ url });
      assert.equal(single.body, sequential.body, `${url}: both strategies alike`);
      return { status: single.statusCode, body: single.json(), requests };
    },
  };
}
