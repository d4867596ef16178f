// Where the service's warnings go. All it logs is warnings, so it asks for no more of a logger than `warn`
// (pino's loggers, Fastify's request loggers among them, have it).
import { currentQuoteStats, type QuoteLogger } from "../observability/quoteStats.ts";

export type ServiceLogger = QuoteLogger;

export type Warn = (fields: Record<string, unknown>, message: string) => void;

/** Warnings to the running quote's own logger when it has one (its lines then carry the request id), else to `logger`. */
export function quoteWarnings(logger?: ServiceLogger): Warn {
  return (fields, message) => {
    const target: ServiceLogger | undefined = currentQuoteStats()?.log ?? logger;
    target?.warn(fields, message);
  };
}
