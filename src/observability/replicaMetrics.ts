// What sharing work with other replicas through Redis (REDIS_URL) does: whether Redis is up now, and where each
// search's answer came from. Registered only when Redis is configured.
import { Gauge, type Registry } from "prom-client";
import { counterIn } from "./metrics.ts";
import type { RedisStatus } from "../service/replicas/redisLink.ts";
import type { SharedFrom } from "../service/replicas/sharedSearches.ts";

export const REPLICA_METRIC_NAMES = {
  redisUp: "quoter_redis_up",
  sharedSearches: "quoter_shared_searches_total",
} as const;

export interface ReplicaMetrics {
  /** One quote's search outcome: searched here (and shared), another replica's answer, or searched alone. */
  shared(from: SharedFrom): void;
}

export function registerReplicaMetrics(registry: Registry, status: () => RedisStatus): ReplicaMetrics {
  new Gauge({
    name: REPLICA_METRIC_NAMES.redisUp,
    help: "1 while Redis (REDIS_URL) answers and the replica shares answers, claims and rate-limit counts through it; 0 while it works alone",
    registers: [registry],
    collect() {
      this.set(status().state === "up" ? 1 : 0);
    },
  });
  const searches = counterIn(
    [registry],
    REPLICA_METRIC_NAMES.sharedSearches,
    "Searches a quote needed, by where the answer came from: searched (here, then shared), replica (another replica's, through Redis), alone (here, Redis down or its claim expired)",
    ["from"],
  );
  for (const from of ["searched", "replica", "alone"] as const) searches.inc({ from }, 0);
  return { shared: (from) => searches.inc({ from }) };
}
