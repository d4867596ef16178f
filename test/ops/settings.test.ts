// One table of settings (src/config.ts): .env.example, the configuration table (docs/configuration.md) and `quoter serve --help`
// say what it says, each default passes its own rule, and the defaults the modules fall back on are its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SETTINGS, loadConfig, read, type SettingName } from "../../src/config.ts";
import { SERVE_HELP } from "../../src/cli/help.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../../src/chain/searchers/searcher.ts";
import { DEFAULT_PROTECTION } from "../../src/http/protection.ts";
import { DEFAULT_READY_TIMEOUT_MS } from "../../src/observability/readiness.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../../src/quote/exactSearch.ts";
import { envExample, readmeSettingsTable, withSettingsTable } from "../../src/settingsText.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const NAMES = Object.keys(SETTINGS) as SettingName[];

test(".env.example and the configuration table (docs/configuration.md) are the table's (run npm run settings)", () => {
  assert.equal(readFileSync(join(ROOT, ".env.example"), "utf8"), envExample());
  const readme = readFileSync(join(ROOT, "docs", "configuration.md"), "utf8");
  assert.ok(readme.includes(readmeSettingsTable()), "docs/configuration.md holds the table's rows");
  assert.equal(withSettingsTable(readme), readme);
});

test("each default is a value its own rule accepts, and reads back as itself", () => {
  for (const name of NAMES) {
    const { default: fallback, parse } = SETTINGS[name];
    if (fallback === undefined) {
      // None by default (REDIS_URL): unset and blank alike read as none.
      assert.equal(read({}, name), undefined, name);
      assert.equal(read({ [name]: "  " }, name), undefined, name);
      continue;
    }
    assert.equal(parse(String(fallback)), fallback, name);
    assert.equal(read({ [name]: String(fallback) }, name), fallback, name);
    assert.equal(read({ [name]: "  " }, name), fallback, `${name}: blank is unset`);
  }
});

test("quoter serve --help lists every variable with its default and rule", () => {
  const plain = SERVE_HELP.replace(/\s+/g, " ").toLowerCase();
  assert.ok(SERVE_HELP.includes("  RPC_URL_<chainId> "));
  for (const name of NAMES) {
    const fallback = SETTINGS[name].default;
    const shown = fallback === undefined ? "" : `=${String(fallback).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    assert.match(SERVE_HELP, new RegExp(`  ${name}${shown}[ \\n]`), name);
    assert.ok(plain.includes(SETTINGS[name].accepts.toLowerCase()), `${name}: ${SETTINGS[name].accepts}`);
  }
});

test("the defaults the modules fall back on are the table's", () => {
  const config = loadConfig({});
  assert.deepEqual(DEFAULT_PROTECTION, {
    rateLimitMax: config.rateLimitMax,
    rateLimitWindowMs: config.rateLimitWindowMs,
    rateLimitClients: config.rateLimitClients,
    maxUrlLength: config.maxUrlLength,
  });
  assert.equal(DEFAULT_READY_TIMEOUT_MS, config.readyTimeoutMs);
  // The single-call strategy still states its own (src/chain/searchers/singleCall.ts is left to its split): kept equal here.
  assert.equal(DEFAULT_SEARCH_GAS_CAP, config.searchGasCap);
  assert.equal(DEFAULT_EXACT_MAX_CANDIDATES, config.exactMaxCandidates);
});
