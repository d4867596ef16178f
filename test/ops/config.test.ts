// Configuration: every setting from the environment, validated at start-up; a bad value stops the
// process with a message naming the variable and the rule; .env.example and docs/configuration.md list every variable read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, SETTINGS, loadConfig, loadDevchainConfig } from "../../src/config.ts";
import { runProcess } from "../support/processes.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

function rejects(env: Record<string, string>, variable: string, rule: RegExp) {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => error instanceof ConfigError && error.variable === variable && rule.test(error.rule),
    `${JSON.stringify(env)} names ${variable}`,
  );
}

test("defaults with an empty environment", () => {
  const config = loadConfig({});
  assert.equal(config.port, 3000);
  assert.equal(config.host, "127.0.0.1");
  assert.equal(config.readyTimeoutMs, 2000);
  assert.equal(config.logFormat, "auto");
  assert.equal(config.logLevel, "info");
  assert.equal(config.rpcUrls.size, 0);
  assert.equal(config.exactMaxCandidates, 32);
  assert.equal(config.demoChain, "load");
  assert.deepEqual(loadDevchainConfig({}), { host: "127.0.0.1", port: 8545, demoChain: "load" });
  assert.equal(loadDevchainConfig({ DEMO_CHAIN: "deploy" }).demoChain, "deploy");
});

