// A replica among others (REDIS_URL set): its link to Redis and the searches it shares through it, with a log line
// at each change of Redis's state (a replica working alone is an operator's concern, not a quote's).
import { redactUrl } from "../../config.ts";
import type { QuoteLogger } from "../api.ts";
import { connectRedis, type RedisLink, type RedisStatus } from "./redisLink.ts";
import { createSharedSearches, type SearchSharing, type SharedFrom } from "./sharedSearches.ts";

export interface ReplicaOptions {
  readonly redisUrl: string;
  readonly timeoutMs: number;
  readonly claimMs: number;
  readonly answerTtlMs: number;
  readonly logger?: QuoteLogger & { info(fields: Record<string, unknown>, message: string): void };
}

export interface Replica {
  readonly link: RedisLink;
  readonly sharing: SearchSharing;
  /** Redis's state, as /health shows it. */
  status(): RedisStatus;
  /** Tells `listener` of each search's outcome from now on (metrics). */
  observe(listener: (from: SharedFrom) => void): void;
  close(): Promise<void>;
}

export function startReplica({ redisUrl, timeoutMs, claimMs, answerTtlMs, logger }: ReplicaOptions): Replica {
  const link = connectRedis({ url: redisUrl, timeoutMs });
  const redis = redactUrl(redisUrl);
  link.onChange((status) => {
    if (status.state === "up") logger?.info({ redis, state: "up" }, "Redis answers: sharing answers, searches and rate-limit counts with the other replicas");
    else logger?.warn({ redis, state: "down", reason: status.reason }, "Redis is down or late: this replica answers alone (its own searches and rate limit) until Redis answers again");
  });
  const listeners: ((from: SharedFrom) => void)[] = [];
  const sharing = createSharedSearches(link, { claimMs, answerTtlMs, observe: (from) => listeners.forEach((listener) => listener(from)) });
  return {
    link,
    sharing,
    status: () => link.status(),
    observe: (listener) => void listeners.push(listener),
    async close() {
      await sharing.close();
      await link.close();
    },
  };
}
