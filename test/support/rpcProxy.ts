// The one JSON-RPC proxy of the tests and the bench: on loopback in front of a real node, a fake on the real wire
// for what a real node cannot show (how many requests a quote makes, another node's wording, a node that fails, a
// node far away). It counts every request that crosses it (and records them, unless told not to), can hold each
// one for a delay that may change while it runs, and can answer chosen requests itself: with a recorded body, or
// with a fault. With no node behind it, it is a fake node that answers every request itself.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";

export interface JsonRpcRequest {
  readonly id: unknown;
  readonly method: string;
  readonly params?: readonly unknown[];
}

/**
 * A failing endpoint: `hang` never answers (until close()), `http-500` is an HTTP error, `malformed-json` a
 * truncated body, `rpc-error` a JSON-RPC error that is no execution's (`internal error`), `reset` drops the
 * connection.
 */
export type Fault = "hang" | "http-500" | "malformed-json" | "rpc-error" | "reset";

/**
 * An answer of the proxy's own: a fault, or a JSON-RPC body (given the request's id) with its HTTP status (200); or
 * another request to forward to the node in its place (`forward`).
 */
export type Reply = Fault | { readonly status?: number; readonly body: Record<string, unknown> } | { readonly forward: JsonRpcRequest };

/** A JSON-RPC error in a 200 answer, as a node refuses or fails a request. */
export const rpcError = (error: Record<string, unknown>): { readonly body: Record<string, unknown> } => ({ body: { jsonrpc: "2.0", error } });

/**
 * Decides how one HTTP request is answered: a reply, or undefined to forward it to the node. `request` is
 * undefined for a batch or a body that is not JSON; `received` counts the HTTP requests since the last clear(),
 * this one included.
 */
export type Replier = (request: JsonRpcRequest | undefined, received: number) => Reply | undefined;

export interface RpcProxyOptions {
  /** Holds every request this long before answering it (the round trip to a remote endpoint). */
  readonly delayMs?: number;
  readonly reply?: Replier;
  /** Keep each request received in `methods` and `requests` (default true); counters are kept either way. */
  readonly keepRequests?: boolean;
  /** The port to listen on (default: any free one). */
  readonly port?: number;
}

/** What crossed the proxy since the last clear(). */
export interface ProxyCounters {
  /** HTTP requests received. */
  readonly httpRequests: number;
  /** JSON-RPC requests of the quotes (each item of a batch counts): all but the head's and the chain id's. */
  readonly rpcRequests: number;
  /** The head follower's and the endpoint check's requests: per block, not per quote. */
  readonly followerRequests: number;
  /** JSON-RPC requests by method. */
  readonly methods: Record<string, number>;
  /** HTTP requests received and not yet answered (held or at the node): the backlog a run may leave behind. */
  readonly inFlight: number;
}

export interface RpcProxy {
  readonly url: string;
  /** JSON-RPC methods received, in order (a batch counts each of its requests). */
  readonly methods: string[];
  /** The requests received, in order. */
  readonly requests: JsonRpcRequest[];
  /** HTTP requests received (since the last clear()). */
  readonly httpRequests: number;
  /** How long each request is held from now on: the option's until set. */
  delayMs: number;
  /** How requests are answered from now on: the option's until set. */
  reply: Replier | undefined;
  counters(): ProxyCounters;
  /** Forgets the requests received and zeroes the counters (but the requests in flight). */
  clear(): void;
  /** Stops listening and drops every connection, one held by `hang` included. */
  close(): Promise<void>;
}

