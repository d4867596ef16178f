// Configuration from the environment, validated once at start-up by the table of settings (settings.ts): a bad
// value stops the process with the variable's name and its rule.
import { QuoterError } from "./quote/quoterError.ts";
import { HTTP_SCHEMES, RPC_URL_PREFIX, RPC_URL_SETTING, RPC_WS_URL_PREFIX, RPC_WS_URL_SETTING, SETTINGS, urlWithScheme, type Setting, type SettingName } from "./settings.ts";

export { RPC_URL_SETTING, RPC_WS_URL_SETTING, SETTINGS, type CorsOrigins, type Setting, type SettingName, type TrustProxy } from "./settings.ts";

export class ConfigError extends QuoterError {
  constructor(
    readonly variable: string,
    readonly rule: string,
  ) {
    super("invalid-configuration", `${variable}: ${rule}`, { details: [{ param: variable, message: rule }] });
  }
}

/** A setting's value in `env`: its default when unset or blank, else the value it accepts. */
export function read<N extends SettingName>(env: NodeJS.ProcessEnv, name: N): (typeof SETTINGS)[N]["default"] {
  const setting: Setting<(typeof SETTINGS)[N]["default"]> = SETTINGS[name];
  const text = env[name]?.trim();
  if (text === undefined || text === "") return setting.default;
  const value = setting.parse(text);
  if (value === undefined) throw new ConfigError(name, `must be ${setting.accepts}`);
  return value;
}

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return {
    /** RPC endpoints per chain id, in fallback order. Empty: serve chain 31337 on the embedded chain. */
    rpcUrls: readRpcUrls(env),
    /** The WebSocket endpoint of each chain that has one: where its new heads are pushed. */
    rpcWsUrls: readRpcWsUrls(env),
    host: read(env, "HOST"),
    port: read(env, "PORT"),
    rpcTimeoutMs: read(env, "RPC_TIMEOUT_MS"),
    logLevel: read(env, "LOG_LEVEL"),
    logFormat: read(env, "LOG_FORMAT"),
    readyTimeoutMs: read(env, "READY_TIMEOUT_MS"),
    searchStrategy: read(env, "SEARCH_STRATEGY"),
    searchGasCap: BigInt(read(env, "SEARCH_GAS_CAP")),
    exactMaxCandidates: read(env, "EXACT_MAX_CANDIDATES"),
    quoteDeadlineMs: read(env, "QUOTE_DEADLINE_MS"),
    headPollMs: read(env, "HEAD_POLL_MS"),
    headMovedBackMs: read(env, "HEAD_MOVED_BACK_MS"),
    rpcMaxResponseBytes: read(env, "RPC_MAX_RESPONSE_BYTES"),
    answerCacheEntries: read(env, "ANSWER_CACHE_ENTRIES"),
    answerCacheMaxBytes: read(env, "ANSWER_CACHE_BYTES"),
    rpcMaxInFlight: read(env, "RPC_MAX_IN_FLIGHT"),
    rpcMaxQueued: read(env, "RPC_MAX_QUEUED"),
    rateLimitMax: read(env, "RATE_LIMIT_MAX"),
    rateLimitWindowMs: read(env, "RATE_LIMIT_WINDOW_MS"),
    rateLimitClients: read(env, "RATE_LIMIT_CLIENTS"),
    batchMaxQuotes: read(env, "BATCH_MAX_QUOTES"),
    streamsMax: read(env, "STREAMS_MAX"),
    streamsPerClient: read(env, "STREAMS_PER_CLIENT"),
    maxUrlLength: read(env, "MAX_URL_LENGTH"),
    trustProxy: read(env, "TRUST_PROXY"),
    corsOrigins: read(env, "CORS_ORIGINS"),
    redisUrl: read(env, "REDIS_URL"),
    redisTimeoutMs: read(env, "REDIS_TIMEOUT_MS"),
    redisClaimMs: read(env, "REDIS_CLAIM_MS"),
    redisAnswerTtlMs: read(env, "REDIS_ANSWER_TTL_MS"),
    /** With no RPC_URL_<chainId>: whether the embedded chain loads the build's demo or deploys it. */
    demoChain: read(env, "DEMO_CHAIN"),
  } as const;
}

/**
 * HEAD_MOVED_BACK_MS on the embedded chain, unless the variable is set: one local node that the service starts
 * itself, which no load balancer can lag, so an older head it reports is a revert (what test suites do all day),
 * told at once instead of after the 2 s a chain of several endpoints needs.
 */
