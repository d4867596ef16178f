// The quote explorer at /quoter/explorer: one static page (HTML, CSS and plain browser JavaScript modules, no
// build step, nothing from a CDN) that calls the quote API through the client package (@quoter/client, served
// beside it) with trace=true and draws the search. Register with the /quoter prefix. Its routes are hidden from the
// OpenAPI document: they are pages, not the API.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname } from "node:path";
import type { FastifyPluginAsync } from "fastify";
import { sendQuoteError } from "../errorHandling.ts";
import { explorerUnavailable } from "../httpErrors.ts";
import { CLIENT_BUILD_COMMAND, clientModules, importMapSource } from "./clientModules.ts";
import { knownErrorList } from "../../chain/searchers/marketGroup.ts";
import { EXPLORER_FIELDS } from "./fields.ts";

// The page's files are served as they are (no build step): the compiled build copies the folder beside this module.
const PAGE_DIR = new URL("./page/", import.meta.url);
const asset = (name: string) => readFileSync(new URL(name, PAGE_DIR), "utf8");

const PAGE = asset("./index.html");
const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
/**
 * The page's scripts (modules that import one another), its style sheet, its form's fields (fields.ts), and the
 * errors the service decodes reverts by, so that a wallet's revert reads on the page as a trace's does.
 */
const ASSETS = readdirSync(PAGE_DIR)
  .filter((name) => TYPES[extname(name)] !== undefined)
  .sort()
  .map((name) => ({ name, type: TYPES[extname(name)]!, body: asset(`./${name}`) }))
  .concat([
    { name: "fields.json", type: "application/json; charset=utf-8", body: JSON.stringify(EXPLORER_FIELDS) },
    { name: "errors.json", type: "application/json; charset=utf-8", body: JSON.stringify(knownErrorList()) },
  ]);

/**
 * The project's own modules the page imports, served at /quoter/explorer/lib/: the fixed-point rules, the price
 * math and the Result they answer in. They import nothing but one another, so they run in a browser as compiled.
 */
const SHARED_MODULES = ["fixedPoint", "priceMath", "result"] as const;

/** A module of src/quote as browser JavaScript: compiled beside this one (the build), or from its source (tsx). */
async function sharedModule(name: (typeof SHARED_MODULES)[number]): Promise<string> {
  const compiled = new URL(`../../quote/${name}.js`, import.meta.url);
  if (existsSync(compiled)) return readFileSync(compiled, "utf8").replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n");
  // Run from the sources, the dev install's TypeScript strips the types (what the build's tsc does).
  const { default: ts } = await import("typescript");
  const source = readFileSync(new URL(`../../quote/${name}.ts`, import.meta.url), "utf8");
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, rewriteRelativeImportExtensions: true };
  return ts.transpileModule(source, { compilerOptions: options }).outputText;
}

/**
 * The page loads only its own assets and calls only this server: the browser enforces it. Its one inline script
 * is the import map that names the client's modules, allowed by its hash.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src 'self' ${importMapSource(PAGE)}`,
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export interface ExplorerOptions {
  /** Where the client package's compiled modules are (default: the build's copy, else client/dist/). */
  readonly clientDir?: URL;
}

export const explorerPlugin: FastifyPluginAsync<ExplorerOptions> = async (app, options) => {
  const client = clientModules(options.clientDir);
  if ("missing" in client) {
    // The page runs on the client package: without its build there is no explorer, but the service still starts and
    // quotes. Said once at start-up, and by each of the explorer's routes.
    app.log.warn({ missing: client.missing, build: CLIENT_BUILD_COMMAND }, `explorer unavailable: the client package's modules are missing (${client.missing}): run \`${CLIENT_BUILD_COMMAND}\``);
    const unavailable = explorerUnavailable(client.missing, CLIENT_BUILD_COMMAND);
    for (const path of ["/explorer", "/explorer/*"]) app.get(path, { schema: { hide: true } }, async (_request, reply) => sendQuoteError(reply, unavailable));
    return;
  }
  app.get("/explorer", { schema: { hide: true } }, async (request, reply) => {
    // The page's asset links are relative to /quoter/explorer; the router also matches a trailing slash.
    const [path, query] = splitUrl(request.url);
    if (path.endsWith("/")) return reply.redirect(`${path.replace(/\/+$/, "")}${query}`, 301);
    return reply
      .header("content-security-policy", CONTENT_SECURITY_POLICY)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(PAGE);
  });
  for (const name of SHARED_MODULES) {
    const body = await sharedModule(name);
    app.get(`/explorer/lib/${name}.js`, { schema: { hide: true } }, async (_request, reply) =>
      reply.header("cache-control", "no-cache").type(TYPES[".js"]!).send(body),
    );
  }
  for (const { path, body } of client.modules) {
    app.get(`/explorer/${path}`, { schema: { hide: true } }, async (_request, reply) =>
      reply.header("cache-control", "no-cache").type(TYPES[".js"]!).send(body),
    );
  }
  for (const { name, type, body } of ASSETS) {
    app.get(`/explorer/${name}`, { schema: { hide: true } }, async (_request, reply) =>
      reply.header("cache-control", "no-cache").type(type).send(body),
    );
  }
};

function splitUrl(url: string): [string, string] {
  const at = url.indexOf("?");
  return at < 0 ? [url, ""] : [url.slice(0, at), url.slice(at)];
}
