// A JSON-RPC proxy on loopback in front of a real node: a fake on the real wire, for what a real node cannot
// show (how many requests a quote makes, another node's wording, a node that fails). It records every request
// that crosses it, can hold each one for a fixed delay, and can answer chosen requests itself: with a recorded
// body, or with a fault. With no node behind it, it is a fake node that answers every request itself.
import { createServer, type ServerResponse } from "node:http";

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
  /** Holds every request this long before answering it. */
  readonly delayMs?: number;
  readonly reply?: Replier;
}

export interface RpcProxy {
  readonly url: string;
  /** JSON-RPC methods received, in order (a batch counts each of its requests). */
  readonly methods: string[];
  /** The requests received, in order. */
  readonly requests: JsonRpcRequest[];
  /** HTTP requests received (since the last clear()). */
  readonly httpRequests: number;
  /** How requests are answered from now on: the option's until set. */
  reply: Replier | undefined;
  /** Forgets the requests received. */
  clear(): void;
  /** Stops listening and drops every connection, one held by `hang` included. */
  close(): Promise<void>;
}

/** A proxy in front of the node at `target`, or, when it is undefined, a fake node whose `reply` answers everything. */
export async function startRpcProxy(target: string | undefined, options: RpcProxyOptions = {}): Promise<RpcProxy> {
  let httpRequests = 0;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const received = ++httpRequests;
    const single = record(body, proxy);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const reply = proxy.reply?.(single, received);
    const forward = typeof reply === "object" && "forward" in reply ? reply.forward : undefined;
    if (reply !== undefined && forward === undefined) return answer(reply as Exclude<Reply, { forward: JsonRpcRequest }>, single, response);
    if (target === undefined) return answer("http-500", single, response);
    const forwarded = forward === undefined ? body : JSON.stringify({ jsonrpc: "2.0", ...forward });
    try {
      const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: forwarded });
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      response.end(await upstream.text());
    } catch {
      response.socket?.destroy(); // the node is gone: so is the answer
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const proxy: RpcProxy = {
    url: `http://127.0.0.1:${port}`,
    methods: [],
    requests: [],
    get httpRequests() {
      return httpRequests;
    },
    reply: options.reply,
    clear() {
      proxy.methods.length = 0;
      proxy.requests.length = 0;
      httpRequests = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

/** Records a body's requests; the request when it is a single one. */
function record(body: string, proxy: RpcProxy): JsonRpcRequest | undefined {
  try {
    const parsed = JSON.parse(body);
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      proxy.methods.push(String(item.method));
      proxy.requests.push(item as JsonRpcRequest);
    }
    return Array.isArray(parsed) ? undefined : (parsed as JsonRpcRequest);
  } catch {
    proxy.methods.push("<unparseable>");
    return undefined;
  }
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