export const EMBEDDED_HEAD_MOVED_BACK_MS = 100;

/** `config` for a service on its embedded chain: the embedded chain's bound on a head that moved back, unless `env` sets one. */
export function forEmbeddedChain(config: Config, env: NodeJS.ProcessEnv = process.env): Config {
  const set = (env.HEAD_MOVED_BACK_MS?.trim() ?? "") !== "";
  return set ? config : { ...config, headMovedBackMs: EMBEDDED_HEAD_MOVED_BACK_MS };
}

const RPC_URL_VARIABLE = /^RPC_URL_(\d+)$/;
const MAX_CHAIN_ID = 2 ** 53 - 1;

function readRpcUrls(env: NodeJS.ProcessEnv): ReadonlyMap<number, readonly string[]> {
  const rpcUrls = new Map<number, string[]>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(RPC_URL_PREFIX) || value === undefined) continue;
    const match = RPC_URL_VARIABLE.exec(name);
    if (!match) throw new ConfigError(name, `RPC endpoints are set as ${RPC_URL_PREFIX}<chainId>, with a decimal chain id (e.g. RPC_URL_1)`);
    const chainId = Number(match[1]);
    if (!Number.isSafeInteger(chainId) || chainId < 1 || chainId > MAX_CHAIN_ID || match[1]!.startsWith("0")) {
      throw new ConfigError(name, `the chain id must be a decimal integer from 1 to ${MAX_CHAIN_ID} without leading zeros`);
    }
    rpcUrls.set(chainId, parseRpcUrlList(name, value));
  }
  return rpcUrls;
}

const RPC_WS_URL_VARIABLE = /^RPC_WS_URL_(\d+)$/;

function readRpcWsUrls(env: NodeJS.ProcessEnv): ReadonlyMap<number, string> {
  const urls = new Map<number, string>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(RPC_WS_URL_PREFIX) || value === undefined || value.trim() === "") continue;
    const match = RPC_WS_URL_VARIABLE.exec(name);
    if (!match) throw new ConfigError(name, `WebSocket endpoints are set as ${RPC_WS_URL_PREFIX}<chainId>, with a decimal chain id (e.g. RPC_WS_URL_1)`);
    const url = value.trim();
    if (!isWebSocketUrl(url)) throw new ConfigError(name, `must be ${RPC_WS_URL_SETTING.accepts}`);
    if (env[`${RPC_URL_PREFIX}${match[1]}`] === undefined) {
      throw new ConfigError(name, `needs ${RPC_URL_PREFIX}${match[1]} too: the quotes' calls go over HTTP, the WebSocket only pushes new heads`);
    }
    urls.set(Number(match[1]), url);
  }
  return urls;
}

/** Loads a configuration, or prints "<program>: invalid configuration: <VARIABLE>: <rule>" and exits 1. */
export function loadOrExit<T>(program: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${program}: invalid configuration: ${error.message}`);
    process.exit(1);
  }
}

/** `npm run devchain`'s settings (its --port and --host flags win over them). */
export interface DevchainConfig {
  readonly host: string;
  readonly port: number;
  readonly demoChain: "load" | "deploy";
}

export function loadDevchainConfig(env: NodeJS.ProcessEnv = process.env): DevchainConfig {
  return { host: read(env, "DEVCHAIN_HOST"), port: read(env, "DEVCHAIN_PORT"), demoChain: read(env, "DEMO_CHAIN") };
}

/** A comma-separated list of http(s) URLs, in fallback order; `name` is what an error names (a variable or a flag). */
export function parseRpcUrlList(name: string, value: string): string[] {
  const urls = value.split(",").map((url) => url.trim());
  if (urls.length === 0 || urls.some((url) => !isHttpUrl(url))) {
    throw new ConfigError(name, `must be ${RPC_URL_SETTING.accepts}`);
  }
  return urls;
}

const isWebSocketUrl = (text: string) => urlWithScheme(text, ["ws:", "wss:"]) !== undefined;
const isHttpUrl = (text: string) => urlWithScheme(text, HTTP_SCHEMES) !== undefined;

/** Removes credentials, paths and query strings from an RPC URL: they often carry API keys. */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : "/…"}`;
  } catch {
    return "<invalid url>";
  }
}
