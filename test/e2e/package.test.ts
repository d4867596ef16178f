// The service as it ships: the compiled build (`npm run build`, which `npm test` runs first) packed with `npm pack`,
// installed with `--omit=dev` into a directory of its own (from the npm registry: no TypeScript, no tsx, no solc,
// no Solidity sources), started with plain node on its embedded chain, and asked for a quote.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { runProcess, startProcess } from "../support/processes.ts";

let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), "quoter-package-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("npm pack, npm install --omit=dev elsewhere, then plain node serves a 200 quote on the embedded chain", { timeout: 300_000 }, async () => {
  const packed = await runProcess("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], { npm_config_loglevel: "error" });
  assert.equal(packed.code, 0, packed.stderr);
  const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"));
  assert.ok(tarball, `a tarball in ${readdirSync(dir)}`);

  const install = await runProcess("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefix", dir, join(dir, tarball)], {});
  assert.equal(install.code, 0, install.stderr);
  const installed = join(dir, "node_modules");
  for (const devOnly of ["typescript", "tsx", "solc"]) assert.ok(!existsSync(join(installed, devOnly)), `${devOnly} is not installed`);
  // The project's OpenZeppelin (what solc compiles against) is not; v3-periphery's own, its dependency, may be.
  const openZeppelin = join(installed, "@openzeppelin", "contracts", "package.json");
  if (existsSync(openZeppelin)) assert.match(JSON.parse(readFileSync(openZeppelin, "utf8")).version, /^3\./, "only v3-periphery's OpenZeppelin");
  assert.ok(!existsSync(join(installed, "quoter", "src")), "the TypeScript sources are not shipped");
  assert.ok(!existsSync(join(installed, "quoter", "contracts")), "the Solidity sources are not shipped");

  const service = await startProcess(
    "node",
    [join(installed, "quoter", "bin", "quoter.js"), "serve"],
    { PORT: "0", LOG_LEVEL: "warn", LOG_FORMAT: "json" },
    /Quoter listening on (http:\/\/\S+)\/quoter/,
    60_000,
  );
  try {
    const base = service.match[1]!;
    const answer = await fetch(`${base}/quoter/31337/${DEMO_MARKET_GROUP_ADDRESS}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000`);
    const body = (await answer.json()) as { direction?: string; blockHash?: string };
    assert.equal(answer.status, 200, JSON.stringify(body));
    assert.equal(body.direction, "LONG");
    assert.match(body.blockHash ?? "", /^0x[0-9a-f]{64}$/);
    const explorer = await fetch(`${base}/quoter/explorer/explorer.js`);
    assert.equal(explorer.status, 200, "the explorer's page ships in the build");
    // And the client package's modules it imports, copied into the build (no workspace, no eventsource-parser installed).
    assert.ok(!existsSync(join(installed, "eventsource-parser")), "the service installs no SSE parser of its own");
    for (const module of ["client/index.js", "client/watch.js", "vendor/eventsource-parser.js"]) {
      const served = await fetch(`${base}/quoter/explorer/${module}`);
      assert.equal(served.status, 200, module);
      assert.match(await served.text(), /^export /m, `${module} is an ES module`);
    }
  } finally {
    await service.stop();
  }
});
