// The client as a frontend gets it: client/ (built by `npm run build`, which `npm test` runs first) packed with
// `npm pack`, installed from the tarball into a folder of its own (a package.json and nothing else of this
// repository), and imported there by its name, as the frontend's own code would.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runProcess } from "./processes.ts";

/** The package's module, typed by its sources (what its declarations say too: the type-level test checks them). */
export type ClientModule = typeof import("../../client/src/index.ts");

export interface PackedClient {
  /** The frontend's folder: its package.json and node_modules. */
  readonly dir: string;
  /** The tarball's file name. */
  readonly tarball: string;
  /** The installed package, imported by its name from a module of the frontend's folder. */
  readonly module: ClientModule;
  remove(): void;
}

export async function installPackedClient(): Promise<PackedClient> {
  const dir = mkdtempSync(join(tmpdir(), "quoter-client-"));
  try {
    const packed = await runProcess("npm", ["pack", "--workspace", "client", "--ignore-scripts", "--silent", "--pack-destination", dir], { npm_config_loglevel: "error" });
    assert.equal(packed.code, 0, packed.stderr);
    const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"));
    assert.ok(tarball, `a tarball in ${readdirSync(dir)}`);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "frontend", private: true, type: "module" }));
    const install = await runProcess("npm", ["install", "--no-audit", "--no-fund", "--prefix", dir, join(dir, tarball)], { npm_config_loglevel: "error" });
    assert.equal(install.code, 0, install.stderr);
    // Resolved by name from the frontend's folder: its node_modules, by the package's "exports".
    writeFileSync(join(dir, "entry.mjs"), 'export * from "@quoter/client";\n');
    const module = (await import(pathToFileURL(join(dir, "entry.mjs")).href)) as ClientModule;
    return { dir, tarball, module, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
