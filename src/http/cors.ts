// CORS: browser apps on other origins call the read-only API. Preflights are answered 204 by @fastify/cors before
// routing; an OPTIONS that is not a preflight is a 405 in the API's error shape, like any method a path does not take
// (a 404 on a path that takes none).
import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { CorsOrigins } from "../config.ts";
import { noRouteFor } from "./errorHandling.ts";

export interface CorsOptions {
  readonly origins: CorsOrigins;
}

/** The request headers the API reads (and Content-Type, which generic fetch wrappers add even to a GET). */
export const CORS_ALLOWED_HEADERS = ["Cache-Control", "Content-Type", "X-Request-Id"] as const;
/** The response headers a browser app may read besides the safelisted ones. */
export const CORS_EXPOSED_HEADERS = ["Retry-After", "X-Request-Id"] as const;
/** How long a browser may reuse a preflight's answer, in seconds. */
export const CORS_MAX_AGE_SECONDS = 600;

export const corsPlugin = fp(
  async (app: FastifyInstance, { origins }: CorsOptions) => {
    app.addHook("onRequest", async (request) => {
      if (request.method !== "OPTIONS") return;
      if (request.headers.origin !== undefined && request.headers["access-control-request-method"] !== undefined) return;
      throw noRouteFor(request);
    });
    await app.register(cors, {
      origin: origins === "*" ? "*" : [...origins],
      methods: ["GET", "HEAD"],
      allowedHeaders: [...CORS_ALLOWED_HEADERS],
      exposedHeaders: [...CORS_EXPOSED_HEADERS],
      maxAge: CORS_MAX_AGE_SECONDS,
      strictPreflight: true,
    });
  },
  { name: "cors" },
);
