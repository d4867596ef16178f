// The bench's JSON-RPC proxy process: the tests' proxy (test/support/rpcProxy.ts) in front of the devchain node,
// holding every HTTP request for the current delay (the round trip to a remote endpoint) and counting the JSON-RPC
// requests that cross it. Run as a child of bench/run.ts (forked, IPC): the delay is set and the counters read over
// the IPC channel, so the proxy never shares an event loop with autocannon or with the service.
import { pathToFileURL } from "node:url";
import { startRpcProxy, type ProxyCounters } from "../test/support/rpcProxy.ts";

export type { ProxyCounters };

/** Messages from the parent: each is answered with the counters as they stand (after the change). */
export type ProxyCommand = { id: number; setDelayMs?: number; reset?: boolean };
export type ProxyReply = { id: number; counters: ProxyCounters; delayMs: number };
/** First message to the parent once listening. */
export type ProxyReady = { ready: string };

// As a forked child: `node --import tsx bench/proxy.ts <target url>`.
if (process.send && process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = process.argv[2];
  if (!target) {
    console.error("usage: bench/proxy.ts <target JSON-RPC url>");
    process.exit(2);
  }
  // Counted, not kept: a run sends hundreds of thousands of requests.
  const proxy = await startRpcProxy(target, { keepRequests: false });
  process.on("message", (message: ProxyCommand) => {
    if (message.reset) proxy.clear();
    if (message.setDelayMs !== undefined) proxy.delayMs = message.setDelayMs;
    const reply: ProxyReply = { id: message.id, counters: proxy.counters(), delayMs: proxy.delayMs };
    process.send!(reply);
  });
  // The parent going away (even killed) closes the channel: never outlive it.
  process.on("disconnect", () => {
    void proxy.close().finally(() => process.exit(0));
  });
  process.send({ ready: proxy.url } satisfies ProxyReady);
}
