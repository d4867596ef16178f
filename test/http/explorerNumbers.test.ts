// The explorer reads and writes numbers by the service's own fixed-point and price rules: the page imports
// /quoter/explorer/lib/fixedPoint.js and priceMath.js, which are src/quote/fixedPoint.ts and priceMath.ts as browser
// JavaScript. Loaded here as the browser loads them (ES modules importing their siblings), they answer as the
// service's modules on random values.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { maxUint256 } from "viem";
import { buildApp } from "../../src/http/app.ts";
import * as service from "../../src/quote/fixedPoint.ts";
import * as servicePrices from "../../src/quote/priceMath.ts";
import { randomBytes, randomInt } from "node:crypto";

const quoter = { quote: async () => ({}) as never };

/** The served modules, written to a folder and imported from there as the page's numbers.js imports them. */
async function servedModules(): Promise<{ fixedPoint: typeof service; priceMath: typeof servicePrices }> {
  const app = buildApp({ quoter });
  const folder = mkdtempSync(join(tmpdir(), "explorer-lib-"));
  try {
    for (const name of ["fixedPoint", "priceMath", "result"]) {
      const response = await app.inject({ method: "GET", url: `/quoter/explorer/lib/${name}.js` });
      assert.equal(response.statusCode, 200, name);
      assert.match(String(response.headers["content-type"]), /^text\/javascript/);
      assert.doesNotMatch(response.body, /from "(?!\.\/)/, "imports nothing but its siblings");
      writeFileSync(join(folder, `${name}.js`), response.body);
    }
    writeFileSync(join(folder, "package.json"), '{"type":"module"}');
    const load = (name: string) => import(pathToFileURL(join(folder, `${name}.js`)).href);
    return { fixedPoint: (await load("fixedPoint")) as typeof service, priceMath: (await load("priceMath")) as typeof servicePrices };
  } finally {
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

test("the page's fixed-point and price modules answer as the service's: parse, format, sqrt prices, significant digits", async () => {
  const { fixedPoint: page, priceMath: pagePrices } = await servedModules();
  const texts = ["0.55", "-1.5", "1030", "2.5e3", "1e-18", "1e-19", "0.0000000000000000001", "abc", "1e999999999", "", maxUint256.toString()];
  for (let i = 0; i < 200; i++) {
    const value = BigInt(`0x${randomBytes(1 + randomInt(32)).toString("hex")}`);
    texts.push(service.formatD18(value), service.formatD18(-value), `${value}e-${randomInt(30)}`, `${value}e${randomInt(80)}`);
    assert.equal(page.formatD18(value), service.formatD18(value), String(value));
    assert.equal(pagePrices.priceD18FromSqrtX96Nearest(value), servicePrices.priceD18FromSqrtX96Nearest(value), String(value));
    assert.equal(page.roundSignificant(value + 1n, 6), service.roundSignificant(value + 1n, 6), String(value));
  }
  for (const text of texts) assert.deepEqual(page.parseDecimalD18(text), service.parseDecimalD18(text), text);
  assert.equal(page.D18, service.D18);
});

test("the module's own 2^256-1 is viem's maxUint256: the largest D18 price parses, one unit more does not", () => {
  const largest = service.formatD18(maxUint256);
  assert.deepEqual(service.parseDecimalD18(largest), { ok: true, value: maxUint256 });
  assert.equal(service.parseDecimalD18(service.formatD18(maxUint256 + 1n)).ok, false);
});
