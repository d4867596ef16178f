// Where the service's warnings go. All it logs is warnings, so it asks for no more of a logger than `warn`
// (pino's loggers, Fastify's request loggers among them, have it).
import type { QuoteLogger } from "./api.ts";

export type ServiceLogger = QuoteLogger;

export type Warn = (fields: Record<string, unknown>, message: string) => void;

/** Warnings to `logger`, or nowhere. */
export function warningsTo(logger?: ServiceLogger): Warn {
  return (fields, message) => logger?.warn(fields, message);
}
