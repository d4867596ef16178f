// The HTTP under each JSON-RPC endpoint: viem's http transport over undici's keep-alive connection pool, its
// `request` API rather than fetch. A quote is one or a few small POSTs to the same node, so the cost that matters is
// the CPU of each round trip, and fetch's web streams cost about three times undici's plain request (measured in
// bench/transport.ts).
import { Agent, request } from "undici";

/** Bytes of one JSON-RPC answer past which it is not read (a searcher's facts are a few KB). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** One pool of keep-alive connections per origin, shared by every endpoint of the process. */
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256, maxResponseSize: MAX_RESPONSE_BYTES });

/**
 * A fetch for viem's `fetchFn`: the POST viem prepared, sent through undici's pool; the answer buffered whole (the
 * pool bounds its size) and handed back as a standard Response.
 */
export async function pooledFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const answer = await request(typeof input === "string" || input instanceof URL ? input : input.url, {
    method: (init?.method ?? "GET") as "POST",
    headers: init?.headers as Record<string, string> | undefined,
    body: init?.body as string | undefined,
    signal: init?.signal ?? undefined,
    dispatcher: agent,
  });
  const body = await answer.body.arrayBuffer();
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const empty = answer.statusCode === 204 || answer.statusCode === 304;
  return new Response(empty ? null : body, { status: answer.statusCode, headers });
}
