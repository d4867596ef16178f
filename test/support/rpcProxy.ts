// A JSON-RPC proxy on loopback in front of a real node: it records every request that crosses it and can
// add a fixed delay. A fake on the real wire, for what a real node cannot show (how many requests a quote makes).
import { createServer, type Server } from "node:http";

export interface RpcProxy {
  readonly url: string;
  /** JSON-RPC methods received, in order (a batch counts each of its requests). */
  readonly methods: string[];
  /** HTTP requests received. */
  httpRequests: number;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string, options: { delayMs?: number } = {}): Promise<RpcProxy> {
  const methods: string[] = [];
  const proxy: RpcProxy = { url: "", methods, httpRequests: 0, close: async () => {} };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    proxy.httpRequests++;
    try {
      const parsed = JSON.parse(body);
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) methods.push(String(item.method));
    } catch {
      methods.push("<unparseable>");
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
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
