// Abuse limits: per-client rate limiting (unknown paths included, each quote of a batch or a ladder), a bound on
// the URL, no request bodies on GET, security headers.
import type { IncomingMessage, ServerResponse } from "node:http";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";
import { SETTINGS } from "../config.ts";
import { noRouteFor, sendQuoteError } from "./errorHandling.ts";
import { bodyNotAccepted, tooManyRequests, uriTooLong, type HttpError } from "./httpErrors.ts";

export interface ProtectionOptions {
  /** Requests per client (IP) per window; 0 turns rate limiting off. */
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  /** Client addresses counted in this process at most (the plugin's LRU `cache`): the least recently seen go first. */
  readonly rateLimitClients: number;
  /** Longest request target (path and query) accepted. */
  readonly maxUrlLength: number;
  /** Where the counts are kept (the plugin's `store`): shared by replicas through Redis; absent, this process's (an LRU of `rateLimitClients`). */
  readonly rateLimitStore?: unknown;
}

export const DEFAULT_PROTECTION: ProtectionOptions = {
  rateLimitMax: SETTINGS.RATE_LIMIT_MAX.default,
  rateLimitWindowMs: SETTINGS.RATE_LIMIT_WINDOW_MS.default,
  rateLimitClients: SETTINGS.RATE_LIMIT_CLIENTS.default,
  maxUrlLength: SETTINGS.MAX_URL_LENGTH.default,
};

const BODYLESS_METHODS = new Set(["GET", "HEAD"]);

/**
 * helmet's security headers, as its middleware sets them, computed once: it is run here on a response that only
 * records them. Run on every request (as @fastify/helmet does, building the middleware anew each time), it cost
 * about 2.6% of the service's CPU under load, for headers that never change.
 * No upgrade-insecure-requests: the service is often reached over plain http inside a network, where it would send
 * the docs page's own assets to an https port that does not exist.
 */
const SECURITY_HEADERS: readonly (readonly [string, string])[] = (() => {
  const recorded = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => void recorded.set(name, value),
    removeHeader: (name: string) => void recorded.delete(name),
  };
  helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } })(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return [...recorded];
})();

/** Not encapsulated (fastify-plugin), so that its hook, the headers and the rate limit cover every route. */
export const protectionPlugin = fp(protection, { name: "protection" });

async function protection(app: FastifyInstance, options: ProtectionOptions): Promise<void> {
  // Before anything else reads the request: a long URL is refused unparsed, a GET carrying a body too.
  app.addHook("onRequest", async (request) => {
    const { length } = request.raw.url ?? "";
    if (length > options.maxUrlLength) throw uriTooLong(length, options.maxUrlLength);
    const hasBody = Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
    if (hasBody && BODYLESS_METHODS.has(request.method)) throw bodyNotAccepted(request.method);
  });
  const headers = SECURITY_HEADERS;
  app.addHook("onRequest", async (_request, reply) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
  });
  if (options.rateLimitMax > 0) {
    await app.register(rateLimit, {
      max: options.rateLimitMax,
      timeWindow: options.rateLimitWindowMs,
      cache: options.rateLimitClients,
      ...(options.rateLimitStore === undefined ? {} : { store: options.rateLimitStore as never }),
      errorResponseBuilder: (_request, context) => tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000)), context.max),
    });
  }
  // An unknown path counts against the rate limit too: a scanner is limited like any client.
  app.setNotFoundHandler(
    options.rateLimitMax > 0 ? { preHandler: app.rateLimit() } : {},
    (request, reply) => sendQuoteError(reply, noRouteFor(request)),
  );
}

/** Counts a request's quotes beyond its first against its client's rate limit: the 429 once that passes the limit. */
export type QuoteCharge = (request: FastifyRequest, quotes: number) => Promise<HttpError | undefined>;

/**
 * The charge of the app's rate limit (none when it is off): a batch or a ladder counts once per quote, as that many
 * GETs would, in the same count (the plugin's own limiter, with its global options). The request itself was
 * counted as it came in.
 */
export function quoteCharge(app: FastifyInstance): QuoteCharge {
  if (!app.hasDecorator("createRateLimit")) return async () => undefined;
  const count = app.createRateLimit();
  return async (request, quotes) => {
    let last: Awaited<ReturnType<typeof count>> | undefined;
    for (let extra = 1; extra < quotes; extra++) last = await count(request);
    if (last === undefined || last.isAllowed || !last.isExceeded) return undefined;
    return tooManyRequests(Math.max(1, last.ttlInSeconds), last.max);
  };
}
