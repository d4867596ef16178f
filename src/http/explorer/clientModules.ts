// The modules of the client package (client/, @quoter/client) as the explorer's page imports them: the client's
// compiled ES modules at /quoter/explorer/client/ and eventsource-parser's ES module build at
// /quoter/explorer/vendor/, the two names of the page's import map. So the page quotes, ladders and streams through
// the very code a frontend installs. The build copies both beside this module (scripts/copy-assets.mjs); run from the
// sources (tsx), they are read where the workspace's build and install put them.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface PageModule {
  /** Its path below /quoter/explorer/. */
  readonly path: string;
  readonly body: string;
}

/** Where the build copies them (dist/http/explorer/), and where they are in a clone. */
const COPIED = { client: new URL("./client/", import.meta.url), vendor: new URL("./vendor/eventsource-parser.js", import.meta.url) };
const WORKSPACE_CLIENT = new URL("../../../client/dist/", import.meta.url);

const withoutSourceMap = (text: string) => text.replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n");

/** What builds the client's modules (client/, then copied into the service's build). */
export const CLIENT_BUILD_COMMAND = "npm run build";

/**
 * The client's modules and the parser's, as served; or, when the client is not built, the folder its modules are
 * missing from. `clientDir`: where to read the client's compiled modules (by default the build's copy, else the
 * workspace's client/dist/).
 */
export function clientModules(clientDir?: URL): { readonly modules: PageModule[] } | { readonly missing: string } {
  const copied = clientDir === undefined && existsSync(COPIED.client);
  const dir = clientDir ?? (copied ? COPIED.client : WORKSPACE_CLIENT);
  if (!existsSync(new URL("index.js", dir))) return { missing: fileURLToPath(dir) };
  const parser = existsSync(COPIED.vendor) ? COPIED.vendor : new URL(import.meta.resolve("eventsource-parser"));
  const modules = readdirSync(dir)
    .filter((name) => name.endsWith(".js"))
    .sort()
    .map((name) => ({ path: `client/${name}`, body: withoutSourceMap(readFileSync(new URL(name, dir), "utf8")) }));
  return { modules: [...modules, { path: "vendor/eventsource-parser.js", body: withoutSourceMap(readFileSync(parser, "utf8")) }] };
}

/** The CSP source that allows the page's inline import map (a script, to the browser): its SHA-256. */
export function importMapSource(page: string): string {
  const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(page);
  if (map === null) throw new Error("the explorer's page has no import map");
  return `'sha256-${createHash("sha256").update(map[1]!, "utf8").digest("base64")}'`;
}
