// CORS: browser apps on other origins call the read-only API. Preflights are answered 204 by @fastify/cors before
// routing, naming the methods the path takes: GET and HEAD, or POST on a batch's path. (Browsers let a POST through
// whatever the list says, POST being a CORS-safelisted method: what a batch's JSON body needs is Content-Type among
// the allowed headers. The list is for what it tells, not for what browsers enforce.) An OPTIONS that is not a
// preflight is a 405 in the API's error shape, like any method a path does not take (a 404 on a path that takes none).
import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { CorsOrigins } from "../config.ts";
import { noRouteFor } from "./errorHandling.ts";
import { BASE_PATH } from "./paths.ts";

export interface CorsOptions {
  readonly origins: CorsOrigins;
}

/** The request headers the API reads (and Content-Type, which generic fetch wrappers add even to a GET). */
export const CORS_ALLOWED_HEADERS = ["Cache-Control", "Content-Type", "X-Request-Id"] as const;
/** The response headers a browser app may read besides the safelisted ones. */
export const CORS_EXPOSED_HEADERS = ["Retry-After", "X-Request-Id"] as const;
/** How long a browser may reuse a preflight's answer, in seconds. */
export const CORS_MAX_AGE_SECONDS = 600;
/** The methods a preflight allows: a batch's path takes POST alone, every other path GET and HEAD. */
export const CORS_METHODS = { batch: ["POST"], other: ["GET", "HEAD"] } as const;

/** A batch's path (BATCH_PATH under BASE_PATH), a trailing slash and a query allowed, as the router takes it. */
const BATCH_URL = new RegExp(`^${BASE_PATH}/[^/?#]+/batch/?(?:[?#]|$)`);

export const corsPlugin = fp(
  async (app: FastifyInstance, { origins }: CorsOptions) => {
    app.addHook("onRequest", async (request) => {
      if (request.method !== "OPTIONS") return;
      if (request.headers.origin !== undefined && request.headers["access-control-request-method"] !== undefined) return;
      throw noRouteFor(request);
    });
    const optionsWith = (methods: readonly string[]) => ({
      origin: origins === "*" ? "*" : [...origins],
      methods: [...methods],
      allowedHeaders: [...CORS_ALLOWED_HEADERS],
      exposedHeaders: [...CORS_EXPOSED_HEADERS],
      maxAge: CORS_MAX_AGE_SECONDS,
      strictPreflight: true,
    });
    const batch = optionsWith(CORS_METHODS.batch);
    const other = optionsWith(CORS_METHODS.other);
    await app.register(cors, { hook: "onRequest", delegator: (request, done) => done(null, BATCH_URL.test(request.url) ? batch : other) });
  },
  { name: "cors" },
);
