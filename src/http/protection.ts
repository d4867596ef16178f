// Abuse limits: per-client rate limiting, a bound on the URL, no request bodies, security headers.
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { SETTINGS } from "../config.ts";
import { bodyNotAccepted, tooManyRequests, uriTooLong } from "./httpErrors.ts";

export interface ProtectionOptions {
  /** Requests per client (IP) per window; 0 turns rate limiting off. */
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  /** Longest request target (path and query) accepted. */
  readonly maxUrlLength: number;
}

export const DEFAULT_PROTECTION: ProtectionOptions = {
  rateLimitMax: SETTINGS.RATE_LIMIT_MAX.default,
  rateLimitWindowMs: SETTINGS.RATE_LIMIT_WINDOW_MS.default,
  maxUrlLength: SETTINGS.MAX_URL_LENGTH.default,
};

const BODYLESS_METHODS = new Set(["GET", "HEAD"]);

/** Not encapsulated (fastify-plugin), so that its hook, the headers and the rate limit cover every route. */
export const protectionPlugin = fp(protection, { name: "protection" });

async function protection(app: FastifyInstance, options: ProtectionOptions): Promise<void> {
  // Before anything else reads the request: a long URL is refused unparsed, a GET carrying a body too.
  app.addHook("onRequest", async (request) => {
    if ((request.raw.url ?? "").length > options.maxUrlLength) throw uriTooLong();
    const hasBody = Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
    if (hasBody && BODYLESS_METHODS.has(request.method)) throw bodyNotAccepted();
  });
  // No upgrade-insecure-requests: the service is often reached over plain http inside a network, where it
  // would send the docs page's own assets to an https port that does not exist.
  void app.register(helmet, { global: true, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  if (options.rateLimitMax > 0) {
    void app.register(rateLimit, {
      max: options.rateLimitMax,
      timeWindow: options.rateLimitWindowMs,
      errorResponseBuilder: (_request, context) => tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
    });
  }
}
