// A JSON-RPC proxy on loopback in front of a real node: it records every request that crosses it, and can add
// a fixed delay or answer chosen requests itself with another node's recorded error. A fake on the real wire,
// for what a real node cannot show (how many requests a quote makes, another node's wording).
import { createServer, type Server } from "node:http";

export interface JsonRpcRequest {
  readonly id: unknown;
  readonly method: string;
  readonly params?: readonly unknown[];
}

export interface RpcProxyOptions {
  readonly delayMs?: number;
  /** Answers a (non-batch) request itself with this JSON-RPC error object instead of forwarding it. */
  readonly answerWith?: (request: JsonRpcRequest) => Record<string, unknown> | undefined;
}

export interface RpcProxy {
  readonly url: string;
  /** JSON-RPC methods received, in order (a batch counts each of its requests). */
  readonly methods: string[];
  /** The requests received, in order. */
  readonly requests: JsonRpcRequest[];
  /** HTTP requests received. */
  httpRequests: number;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string, options: RpcProxyOptions = {}): Promise<RpcProxy> {
  const methods: string[] = [];
  const requests: JsonRpcRequest[] = [];
  const proxy: RpcProxy = { url: "", methods, requests, httpRequests: 0, close: async () => {} };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    proxy.httpRequests++;
    let single: JsonRpcRequest | undefined;
    try {
      const parsed = JSON.parse(body);
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        methods.push(String(item.method));
        requests.push(item as JsonRpcRequest);
      }
      if (!Array.isArray(parsed)) single = parsed as JsonRpcRequest;
    } catch {
      methods.push("<unparseable>");
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const error = single && options.answerWith?.(single);
    if (error) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: single!.id, error }));
      return;
    }
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
    response.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return proxy;
}
