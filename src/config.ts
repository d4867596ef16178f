// Configuration from the environment, validated once at start-up. Every variable is listed, with its default,
// in .env.example and the README.
import { isIP } from "node:net";

export interface Config {
  /** RPC endpoints per chain id, in fallback order. Empty: serve chain 31337 on the embedded chain. */
  readonly rpcUrls: ReadonlyMap<number, readonly string[]>;
  readonly host: string;
  readonly port: number;
  /** Per JSON-RPC request timeout in milliseconds. */
  readonly rpcTimeoutMs: number;
  readonly logLevel: string;
  /** "auto": human-readable (pino-pretty) when stdout is a terminal, JSON lines otherwise. */
  readonly logFormat: "auto" | "json" | "pretty";
  /** How long each chain's endpoints have to answer eth_blockNumber for /ready. */
  readonly readyTimeoutMs: number;
  /** "single-call" (default): one deployless eth_call per quote; "sequential": one eth_call per read. */
  readonly searchStrategy: "single-call" | "sequential";
  /** Gas given to the single-call search. */
  readonly searchGasCap: bigint;
  /** The most candidates one search=exact quote quotes. */
  readonly exactMaxCandidates: number;
  /** The most one quote may take, fallbacks included, before it is a 503. */
  readonly quoteDeadlineMs: number;
  /** JSON-RPC requests in flight per chain, and waiting before new ones are refused with 503. */
  readonly rpcMaxInFlight: number;
  readonly rpcMaxQueued: number;
  /** Requests per client IP per window; 0 turns rate limiting off. */
  readonly rateLimitMax: number;
  readonly rateLimitWindowMs: number;
  /** Longest request target accepted (414 beyond). */
  readonly maxUrlLength: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly rule: string,
  ) {
    super(`${variable}: ${rule}`);
    this.name = "ConfigError";
  }
}

const RPC_URL_VARIABLE = /^RPC_URL_(\d+)$/;
const RPC_URL_PREFIX = "RPC_URL_";
const MAX_CHAIN_ID = 2 ** 53 - 1;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
  return {
    rpcUrls,
    host: hostName(env, "HOST", "127.0.0.1"),
    port: integer(env, "PORT", 3000, 0, 65535),
    rpcTimeoutMs: integer(env, "RPC_TIMEOUT_MS", 5000, 1, 600_000),
    logLevel: oneOf(env, "LOG_LEVEL", "info", LOG_LEVELS),
    logFormat: oneOf(env, "LOG_FORMAT", "auto", ["auto", "json", "pretty"]) as Config["logFormat"],
    readyTimeoutMs: integer(env, "READY_TIMEOUT_MS", 2000, 1, 60_000),
    searchStrategy: oneOf(env, "SEARCH_STRATEGY", "single-call", ["single-call", "sequential"]) as Config["searchStrategy"],
    searchGasCap: BigInt(integer(env, "SEARCH_GAS_CAP", 30_000_000, 1_000_000, 1_000_000_000)),
    exactMaxCandidates: integer(env, "EXACT_MAX_CANDIDATES", 32, 2, 256),
    quoteDeadlineMs: integer(env, "QUOTE_DEADLINE_MS", 10_000, 1, 600_000),
    rpcMaxInFlight: integer(env, "RPC_MAX_IN_FLIGHT", 64, 1, 10_000),
    rpcMaxQueued: integer(env, "RPC_MAX_QUEUED", 1024, 0, 1_000_000),
    rateLimitMax: integer(env, "RATE_LIMIT_MAX", 1200, 0, 1_000_000_000),
    rateLimitWindowMs: integer(env, "RATE_LIMIT_WINDOW_MS", 60_000, 1, 86_400_000),
    maxUrlLength: integer(env, "MAX_URL_LENGTH", 2048, 256, 65_536),
  };
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
}

export function loadDevchainConfig(env: NodeJS.ProcessEnv = process.env): DevchainConfig {
  return { host: hostName(env, "DEVCHAIN_HOST", "127.0.0.1"), port: integer(env, "DEVCHAIN_PORT", 8545, 0, 65535) };
}

/** A comma-separated list of http(s) URLs, in fallback order; `name` is what an error names (a variable or a flag). */
export function parseRpcUrlList(name: string, value: string): string[] {
  const urls = value.split(",").map((url) => url.trim());
  if (urls.length === 0 || urls.some((url) => !isHttpUrl(url))) {
    throw new ConfigError(name, "must be a comma-separated list of http:// or https:// URLs");
  }
  return urls;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}`);
  }
  return Number(text);
}

/** An IP address (v4 or v6) or a host name (letters, digits, dots, hyphens). */
function hostName(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return fallback;
  if (isIP(text) === 0 && !/^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(text)) {
    throw new ConfigError(name, "must be an IP address or a host name");
  }
  return text;
}

function oneOf(env: NodeJS.ProcessEnv, name: string, fallback: string, values: readonly string[]): string {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return fallback;
  if (!values.includes(text)) throw new ConfigError(name, `must be one of ${values.join(", ")}`);
  return text;
}

/** Removes credentials, paths and query strings from an RPC URL: they often carry API keys. */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : "/…"}`;
  } catch {
    return "<invalid url>";
  }
}
