// The rate limit's counts when replicas share Redis: one count per client across every replica while Redis answers
// (a fixed window: INCR, and PEXPIRE on the window's first request, in one script), this process's own count while
// it does not, so that a Redis failure neither fails requests nor lifts the limit. A store as @fastify/rate-limit's
// `store` option takes one: a class with `incr`, `read` and `child`.
import LocalStore from "@fastify/rate-limit/store/LocalStore.js";
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

/**
 * The counts of this process alone, what the limit falls back to while Redis is out of the way: the plugin's own
 * local store (the one it uses without a `store`), an LRU of `clients` keys, so that a flood of client addresses
 * while Redis is down cannot grow it past that.
 */
function localCounts(clients: number) {
  const store = new LocalStore(false, false, clients);
  return {
    incr(key: string, timeWindow: number): Counted {
      let counted: Counted = { current: 0, ttl: 0 };
      store.incr(key, (_error, now) => (counted = { current: now.current, ttl: now.ttl }), timeWindow);
      return counted;
    },
    read(key: string, timeWindow: number): Counted {
      let counted: Counted = { current: 0, ttl: 0 };
      store.read(key, (_error, now) => (counted = { current: now.current, ttl: now.ttl }), timeWindow);
      return counted;
    },
  };
}

/** The store class for the plugin's `store` option; `clients`: the most keys counted locally (RATE_LIMIT_CLIENTS). */
export function replicatedRateLimitStore(link: RedisLink, clients: number) {
  link.client.defineCommand("quoterRateLimit", { numberOfKeys: 1, lua: INCREMENT });
  const local = localCounts(clients);
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

    read(key: string, told: Told, timeWindow: number): void {
      const at = `${PREFIX}${this.route}${key}`;
      void link.run((client) => client.multi().get(at).pttl(at).exec()).then((shared) => {
        const [count, ttl] = (shared ?? []).map(([, value]) => Number(value ?? 0));
        told(null, shared === undefined ? local.read(at, timeWindow) : { current: count ?? 0, ttl: Math.max(0, ttl ?? 0) });
      });
    }

    child(routeOptions: { routeInfo?: { method?: string; url?: string } }): ReplicatedRateLimitStore {
      return new ReplicatedRateLimitStore(routeOptions, `${this.route}${routeOptions.routeInfo?.method ?? ""}${routeOptions.routeInfo?.url ?? ""}-`);
    }
  };
}
