// The HTTP application: Fastify with the quote route mounted under /quoter.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { installErrorHandling } from "./errors.ts";
import { quoteRoute, type Quoter } from "./quoteRoute.ts";

export interface AppOptions {
  readonly quoter: Quoter;
  /** A pino logger; none by default (tests). */
  readonly logger?: FastifyBaseLogger;
}

export function buildApp({ quoter, logger }: AppOptions): FastifyInstance {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // Existing clients send a trailing slash (semantics §2).
    routerOptions: { ignoreTrailingSlash: true },
    // One entry per failing parameter (semantics §6), not just the first.
    ajv: { customOptions: { allErrors: true, coerceTypes: false } },
  });
  installErrorHandling(app);
  void app.register(quoteRoute, { prefix: "/quoter", quoter });
  return app;
}
