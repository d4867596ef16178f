// The one table of the service's settings (environment variables): each one's default, what it accepts and what
// it means. Loading (config.ts), the defaults of the modules that take them, `quoter serve --help`, .env.example
// and docs/configuration.md's table all derive from it (`npm run settings` writes the last two, and a test fails
// when they are stale).
import { isIP } from "node:net";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "./quote/exactSearch.ts";

export interface Setting<T> {
  readonly default: T;
  /** What a value must be, as the error and the docs say it: "an integer from 0 to 65535". */
  readonly accepts: string;
  /** What it sets, in Markdown. */
  readonly meaning: string;
  /** The value of a trimmed, non-empty text, or undefined when it is not acceptable. */
  readonly parse: (text: string) => T | undefined;
}

function integer(fallback: number, min: number, max: number, meaning: string): Setting<number> {
  const parse = (text: string) => (/^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined);
  return { default: fallback, accepts: `an integer from ${min} to ${max}`, meaning, parse };
}

function oneOf<const V extends string>(fallback: V, values: readonly V[], meaning: string): Setting<V> {
  const parse = (text: string) => values.find((value) => value === text);
  return { default: fallback, accepts: `one of ${values.join(", ")}`, meaning, parse };
}

/** A host name: letters, digits, dots and hyphens, no label starting or ending with a hyphen. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

function host(fallback: string, meaning: string): Setting<string> {
  const parse = (text: string) => (isIP(text) !== 0 || HOST_NAME.test(text) ? text : undefined);
  return { default: fallback, accepts: "an IP address or a host name", meaning, parse };
}

/** Origins a browser may call the API from: `*`, or origins (`scheme://host[:port]`), comma-separated. */
export type CorsOrigins = "*" | readonly string[];

function corsOrigins(meaning: string): Setting<CorsOrigins> {
  const parse = (text: string): CorsOrigins | undefined => {
    if (text === "*") return "*";
    const origins = text.split(",").map((origin) => origin.trim());
    return origins.every(isOrigin) ? origins : undefined;
  };
  return { default: "*", accepts: "*, or origins such as https://app.example.com, comma-separated", meaning, parse };
}

/** `text` as a URL, when it parses and its scheme is one of `protocols` (`"http:"`, ...). */
export function urlWithScheme(text: string, protocols: readonly string[]): URL | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url !== undefined && protocols.includes(url.protocol) ? url : undefined;
}

export const HTTP_SCHEMES = ["http:", "https:"] as const;

function isOrigin(text: string): boolean {
  return urlWithScheme(text, HTTP_SCHEMES)?.origin === text;
}

/** A Redis URL (`redis://` or `rediss://`), or none. */
function redisUrl(meaning: string): Setting<string | undefined> {
  const parse = (text: string) => (urlWithScheme(text, ["redis:", "rediss:"]) === undefined ? undefined : text);
  return { default: undefined, accepts: "a redis:// or rediss:// URL (user, password and database number as Redis URLs take them)", meaning, parse };
}

/** Which proxies' `X-Forwarded-For` is believed, as Fastify's `trustProxy` takes it. */
export type TrustProxy = boolean | number | readonly string[];