test("each variable's rule, named in the error", () => {
  rejects({ PORT: "abc" }, "PORT", /integer from 0 to 65535/);
  rejects({ PORT: "70000" }, "PORT", /integer/);
  rejects({ HOST: "not a host!" }, "HOST", /IP address or a host name/);
  rejects({ READY_TIMEOUT_MS: "0" }, "READY_TIMEOUT_MS", /integer from 1/);
  rejects({ LOG_FORMAT: "xml" }, "LOG_FORMAT", /auto, json, pretty/);
  rejects({ LOG_LEVEL: "loud" }, "LOG_LEVEL", /one of/);
  rejects({ SEARCH_STRATEGY: "fast" }, "SEARCH_STRATEGY", /single-call, sequential/);
  rejects({ EXACT_MAX_CANDIDATES: "1" }, "EXACT_MAX_CANDIDATES", /integer from 2/);
  rejects({ RPC_URL_1: "ftp://node" }, "RPC_URL_1", /http/);
  rejects({ RPC_URL_01: "http://node" }, "RPC_URL_01", /leading zeros/);
  rejects({ REDIS_URL: "http://redis.internal:6379" }, "REDIS_URL", /redis:\/\/ or rediss:\/\//);
  rejects({ REDIS_URL: "redis.internal:6379" }, "REDIS_URL", /redis:\/\//);
  rejects({ REDIS_CLAIM_MS: "5" }, "REDIS_CLAIM_MS", /integer from 10/);
  assert.equal(loadConfig({ REDIS_URL: "rediss://user:pw@redis.internal:6380/2" }).redisUrl, "rediss://user:pw@redis.internal:6380/2");
  rejects({ RPC_URL_MAINNET: "http://node" }, "RPC_URL_MAINNET", /RPC_URL_<chainId>/);
  assert.throws(() => loadDevchainConfig({ DEVCHAIN_PORT: "abc" }), (e: unknown) => e instanceof ConfigError && e.variable === "DEVCHAIN_PORT");
  assert.throws(() => loadDevchainConfig({ DEVCHAIN_HOST: "a b" }), (e: unknown) => e instanceof ConfigError && e.variable === "DEVCHAIN_HOST");
  assert.equal(loadConfig({ HOST: "::" }).host, "::");
  assert.equal(loadConfig({ HOST: "quoter.internal" }).host, "quoter.internal");
  assert.deepEqual(loadConfig({ RPC_URL_10: "http://a, https://b/x" }).rpcUrls.get(10), ["http://a", "https://b/x"]);
});

/** Runs a TypeScript entry point as `npm start` would, and returns its exit code and output. */
const run = (entry: string, env: Record<string, string>) => runProcess(process.execPath, ["--import", "tsx", entry], env);

test("a bad value stops start-up with exit status 1 and a message naming the variable and its rule", async () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ["src/main.ts", { PORT: "abc" }, /invalid configuration: PORT: must be an integer from 0 to 65535/],
    ["src/main.ts", { PORT: "0", RPC_URL_1: "ftp://node.example/key" }, /invalid configuration: RPC_URL_1: must be a comma-separated list of http:\/\/ or https:\/\/ URLs/],
    ["src/main.ts", { PORT: "0", LOG_FORMAT: "xml" }, /invalid configuration: LOG_FORMAT: must be one of auto, json, pretty/],
    ["src/devchain/serve.ts", { DEVCHAIN_PORT: "abc" }, /invalid configuration: DEVCHAIN_PORT: must be an integer from 0 to 65535/],
  ];
  const results = await Promise.all(cases.map(([entry, env]) => run(entry, env)));
  results.forEach(({ code, stderr, stdout }, i) => {
    const [entry, env, message] = cases[i]!;
    assert.equal(code, 1, `${entry} with ${JSON.stringify(env)}: exit 1\n${stderr}`);
    assert.match(stderr, message);
    assert.doesNotMatch(stdout, /listening/i, "nothing started");
    assert.ok(!stderr.includes("node.example/key"), "the bad URL's path is not echoed");
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

test(".env.example and the configuration table (docs/configuration.md) list every variable the service reads", () => {
  const read = new Set<string>(["RPC_URL_<chainId>"]);
  for (const file of sourceFiles(join(ROOT, "src"))) {
    const text = readFileSync(file, "utf8");
    // integer(env, "PORT", ...), oneOf(env, "LOG_LEVEL", ...), hostName(env, "HOST", ...), process.env.X
    for (const [, name] of text.matchAll(/\(env, "([A-Z][A-Z0-9_]*)"/g)) read.add(name!);
    for (const [, name] of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) read.add(name!);
  }
  assert.ok(read.size >= 17, `found ${[...read].join(", ")}`);
  const example = readFileSync(join(ROOT, ".env.example"), "utf8");
  const readme = readFileSync(join(ROOT, "docs", "configuration.md"), "utf8");
  for (const name of read) {
    // A setting without a default (REDIS_URL) is shown as an example, commented out.
    const unset = name in SETTINGS && SETTINGS[name as keyof typeof SETTINGS].default === undefined;
    const pattern = name === "RPC_URL_<chainId>" ? /^# RPC_URL_\d+=/m : new RegExp(`^${unset ? "# " : ""}${name}=`, "m");
    assert.match(example, pattern, `.env.example lists ${name}`);
    assert.ok(readme.includes(`| \`${name}\` |`), `docs/configuration.md lists ${name}`);
  }
  // Each default in .env.example is the one the code applies.
  const defaults = Object.fromEntries([...example.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, key, value]) => [key!, value!]));
  const config = loadConfig({});
  assert.deepEqual(loadConfig(defaults), config);
  assert.deepEqual(loadDevchainConfig(defaults), loadDevchainConfig({}));
});

test("CORS_ORIGINS: * by default, or a list of origins; a URL with a path or another scheme is refused", () => {
  assert.equal(loadConfig({}).corsOrigins, "*");
  assert.deepEqual(loadConfig({ CORS_ORIGINS: "https://app.example.com, http://localhost:5173" }).corsOrigins, [
    "https://app.example.com",
    "http://localhost:5173",
  ]);
  for (const bad of ["https://app.example.com/", "app.example.com", "ftp://x.example", "https://a.example,*"]) {
    rejects({ CORS_ORIGINS: bad }, "CORS_ORIGINS", /origins such as/);
  }
});

test("TRUST_PROXY: off by default; true, a hop count, or proxy addresses and CIDRs", () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: "true" }).trustProxy, true);
  assert.equal(loadConfig({ TRUST_PROXY: "2" }).trustProxy, 2);
  assert.deepEqual(loadConfig({ TRUST_PROXY: "10.0.0.0/8, ::1" }).trustProxy, ["10.0.0.0/8", "::1"]);
  for (const bad of ["yes", "100", "10.0.0.0/8,proxy.internal"]) rejects({ TRUST_PROXY: bad }, "TRUST_PROXY", /a hop count/);
});
