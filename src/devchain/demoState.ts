// The demo chain saved by the build: anvil's dump of a chain that deployed the demo, loaded by every later start
// (anvil --load-state) instead of deploying it again, with a record of what it was made from. A state made from
// other sources than the running code's (a change of src/devchain/ or of the contracts' generated code) is never
// served: the start refuses it and names the command that makes it again.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { Hash } from "viem";
import { QuoterError } from "../quote/quoterError.ts";
import type { EmbeddedChain } from "./chain.ts";

/** Where the build keeps the state, the same file whether this module runs from src/ (tsx) or from dist/. */
export const DEMO_STATE_FILE = fileURLToPath(new URL("../../dist/devchain/demo-state.json", import.meta.url));
/** What the state was made from and which block it ends at, beside it; written last, so a state without it is unfinished. */
export const DEMO_STATE_RECORD_FILE = DEMO_STATE_FILE.replace(/\.json$/, ".record.json");
/** The command that makes the state again. */
export const DEMO_STATE_COMMAND = "npm run build";

/** The packages whose code ends up on the demo chain: the node itself and Uniswap's published artifacts. */
const PACKAGES = ["@foundry-rs/anvil-linux-amd64", "@uniswap/v3-core", "@uniswap/v3-periphery"] as const;

export interface DemoStateRecord {
  /** The sources' fingerprint, per form of the code that may load it: `.ts` (run by tsx) and `.js` (dist/). */
  readonly fingerprints: Readonly<Record<string, string>>;
  /** The chain's head once deployed: a loaded chain must end at this very block. */
  readonly head: { readonly number: string; readonly hash: Hash; readonly timestamp: string };
}

/** The saved state cannot be loaded: absent, unfinished, or made from other sources than the running code's. */
export class DemoStateError extends QuoterError {
  constructor(message: string) {
    super("demo-state", message, { details: [{ param: "DEMO_CHAIN", message: `run \`${DEMO_STATE_COMMAND}\`, or set DEMO_CHAIN=deploy` }] });
  }
}

/**
 * A digest of what a demo chain is made from, for the code in `devchainDir` (every file of the form `extension` in
 * it: the deployment, the demo's table, the node's arguments) and `generatedFile` (the contracts' bytecode), with
 * the versions of {@link PACKAGES}. Two codes with one fingerprint deploy the same chain.
 */
export function demoFingerprint(devchainDir: string, generatedFile: string, extension: string): string {
  const hash = createHash("sha256");
  const files = readdirSync(devchainDir)
    .filter((name) => extname(name) === extension)
    .sort()
    .map((name) => join(devchainDir, name));
  for (const file of [...files, generatedFile]) {
    hash.update(`${relative(dirname(devchainDir), file)}\0`).update(readFileSync(file)).update("\0");
  }
  const require = createRequire(import.meta.url);
  for (const name of PACKAGES) {
    const { version } = require(`${name}/package.json`) as { version: string };
    hash.update(`${name}@${version}\0`);
  }
  return hash.digest("hex");
}

/** The fingerprint of the running code: this module's own form (`.ts` or `.js`) and the files beside it. */
export function runningFingerprint(): string {
  const self = fileURLToPath(import.meta.url);
  const extension = extname(self);
  return demoFingerprint(dirname(self), join(dirname(self), "..", "generated", `contracts${extension}`), extension);
}

/**
 * The saved state's record, checked against `fingerprint` (the running code's); throws {@link DemoStateError}
 * naming {@link DEMO_STATE_COMMAND} when there is none, it is unreadable, or it was made from other sources.
 */
export function readDemoState(files: { state: string; record: string } = { state: DEMO_STATE_FILE, record: DEMO_STATE_RECORD_FILE }, fingerprint = runningFingerprint()): DemoStateRecord {
  const remedy = `run \`${DEMO_STATE_COMMAND}\` to make it, or set DEMO_CHAIN=deploy to deploy the demo at every start`;
  if (!existsSync(files.state) || !existsSync(files.record)) {
    throw new DemoStateError(`the embedded chain's saved demo (${files.state}) is missing: ${remedy}`);
  }
  let record: DemoStateRecord;
  try {
    record = JSON.parse(readFileSync(files.record, "utf8")) as DemoStateRecord;
  } catch {
    throw new DemoStateError(`the embedded chain's saved demo has an unreadable record (${files.record}): ${remedy}`);
  }
  if (!Object.values(record.fingerprints ?? {}).includes(fingerprint)) {
    throw new DemoStateError(`the embedded chain's saved demo (${files.state}) was made from other sources than this code's (src/devchain/ or the contracts changed since): ${remedy}`);
  }
  return record;
}

/** Whether the saved state was made from code of each of `fingerprints` (the build makes it again when not). */
export function demoStateIsCurrent(fingerprints: readonly string[]): boolean {
  try {
    for (const fingerprint of fingerprints) readDemoState(undefined, fingerprint);
    return true;
  } catch (error) {
    if (error instanceof DemoStateError) return false;
    throw error;
  }
}

/**
 * Saves `chain` (which has just deployed the demo) as the loadable state: anvil's dump (anvil_dumpState, gzipped
 * JSON), then the record naming `fingerprints` and the chain's head. Each file is written whole, then renamed; the old
 * record goes first, so that a build cut off half-way leaves no state that passes for made.
 */
export async function saveDemoState(chain: EmbeddedChain, fingerprints: Readonly<Record<string, string>>): Promise<DemoStateRecord> {
  const dump = (await chain.provider.request({ method: "anvil_dumpState", params: [] } as never)) as string;
  const state = gunzipSync(Buffer.from(dump.slice(2), "hex"));
  const head = await chain.publicClient.getBlock();
  const record: DemoStateRecord = { fingerprints, head: { number: String(head.number), hash: head.hash, timestamp: String(head.timestamp) } };
  rmSync(DEMO_STATE_RECORD_FILE, { force: true });
  writeWhole(DEMO_STATE_FILE, state);
  writeWhole(DEMO_STATE_RECORD_FILE, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

function writeWhole(file: string, data: string | Buffer): void {
  writeFileSync(`${file}.partial`, data);
  renameSync(`${file}.partial`, file);
}