function trustProxy(meaning: string): Setting<TrustProxy> {
  const parse = (text: string): TrustProxy | undefined => {
    if (text === "false") return false;
    if (text === "true") return true;
    if (/^\d{1,2}$/.test(text)) return Number(text);
    const addresses = text.split(",").map((address) => address.trim());
    return addresses.every((address) => isIP(address.replace(/\/\d{1,3}$/, "")) !== 0) ? addresses : undefined;
  };
  return {
    default: false,
    accepts: "false, true, a hop count from 0 to 99, or proxy addresses (IPs or CIDRs), comma-separated",
    meaning,
    parse,
  };
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** In the order the docs list them. RPC_URL_<chainId> is apart: its name carries the chain id. */
export const SETTINGS = {
  PORT: integer(3000, 0, 65535, "HTTP port (0: any free port)"),
  HOST: host("127.0.0.1", "address to bind"),
  RPC_TIMEOUT_MS: integer(5000, 1, 600_000, "timeout of one JSON-RPC request, in ms; past it the endpoint has failed (next URL, or 503)"),
  QUOTE_DEADLINE_MS: integer(10_000, 1, 600_000, "the most one quote may take, in ms, fallback URLs included; past it, 503"),
  SEARCH_STRATEGY: oneOf(
    "single-call",
    ["single-call", "sequential"],
    "`single-call`: the whole quote in one deployless `eth_call` (sequential on a node that refuses it); " +
      "`sequential`: one `eth_call` per read and candidate",
  ),
  SEARCH_GAS_CAP: integer(
    30_000_000,
    1_000_000,
    1_000_000_000,
    "gas given to each deployless call of the single-call search; a search that needs more continues in further calls at the same block",
  ),
  EXACT_MAX_CANDIDATES: integer(
    DEFAULT_EXACT_MAX_CANDIDATES,
    2,
    256,
    "the most candidates one `search=exact` quote quotes; past it the answer is the largest size found with `exact: false` and `upperBound`",
  ),
  HEAD_POLL_MS: integer(
    1000,
    50,
    60_000,
    "for a chain without `RPC_WS_URL_<chainId>`: the longest interval between two reads of its latest block while it is asked about, in ms (half the block time when that is shorter, at least 100 ms apart); polling stops 30 s after the chain's last quote",
  ),
  HEAD_MOVED_BACK_MS: integer(
    2000,
    100,
    600_000,
    "how long every endpoint of a chain may report a head older than the newest block seen (none serving that block) before the head moved back: a reorg to a shorter chain, or a development node reverted or restarted; the blocks above are then replaced, in ms. Longer than the longest time all your endpoints may stay behind a block one of them served. On the embedded chain (no `RPC_URL_*`), 100 unless set",
  ),
  ANSWER_CACHE_ENTRIES: integer(10_000, 0, 10_000_000, "answers kept by chain, block and request (`0` turns the cache off)"),
  ANSWER_CACHE_BYTES: integer(64 * 1024 * 1024, 0, 2 ** 40, "memory the kept answers may take, in bytes (each counted as its JSON text)"),
  RPC_MAX_IN_FLIGHT: integer(64, 1, 10_000, "JSON-RPC requests in flight per chain"),
  RPC_MAX_QUEUED: integer(1024, 0, 1_000_000, "JSON-RPC requests waiting per chain; beyond, new quotes get 503 at once"),
  RPC_MAX_RESPONSE_BYTES: integer(
    1024 * 1024,
    1024,
    1024 * 1024 * 1024,
    "the most bytes one JSON-RPC answer may have (a search's is a few KB); a larger one is cut off unread and counts as a failure of the endpoint",
  ),
  RATE_LIMIT_MAX: integer(
    1200,
    0,
    1_000_000_000,
    "requests per client IP per window (`0` turns the limit off; `/health`, `/ready` and `/metrics` are never limited); beyond, 429",
  ),
  RATE_LIMIT_WINDOW_MS: integer(60_000, 1, 86_400_000, "the rate limit's window, in ms"),
  RATE_LIMIT_CLIENTS: integer(
    10_000,
    100,
    10_000_000,
    "client addresses whose counts this process keeps (with `REDIS_URL`, while Redis is down): past it, the least recently seen is forgotten and its count starts again, so that a flood of addresses cannot grow the memory",
  ),
  BATCH_MAX_QUOTES: integer(50, 1, 1000, "the most quotes one batch (`POST /quoter/<chainId>/batch`) may ask; beyond, 400"),
  STREAMS_MAX: integer(10_000, 0, 1_000_000, "live quote streams (`Accept: text/event-stream`) open at once, all clients together (`0`: none); beyond, 429"),
  STREAMS_PER_CLIENT: integer(16, 0, 1_000_000, "live quote streams one client address may hold open at once; beyond, 429"),
  MAX_URL_LENGTH: integer(2048, 256, 65_536, "longest request target (path and query); beyond, 414"),
  TRUST_PROXY: trustProxy(
    "behind a reverse proxy: whose `X-Forwarded-For` names the client (for the rate limit and the logs); `false`: the connection's address is the client's",
  ),
  CORS_ORIGINS: corsOrigins(
    "origins a browser app may call the API from (CORS; preflights answered 204); the API is read-only and sends no cookies, hence `*` by default",
  ),
  READY_TIMEOUT_MS: integer(2000, 1, 60_000, "how long each chain's endpoints have to answer `eth_blockNumber` for `/ready`, in ms"),
  REDIS_URL: redisUrl(
    "Redis (or Valkey) that replicas of the service share: answers by chain, block and request, one search per distinct quote and block across replicas, the rate limit's counts, and the searches of live streams. Unset: each process on its own. Redis failing never fails a quote (docs/deploy.md)",
  ),
  REDIS_TIMEOUT_MS: integer(250, 1, 60_000, "a Redis command not answered within this many ms counts as Redis failing: the replica works alone until Redis answers a PING in time"),
  REDIS_CLAIM_MS: integer(3000, 10, 600_000, "how long a replica's claim on a search holds, in ms: the other replicas wait at most this long for its answer before searching themselves"),
  REDIS_ANSWER_TTL_MS: integer(60_000, 100, 86_400_000, "how long an answer shared through Redis is kept, in ms (answers are keyed by block hash: a few blocks' time is enough)"),
  LOG_LEVEL: oneOf("info", LOG_LEVELS, "pino level"),
  LOG_FORMAT: oneOf(
    "auto",
    ["auto", "json", "pretty"],
    "`auto`: human-readable (pino-pretty) when stdout is a terminal, JSON lines otherwise; `json`; `pretty`",
  ),
  DEMO_CHAIN: oneOf(
    "load",
    ["load", "deploy"],
    "how the embedded demo chain starts (no `RPC_URL_<chainId>` set, and `npm run devchain`): `load` the state the build saved (`npm run build` makes it again when src/devchain/ or the contracts change; a stale one is refused), `deploy` every contract, market and position from scratch as the build does (slower; `npm run devchain -- --deploy` too)",
  ),
  DEVCHAIN_PORT: integer(8545, 0, 65535, "port of `npm run devchain` (its `--port N` wins)"),
  DEVCHAIN_HOST: host("127.0.0.1", "address `npm run devchain` binds (its `--host H` wins)"),
};

export type SettingName = keyof typeof SETTINGS;

export const RPC_URL_PREFIX = "RPC_URL_";
export const RPC_WS_URL_PREFIX = "RPC_WS_URL_";

/** RPC_URL_<chainId>, the one setting whose name varies, as the docs list it. */
export const RPC_URL_SETTING = {
  name: `${RPC_URL_PREFIX}<chainId>`,
  accepts: "a comma-separated list of http:// or https:// URLs",
  meaning:
    "JSON-RPC endpoint(s) of a chain, e.g. `RPC_URL_1=https://…`; a comma-separated list is tried in order. " +
    "With none set, `npm start` starts the embedded chain and serves chain 31337 on it.",
};

/** RPC_WS_URL_<chainId>: where a chain's new heads are pushed. */
export const RPC_WS_URL_SETTING = {
  name: `${RPC_WS_URL_PREFIX}<chainId>`,
  accepts: "a ws:// or wss:// URL",
  meaning:
    "WebSocket JSON-RPC endpoint of a chain that also has `RPC_URL_<chainId>`: the service subscribes to its new heads " +
    "(`eth_subscribe` newHeads, reconnected with a backoff), so that a quote is answered at a block within milliseconds " +
    "of its arrival; the calls still go over `RPC_URL_<chainId>`. Without it the latest block is polled (`HEAD_POLL_MS`).",
};
