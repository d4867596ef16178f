// The rate limit's counts when replicas share Redis: one count per client across every replica while Redis answers
// (a fixed window: INCR, and PEXPIRE on the window's first request, in one script), this process's own count while
// it does not, so that a Redis failure neither fails requests nor lifts the limit. A store as @fastify/rate-limit's
// `store` option takes one: a class with `incr`, `read` and `child`.
import type { RedisLink } from "../service/replicas/redisLink.ts";

type Counted = { current: number; ttl: number };
type Told = (error: Error | null, counted: Counted) => void;

const PREFIX = "quoter:v1:rate:";

// KEYS: the count. ARGV: the window (ms). {count, ms left}.
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}
`;

/** The counts of this process alone: what the limit falls back to while Redis is out of the way. */
function localCounts() {
  const counts = new Map<string, { current: number; resetAt: number }>();
  const sweep = (now: number) => {
    if (counts.size < 10_000) return;
    for (const [key, count] of counts) if (count.resetAt <= now) counts.delete(key);
  };
  return {
    incr(key: string, timeWindow: number): Counted {
      const now = Date.now();
      let count = counts.get(key);
      if (count === undefined || count.resetAt <= now) {
        sweep(now);
        count = { current: 0, resetAt: now + timeWindow };
        counts.set(key, count);
      }
      count.current++;
      return { current: count.current, ttl: count.resetAt - now };
    },
    read(key: string): Counted {
      const now = Date.now();
      const count = counts.get(key);
      return count === undefined || count.resetAt <= now ? { current: 0, ttl: 0 } : { current: count.current, ttl: count.resetAt - now };
    },
  };
}

export function replicatedRateLimitStore(link: RedisLink) {
  link.client.defineCommand("quoterRateLimit", { numberOfKeys: 1, lua: INCREMENT });
  const local = localCounts();
  const increment = (client: RedisLink["client"], key: string, timeWindow: number) =>
    (client as unknown as { quoterRateLimit(key: string, window: number): Promise<[number, number]> }).quoterRateLimit(key, timeWindow);

  return class ReplicatedRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly route = "",
    ) {}

    incr(key: string, told: Told, timeWindow: number): void {
      const at = `${PREFIX}${this.route}${key}`;
      void link.run((client) => increment(client, at, timeWindow)).then((shared) => {
        told(null, shared === undefined ? local.incr(at, timeWindow) : { current: Number(shared[0]), ttl: Number(shared[1]) });
      });
    }

    read(key: string, told: Told): void {
      const at = `${PREFIX}${this.route}${key}`;
      void link.run((client) => client.multi().get(at).pttl(at).exec()).then((shared) => {
        const [count, ttl] = (shared ?? []).map(([, value]) => Number(value ?? 0));
        told(null, shared === undefined ? local.read(at) : { current: count ?? 0, ttl: Math.max(0, ttl ?? 0) });
      });
    }

    child(routeOptions: { routeInfo?: { method?: string; url?: string } }): ReplicatedRateLimitStore {
      return new ReplicatedRateLimitStore(routeOptions, `${this.route}${routeOptions.routeInfo?.method ?? ""}${routeOptions.routeInfo?.url ?? ""}-`);
    }
  };
}
