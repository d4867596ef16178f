// The explorer's page runs on the client package's build (client/dist, copied into the service's build). Without
// it the service still starts and quotes: one warning line at start-up names what is missing and the command that
// builds it, and the explorer's routes answer 503 in the API's error shape saying the same. The folder is injected
// (a directory that does not exist), not deleted from the checkout.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { quoterApp } from "../support/quoterHarness.ts";

let devchain: Devchain;
let app: FastifyInstance;
let scratch: string;
let missing: string;
const lines: any[] = [];

before(async () => {
  devchain = await startDevchain();
  scratch = mkdtempSync(join(tmpdir(), "quoter-no-client-"));
  missing = join(scratch, "client", "dist");
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  app = await quoterApp({ rpc: devchain.endpoint.url, logger: pino({ level: "info" }, sink) as never, explorer: { clientDir: pathToFileURL(`${missing}/`) } });
});
after(async () => {
  await app?.close();
  await devchain?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test("the service starts and quotes without the client's build", async () => {
  const answer = await app.inject({ method: "GET", url: `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000` });
  assert.equal(answer.statusCode, 200, answer.body);
  assert.equal(answer.json().direction, "LONG");
});

test("one warning line at start-up names the missing folder and the command that builds it", () => {
  const said = lines.filter((line) => line.level === 40 && /explorer/.test(line.msg));
  assert.equal(said.length, 1, JSON.stringify(lines));
  assert.ok(said[0].msg.includes(missing), said[0].msg);
  assert.ok(said[0].msg.includes("`npm run build`"), said[0].msg);
});

test("the explorer's page and its modules answer 503 in the error shape, saying what to run", async () => {
  for (const url of ["/quoter/explorer", "/quoter/explorer/", "/quoter/explorer/client/index.js", "/quoter/explorer/explorer.js"]) {
    const answer = await app.inject({ method: "GET", url });
    assert.equal(answer.statusCode, 503, url);
    const body = answer.json();
    assert.deepEqual(Object.keys(body), ["error", "details"], url);
    assert.equal(body.error, "Explorer unavailable");
    assert.equal(body.details.length, 1);
    assert.equal(body.details[0].param, "explorer");
    assert.match(body.details[0].message, /client modules are missing \(.*client\/dist\/?\): run `npm run build`/);
  }
});
