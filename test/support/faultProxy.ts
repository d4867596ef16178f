// A fault-injecting JSON-RPC proxy on loopback in front of a real node (issue 6). It forwards the first
// `passes` requests after each reset, then answers every further one with the chosen fault.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

export type Fault = "hang" | "http-500" | "malformed-json" | "rpc-error" | "reset";

export interface FaultProxy {
  readonly url: string;
  /** Requests received since the last reset. */
  readonly received: number;
  /** Pass `passes` requests, then inject `fault` (until the next reset). */
  reset(fault: Fault | undefined, passes?: number): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  let fault: Fault | undefined;
  let passes = 0;
  let received = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    received++;
    if (fault === undefined || received <= passes) return forward(target, body, response);
    inject(fault, body, response);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return received;
    },
    reset(next, nextPasses = 0) {
      fault = next;
      passes = nextPasses;
      received = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function forward(target: string, body: string, response: ServerResponse) {
  const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
  response.writeHead(upstream.status, { "content-type": "application/json" });
  response.end(await upstream.text());
}

function inject(fault: Fault, body: string, response: ServerResponse) {
  const id = (() => {
    try {
      return JSON.parse(body).id ?? 1;
    } catch {
      return 1;
    }
  })();
  switch (fault) {
    case "hang":
      return; // never answers; the socket is destroyed on close()
    case "http-500":
      response.writeHead(500, { "content-type": "text/plain" });
      return response.end("Internal Server Error");
    case "malformed-json":
      response.writeHead(200, { "content-type": "application/json" });
      return response.end('{"jsonrpc":"2.0","id":' + id + ',"result":"0x');
    case "rpc-error":
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: "header not found" } }));
    case "reset":
      return response.socket?.destroy();
  }
}
