// Abuse limits and semantics §6: rate limiting (429 with Retry-After), URL length (414), no request
// body, security headers, all in the one error shape.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Quoter } from "../../src/service/api.ts";
import { marketNotFound } from "../../src/quote/quoteErrors.ts";
import { uriTooLong } from "../../src/http/httpErrors.ts";
import { quoterApp } from "../support/quoterHarness.ts";

// These limits act before any quote: a quoter that never reaches a chain is enough to show them.
const quoter: Quoter = { quote: async () => { throw marketNotFound(); } };
const url = "/quoter/1/0x5FbDB2315678afecb367f032d93F642f64180aa3/1?expectedPrice=1&collateralAvailable=1";

test("per-client rate limit: past the limit, 429 Too many requests with Retry-After", async () => {
  const app = await quoterApp({ quoter, protection: { rateLimitMax: 5, rateLimitWindowMs: 60_000 } });
  const statuses = [];
  for (let i = 0; i < 7; i++) statuses.push((await app.inject({ url })).statusCode);
  assert.deepEqual(statuses, [404, 404, 404, 404, 404, 429, 429]);
  const limited = await app.inject({ url });
  assert.equal(limited.json().error, "Too many requests");
  assert.match(limited.json().details[0].message, /limit of 5 requests a window/);
  assert.ok(Number(limited.headers["retry-after"]) >= 1);
  const other = await app.inject({ url, remoteAddress: "10.1.2.3" });
  assert.equal(other.statusCode, 404, "another client has its own budget");
  await app.close();
});

test("a URL longer than the limit is 414 URI too long, unparsed", async () => {
  const app = await quoterApp({ quoter, protection: { maxUrlLength: 512 } });
  const response = await app.inject({ url: `${url}&pad=${"x".repeat(600)}` });
  assert.equal(response.statusCode, 414);
  assert.deepEqual(response.json(), uriTooLong(url.length + 605, 512).toBody(), "details name the URL's length and the limit");
  await app.close();
});

test("a path parameter over 100 characters is 400 Invalid path parameters, not 404 (semantics §2)", async () => {
  const app = await quoterApp({ quoter });
  const response = await app.inject({ url: `/quoter/${"1".repeat(101)}/0x5FbDB2315678afecb367f032d93F642f64180aa3/1?expectedPrice=1&collateralAvailable=1` });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().error, "Invalid path parameters");
  await app.close();
});

test("no request body is accepted on GET: 413", async () => {
  const app = await quoterApp({ quoter });
  const response = await app.inject({ method: "GET", url, payload: "{}", headers: { "content-type": "application/json" } });
  assert.equal(response.statusCode, 413);
  assert.deepEqual(response.json(), {
    error: "Request body not accepted",
    details: [{ param: "body", message: "a GET takes no body: send the parameters in the URL's query" }],
  });
  await app.close();
});

test("security headers on every answer", async () => {
  const app = await quoterApp({ quoter });
  for (const path of [url, "/nowhere"]) {
    const response = await app.inject({ url: path });
    assert.equal(response.headers["x-content-type-options"], "nosniff");
    assert.ok(response.headers["content-security-policy"]);
    assert.ok(response.headers["strict-transport-security"]);
    assert.equal(response.headers["x-powered-by"], undefined);
  }
  await app.close();
});
