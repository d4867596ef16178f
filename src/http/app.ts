// The HTTP application: Fastify with the quote route mounted under /quoter.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { installErrorHandling } from "./errors.ts";
import { quoteRoute, type Quoter } from "./quoteRoute.ts";

export interface AppOptions {
  readonly quoter: Quoter;
  readonly logger?: FastifyServerOptions["logger"];
}

export function buildApp({ quoter, logger = false }: AppOptions): FastifyInstance {
  const app = Fastify({
    logger,
    // Existing clients send a trailing slash (semantics §2).
    routerOptions: { ignoreTrailingSlash: true },
    // One entry per failing parameter (semantics §6), not just the first.
    ajv: { customOptions: { allErrors: true, coerceTypes: false } },
  });
  installErrorHandling(app);
  void app.register(quoteRoute, { prefix: "/quoter", quoter });
  return app;
}
