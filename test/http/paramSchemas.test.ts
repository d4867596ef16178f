// The quote route's parameter schemas (and so the OpenAPI document's parameters) are the table of quote
// parameters as JSON Schema: one row each, and never stricter than the parser, so that the documents never
// turn away a value the service accepts.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import { quoteParamsSchema, quoteQuerySchema } from "../../src/http/schemas.ts";
import { QUOTE_PATH_TEMPLATE } from "../../src/http/indexRoute.ts";
import { MAX_PARAMETER_LENGTH, QUOTE_PARAMS } from "../../src/quote/params.ts";

const ajv = new Ajv2020({ strict: false });
const schemas = { path: quoteParamsSchema, query: quoteQuerySchema };

test("§2 each row of the table is a documented parameter at its place, required as the parser requires it", () => {
  for (const [name, param] of Object.entries(QUOTE_PARAMS)) {
    const schema = schemas[param.in];
    const property = (schema.properties as Record<string, { description?: string; examples?: string[] }>)[name];
    assert.ok(property, `${name} is documented in the ${param.in}`);
    assert.equal((schema.required as readonly string[]).includes(name), param.required, `${name} required`);
    assert.equal(property.description, param.description);
    assert.deepEqual(property.examples, [param.example]);
  }
  const documented = [...Object.keys(quoteParamsSchema.properties), ...Object.keys(quoteQuerySchema.properties)];
  assert.deepEqual(documented, Object.keys(QUOTE_PARAMS), "nothing else, in the table's order");
});

test("§2 the index's quote path names every parameter of the table (it is written out, in the order a reader wants)", () => {
  for (const [name, param] of Object.entries(QUOTE_PARAMS)) {
    assert.ok(QUOTE_PATH_TEMPLATE.includes(param.in === "path" ? `{${name}}` : `${name}=`), name);
  }
});

test("§2 every example is a value the parser accepts", () => {
  for (const [name, param] of Object.entries(QUOTE_PARAMS)) {
    assert.ok(param.parse(param.example).ok, `${name}: ${param.example}`);
  }
});

const ugly = fc.constantFrom(
  "", "-", "+1", "0", "00", "-0", "1e", "1e+5", "1E-7", ".5", "5.", "0x1f", "1_000", " 1", "١", "１", "💥", "true", "exact",
  "bisection", "Exact", "0x5FbDB2315678afecb367f032d93F642f64180aa3", "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  "0x5fbdb2315678afecb367f032d93F642f64180aa3", "1e999999999", "9".repeat(MAX_PARAMETER_LENGTH), "9".repeat(MAX_PARAMETER_LENGTH + 1),
);
const text = fc.oneof(
  ugly,
  fc.bigInt({ min: -(10n ** 80n), max: 10n ** 80n }).map(String),
  fc.tuple(fc.nat(999), fc.nat(10 ** 6), fc.integer({ min: -30, max: 30 })).map(([a, b, e]) => `${a}.${b}e${e}`),
  fc.string({ maxLength: 12 }),
);

test("§2 the documents never reject a text the parser accepts (the parser checks more: ranges, checksums, 10^-18)", () => {
  const checks = Object.entries(QUOTE_PARAMS).map(([name, param]) => {
    const schema = (schemas[param.in].properties as Record<string, object>)[name]!;
    return { name, param, accepts: ajv.compile(schema) };
  });
  fc.assert(
    fc.property(text, (value) => {
      for (const { name, param, accepts } of checks) {
        const parsed = value.length <= MAX_PARAMETER_LENGTH && param.parse(value).ok;
        if (parsed) assert.ok(accepts(value), `${name}: the parser accepts ${JSON.stringify(value)}, the schema does not`);
      }
    }),
    { numRuns: 3000 },
  );
});
