// The explorer's form is the table of quote parameters: the page builds its text fields from
// /quoter/explorer/fields.json, which the service derives from the table.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildApp } from "../../src/http/app.ts";
import { QUOTE_PARAMS } from "../../src/quote/params.ts";

const quoter = { quote: async () => ({}) as never };

test("fields.json: a field per parameter of the table but those the page sets itself (search, trace), in its order", async () => {
  const app = buildApp({ quoter });
  try {
    const response = await app.inject({ method: "GET", url: "/quoter/explorer/fields.json" });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^application\/json/);
    const fields = response.json() as Array<{ name: keyof typeof QUOTE_PARAMS; in: string; required: boolean; value?: string; placeholder?: string; numeric: boolean }>;
    const names = fields.map((field) => field.name);
    assert.deepEqual(names, Object.keys(QUOTE_PARAMS).filter((name) => !["search", "trace"].includes(name)));
    for (const field of fields) {
      const param = QUOTE_PARAMS[field.name];
      assert.equal(field.in, param.in, field.name);
      assert.equal(field.required, param.required, field.name);
      // A required field starts with a value the service accepts; an optional one says what leaving it empty means.
      if (field.required) assert.ok(field.value !== undefined && param.parse(field.value).ok, field.name);
      else assert.ok(field.value === undefined && field.placeholder, field.name);
    }
    assert.deepEqual(fields.filter((field) => field.numeric).map((field) => field.name), ["chainId", "marketId", "collateralAvailable", "maxIterations", "minBlock", "slippageBps", "deadlineSeconds"]);
    const page = await app.inject({ method: "GET", url: "/quoter/explorer" });
    for (const place of ["path", "query"]) assert.match(page.body, new RegExp(`<fieldset id="${place}-fields">`));
  } finally {
    await app.close();
  }
});
