// The bench's JSON-RPC proxy: on loopback in front of the devchain node, it holds every HTTP request for a
// fixed delay (the round trip to a remote endpoint) and counts the JSON-RPC requests that cross it.
// Run as a child of bench/run.ts (forked, IPC): the delay is set and the counters read over the IPC channel,
// so the proxy never shares an event loop with autocannon or with the service.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";

export interface ProxyCounters {
  /** HTTP requests received. */
  readonly httpRequests: number;
  /** JSON-RPC requests received for the quotes (each item of a batch counts): all but the head follower's. */
  readonly rpcRequests: number;
  /** The head follower's requests (latest block, headers, chain-id checks): per block, not per quote. */
  readonly followerRequests: number;
  /** JSON-RPC requests by method. */
  readonly methods: Record<string, number>;
  /** HTTP requests received and not yet answered (held or at the node): the backlog a run may leave behind. */
  readonly inFlight: number;
}

/** What the service's head follower asks, whatever the quotes: counted apart from the quotes' requests. */
const FOLLOWER_METHODS = new Set(["eth_getBlockByNumber", "eth_getBlockByHash", "eth_chainId"]);

/** Messages from the parent: each is answered with the counters as they stand (after the change). */
export type ProxyCommand = { id: number; setDelayMs?: number; reset?: boolean };
export type ProxyReply = { id: number; counters: ProxyCounters; delayMs: number };
/** First message to the parent once listening. */
export type ProxyReady = { ready: string };

export interface DelayProxy {
  readonly url: string;
  delayMs: number;
  counters(): ProxyCounters;
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

export async function startDelayProxy(target: string, options: { delayMs?: number; port?: number } = {}): Promise<DelayProxy> {
  const upstream = new URL(target);
  // Keep-alive to the node, as any HTTP client of a real endpoint would; no cap on sockets so the proxy never queues.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });
  let httpRequests = 0;
  let rpcRequests = 0;
  let followerRequests = 0;
  let methods: Record<string, number> = {};
  let inFlight = 0;

  function count(body: Buffer): void {
    httpRequests++;
    let items: unknown[];
    try {
      const parsed: unknown = JSON.parse(body.toString("utf8"));
      items = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      items = [{ method: "<unparseable>" }];
    }
    for (const item of items) {
      const method = typeof (item as { method?: unknown })?.method === "string" ? (item as { method: string }).method : "<none>";
      if (FOLLOWER_METHODS.has(method)) followerRequests++;
      else rpcRequests++;
      methods[method] = (methods[method] ?? 0) + 1;
    }
  }

  function forward(body: Buffer, response: ServerResponse): void {
    const outgoing = httpRequest(
      {
        agent,
        host: upstream.hostname,
        port: upstream.port,
        path: upstream.pathname,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": body.length },
      },
      (answer: IncomingMessage) => {
        // Buffered and sent whole with its length: one write, no chunked framing to wait on.
        const parts: Buffer[] = [];
        answer.on("data", (part: Buffer) => parts.push(part));
        answer.on("end", () => {
          const payload = Buffer.concat(parts);
          response.writeHead(answer.statusCode ?? 502, {
            "content-type": answer.headers["content-type"] ?? "application/json",
            "content-length": payload.length,
          });
          response.end(payload);
        });
      },
    );
    outgoing.on("error", () => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end("upstream unreachable");
    });
    outgoing.end(body);
  }

  const proxy: DelayProxy = {
    url: "",
    delayMs: options.delayMs ?? 0,
    counters: () => ({ httpRequests, rpcRequests, followerRequests, methods: { ...methods }, inFlight }),
    reset() {
      httpRequests = 0;
      rpcRequests = 0;
      followerRequests = 0;
      methods = {};
    },
    close: async () => {},
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413).end();
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (size > MAX_BODY_BYTES) return;
      const body = Buffer.concat(chunks);
      count(body);
      inFlight++;
      response.once("close", () => inFlight--);
      const delay = proxy.delayMs;
      if (delay > 0) setTimeout(forward, delay, body, response);
      else forward(body, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };
  Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  });
  return proxy;
}

// As a forked child: `node --import tsx bench/proxy.ts <target url>`.
if (process.send && process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = process.argv[2];
  if (!target) {
    console.error("usage: bench/proxy.ts <target JSON-RPC url>");
    process.exit(2);
  }
  const proxy = await startDelayProxy(target);
  process.on("message", (message: ProxyCommand) => {
    if (message.reset) proxy.reset();
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
