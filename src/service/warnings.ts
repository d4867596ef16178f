// Where the service's warnings go. All it logs is warnings, so it asks for no more of a logger than `warn`
// (pino's loggers, Fastify's request loggers among them, have it).
import type { EndpointsFailedError } from "../chain/rpc/chainErrors.ts";
import type { QuoteLogger } from "./api.ts";

export type ServiceLogger = QuoteLogger;

export type Warn = (fields: Record<string, unknown>, message: string) => void;

/** Warnings to `logger`, or nowhere. */
export function warningsTo(logger?: ServiceLogger): Warn {
  return (fields, message) => logger?.warn(fields, message);
}

/** Each endpoint that failed to give the chain's latest block, as the quote's own warnings (with its request id). */
export function warnFailures(error: EndpointsFailedError, warn: Warn): void {
  for (const { endpoint, error: failure } of error.failures) {
    warn({ chainId: endpoint.chainId, endpoint: endpoint.label, reason: failure.reason }, "RPC endpoint failed");
  }
}

/** The head follower's log: the service's warnings, and its info lines where the logger has them. */
export function followerLog(logger: ServiceLogger) {
  const info = (logger as { info?: ServiceLogger["warn"] }).info;
  return {
    warn: (fields: Record<string, unknown>, message: string) => logger.warn(fields, message),
    info: (fields: Record<string, unknown>, message: string) => (info ? info.call(logger, fields, message) : undefined),
  };
}