/** Bodies larger than this are refused (413): no quote sends one. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A proxy in front of the node at `target`, or, when it is undefined, a fake node whose `reply` answers everything. */
export async function startRpcProxy(target: string | undefined, options: RpcProxyOptions = {}): Promise<RpcProxy> {
  const keepRequests = options.keepRequests ?? true;
  // Keep-alive to the node, as any HTTP client of a real endpoint; no cap on sockets, so the proxy never queues.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });
  let counts = { httpRequests: 0, rpcRequests: 0, followerRequests: 0, methods: {} as Record<string, number> };
  let inFlight = 0;
  const server = createServer(async (request, response) => {
    const body = await readBody(request, response);
    if (body === undefined) return;
    const received = ++counts.httpRequests;
    inFlight++;
    response.once("close", () => inFlight--);
    const single = record(body, (method, item) => {
      if (HEAD_READS.has(method)) counts.followerRequests++;
      else counts.rpcRequests++;
      counts.methods[method] = (counts.methods[method] ?? 0) + 1;
      if (keepRequests) {
        proxy.methods.push(method);
        if (item !== undefined) proxy.requests.push(item);
      }
    });
    if (proxy.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, proxy.delayMs));
    const reply = proxy.reply?.(single, received);
    const forward = typeof reply === "object" && "forward" in reply ? reply.forward : undefined;
    if (reply !== undefined && forward === undefined) return answer(reply as Exclude<Reply, { forward: JsonRpcRequest }>, single, response);
    if (target === undefined) return answer("http-500", single, response);
    forwardTo(target, agent, forward === undefined ? body : Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...forward })), response);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };
  const proxy: RpcProxy = {
    url: `http://127.0.0.1:${port}`,
    methods: [],
    requests: [],
    get httpRequests() {
      return counts.httpRequests;
    },
    delayMs: options.delayMs ?? 0,
    reply: options.reply,
    counters: () => ({ ...counts, methods: { ...counts.methods }, inFlight }),
    clear() {
      proxy.methods.length = 0;
      proxy.requests.length = 0;
      counts = { httpRequests: 0, rpcRequests: 0, followerRequests: 0, methods: {} };
    },
    close() {
      server.closeAllConnections();
      agent.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

/** The request's body, or undefined when it was refused for its size (413). */
async function readBody(request: IncomingMessage, response: ServerResponse): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      response.writeHead(413).end();
      request.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Sends `body` on to the node and its answer back whole, with its length; a node that is gone drops the answer. */
function forwardTo(target: string, agent: Agent, body: Buffer, response: ServerResponse): void {
  const upstream = new URL(target);
  const outgoing = httpRequest(
    { agent, host: upstream.hostname, port: upstream.port, path: upstream.pathname + upstream.search, method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
    (answered) => {
      const parts: Buffer[] = [];
      answered.on("data", (part: Buffer) => parts.push(part));
      answered.on("end", () => {
        const payload = Buffer.concat(parts);
        response.writeHead(answered.statusCode ?? 502, { "content-type": answered.headers["content-type"] ?? "application/json", "content-length": payload.length });
        response.end(payload);
      });
      answered.on("error", () => response.socket?.destroy());
    },
  );
  outgoing.on("error", () => response.socket?.destroy());
  outgoing.end(body);
}

/** Notes each of a body's requests; the request when it is a single one. */
function record(body: Buffer, note: (method: string, request: JsonRpcRequest | undefined) => void): JsonRpcRequest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    note("<unparseable>", undefined);
    return undefined;
  }
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    note(String((item as { method?: unknown } | null)?.method), item as JsonRpcRequest);
  }
  return Array.isArray(parsed) ? undefined : (parsed as JsonRpcRequest);
}

function answer(reply: Exclude<Reply, { readonly forward: JsonRpcRequest }>, request: JsonRpcRequest | undefined, response: ServerResponse): void {
  const id = request?.id ?? 1;
  const json = (status: number, body: string) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(body);
  };
  switch (reply) {
    case "hang":
      return;
    case "http-500":
      response.writeHead(500, { "content-type": "text/plain" });
      return void response.end("Internal Server Error");
    case "malformed-json":
      return json(200, '{"jsonrpc":"2.0","id":' + JSON.stringify(id) + ',"result":"0x');
    case "rpc-error":
      return answer(rpcError({ code: -32000, message: "internal error" }), request, response);
    case "reset":
      return void response.socket?.destroy();
    default:
      return json(reply.status ?? 200, JSON.stringify({ ...reply.body, id }));
  }
}

/**
 * What the service reads to follow a chain's head and to check an endpoint (semantics §11), apart from the quotes'
 * own calls: tests that count a quote's requests leave these out (their cost is measured by their own tests).
 */
const HEAD_READS = new Set(["eth_getBlockByNumber", "eth_getBlockByHash", "eth_chainId"]);

/** The quotes' own requests among `requests` (or method names): without the head follower's reads. */
export function quoteRequests<T extends JsonRpcRequest | string>(requests: readonly T[]): T[] {
  return requests.filter((request) => !HEAD_READS.has(typeof request === "string" ? request : request.method));
}
