// The OpenAPI document at /quoter/openapi.json: a valid OpenAPI 3.1 document, generated from the route
// schemas, listing every status with its messages, whose examples are true on the demo chain, and whose
// response schemas accept what the server really answers, for a success and each error status.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { FastifyInstance } from "fastify";
import { quoterApp, startQuoterHarness, type QuoterAppOptions, type QuoterHarness } from "../support/quoterHarness.ts";
import { closedPort } from "../support/closedPort.ts";
import { deployPricelessMarketGroup } from "../support/pricelessMarketGroup.ts";
import { MESSAGES } from "../../src/quote/quoteErrors.ts";
import { LIMITED_BY } from "../../src/quote/limitedBy.ts";
import { HTTP_MESSAGES, methodNotAllowed } from "../../src/http/httpErrors.ts";
import { positionParamsSchema, positionQuerySchema, quoteParamsSchema, quoteQuerySchema } from "../../src/http/schemas.ts";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";

const QUOTE_PATH = "/quoter/{chainId}/{marketAddress}/{marketId}";

type Json = any;
type Answer = { status: number; body: Json; headers: Record<string, unknown> };

let h: QuoterHarness;
let doc: Json;

before(async () => {
  h = await startQuoterHarness();
  const response = await h.get("/quoter/openapi.json");
  assert.equal(response.status, 200);
  doc = response.body;
});
after(() => h.close());

// OpenAPI 3.1 Schema Objects are JSON Schema 2020-12 plus a few OpenAPI keywords, and the document's one extension
// (x-enumDescriptions: what each value of an enum means, as Redoc shows it).
const ajv = new Ajv2020({ strict: true, allErrors: true });
for (const keyword of ["example", "discriminator", "xml", "externalDocs", "x-enumDescriptions"]) ajv.addKeyword(keyword);

function operation(method: string): Json {
  const found = doc.paths[QUOTE_PATH]?.[method];
  assert.ok(found, `the document has ${method.toUpperCase()} ${QUOTE_PATH}`);
  return found;
}

/** The documented response for a status: its own entry, else its range (4XX, 5XX). */
function documentedResponse(method: string, status: number): Json {
  const responses = operation(method).responses;
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
  assert.ok(response, `${method.toUpperCase()} documents status ${status}`);
  return response;
}

/** Asserts the answer matches the document: status listed, JSON body valid against its schema, headers present. */
function assertDocumented(method: string, answer: Answer): void {
  const response = documentedResponse(method, answer.status);
  const media = response.content?.["application/json"];
  assert.ok(media?.schema, `status ${answer.status} documents a JSON body`);
  const check = ajv.compile(media.schema);
  assert.ok(check(answer.body), `${answer.status} ${JSON.stringify(answer.body)}: ${ajv.errorsText(check.errors)}`);
  for (const name of Object.keys(response.headers ?? {})) {
    assert.ok(answer.headers[name.toLowerCase()] !== undefined, `status ${answer.status} sends the documented ${name} header`);
  }
}

async function inject(app: FastifyInstance, url: string, method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS" = "GET"): Promise<Answer> {
  const response = await app.inject({ method, url });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

/** An app of its own answers `count` identical quote requests; the last answer. */
async function answerOfOwnApp(options: QuoterAppOptions, count = 1): Promise<Answer> {
  const app = await quoterApp(options);
  try {
    const url = h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE });
    let answer = await inject(app, url);
    for (let i = 1; i < count; i++) answer = await inject(app, url);
    return answer;
  } finally {
    await app.close();
  }
}

/** Every named example of every operation (a quote's errors are also the batch's and the ladder's). */
function* namedExamples(): Generator<{ method: string; status: string; name: string; example: Json; schema: Json }> {
  for (const [method, op] of Object.values<Json>(doc.paths).flatMap((path) => Object.entries<Json>(path))) {
    for (const [status, response] of Object.entries<Json>(op.responses)) {
      const media = response.content?.["application/json"];
      for (const [name, example] of Object.entries<Json>(media?.examples ?? {})) {
        yield { method, status, name, example, schema: media.schema };
      }
    }
  }
}

/** A held position's quote in the document (semantics §13). */
const POSITION_DOC_PATH = "/quoter/{chainId}/{marketAddress}/positions/{positionId}";

describe("the document", () => {
  test("has the held position's quote: its parameters the position schemas' (positionId, a budget of 0), its own errors as examples", () => {
    const get = doc.paths[POSITION_DOC_PATH]?.get;
    assert.equal(get?.operationId, "getPositionQuote");
    const names = (place: string) => (get.parameters as Json[]).filter((p) => p.in === place).map((p) => p.name).sort();
    assert.deepEqual(names("path"), Object.keys(positionParamsSchema.properties).sort());
    assert.deepEqual(names("query"), Object.keys(positionQuerySchema.properties).sort());
    assert.ok(names("path").includes("positionId") && !names("path").includes("marketId"));
    const errors = (status: string) => Object.values<Json>(get.responses[status].content["application/json"].examples).map((e) => e.value.error);
    for (const message of [MESSAGES.notTraderPosition, MESSAGES.takerNotOwner, MESSAGES.marketSettled]) assert.ok(errors("400").includes(message), message);
    assert.ok(errors("404").includes(MESSAGES.positionNotFound));
  });

  test("has the liquidity quote (semantics §14): its query rows in order, its answer's fields in §14's order, its own errors as examples", () => {
    const get = doc.paths[`${QUOTE_PATH}/liquidity`]?.get;
    assert.equal(get?.operationId, "getLiquidityQuote");
    const query = (get.parameters as Json[]).filter((p) => p.in === "query").map((p) => p.name);
    assert.deepEqual(query, ["collateralAvailable", "lowerPrice", "upperPrice", "trace", "minBlock", "taker", "slippageBps", "deadlineSeconds"]);
    const fields = Object.keys(get.responses["200"].content["application/json"].schema.properties);
    assert.deepEqual(fields, [
      "lowerTick", "upperTick", "lowerPrice", "upperPrice", "currentPrice", "liquidity", "mintedLiquidity", "amountBaseToken", "amountQuoteToken",
      "requiredCollateral", "maxCollateral", "collateralAvailable", "groupQuote", "candidates", "exact", "blockNumber", "blockHash", "collateralDecimals", "trace", "trade",
    ]);
    const errors = Object.values<Json>(get.responses["400"].content["application/json"].examples).map((e) => e.value.error);
    for (const message of [MESSAGES.invalidQuery, MESSAGES.insufficientCollateralForRange, MESSAGES.marketSettled]) assert.ok(errors.includes(message), message);
  });

  test("is a valid OpenAPI 3.1 document (@readme/openapi-parser)", async () => {
    assert.equal(doc.openapi, "3.1.0");
    const result = await validate(structuredClone(doc));
    assert.ok(result.valid, compileErrors(result));
  });

  test("is the one served by the docs page too", async () => {
    assert.deepEqual((await h.get("/quoter/docs/json")).body, doc);
  });

  test("is generated from the route schemas: the parameters are the schemas' own", () => {
    const parameters = operation("get").parameters as Json[];
    const byPlace = (place: string) => parameters.filter((p) => p.in === place);
    assert.deepEqual(byPlace("path").map((p) => p.name).sort(), Object.keys(quoteParamsSchema.properties).sort());
    assert.deepEqual(byPlace("query").map((p) => p.name).sort(), Object.keys(quoteQuerySchema.properties).sort());
    for (const p of parameters) {
      const source: Json = p.in === "path" ? quoteParamsSchema : quoteQuerySchema;
      assert.equal(p.required, source.required.includes(p.name), `${p.name} required`);
      assert.equal(p.schema.pattern, source.properties[p.name].pattern, `${p.name} pattern`);
      assert.ok(p.description && p.example !== undefined, `${p.name} has a description and an example`);
    }
    // The quote operation, the batch of quotes, the depth ladder, and the index that leads to them: the docs, the
    // document and the explorer are pages.
    assert.deepEqual(Object.keys(doc.paths), [QUOTE_PATH, POSITION_DOC_PATH, `${QUOTE_PATH}/liquidity`, "/quoter/{chainId}/batch", `${QUOTE_PATH}/depth`, "/quoter"]);
    const depth = (doc.paths[`${QUOTE_PATH}/depth`] as Json).get;
    assert.equal(depth.operationId, "getDepth");
    const depthQuery = (depth.parameters as Json[]).filter((p) => p.in === "query");
    assert.deepEqual(depthQuery.map((p) => p.name), ["collateralAvailable", "prices", "to", "levels", "minBlock", "taker", "slippageBps", "deadlineSeconds"]);
    assert.deepEqual(depthQuery.filter((p) => p.required).map((p) => p.name), ["collateralAvailable"]);
  });

  test("lists every status of the interface and semantics §6, with each message as a named example", () => {
    const expected: Array<[string, string, string]> = [
      ["get", "400", MESSAGES.invalidQuery],
      ["get", "400", MESSAGES.invalidPath],
      ["get", "400", MESSAGES.expectedPriceNotPositive],
      ["get", "400", MESSAGES.expectedPriceEqualsCurrent],
      ["get", "400", MESSAGES.marketSettled],
      ["get", "400", MESSAGES.noValidSize],
      ["get", "400", MESSAGES.insufficientLiquidity],
      ["get", "404", MESSAGES.marketNotFound],
      ["get", "404", MESSAGES.currentPriceNotFound],
      ["get", "429", HTTP_MESSAGES.tooManyRequests],
      ["get", "500", MESSAGES.internal],
      ["get", "503", MESSAGES.rpcUnavailable],
      ["get", "4XX", HTTP_MESSAGES.uriTooLong],
      ["get", "4XX", HTTP_MESSAGES.methodNotAllowed],
    ];
    const examples = [...namedExamples()];
    for (const [method, status, message] of expected) {
      assert.ok(
        examples.some((e) => e.method === method && e.status === status && e.example.value.error === message && e.example.summary),
        `${method.toUpperCase()} ${status} has a named example for "${message}"`,
      );
    }
    assert.ok(examples.some((e) => e.status === "200" && e.example.value.direction === "SHORT"), "a SHORT success example");
    assert.ok(examples.some((e) => e.status === "200" && Array.isArray(e.example.value.trace)), "a success example with a trace");
    assert.match(operation("get").responses["404"].description, /Not found/, "unknown paths are described under 404");
    // The methods that only answer 405 are not operations of their own: the GET operation says what they answer.
    assert.deepEqual(Object.keys(doc.paths[QUOTE_PATH]), ["get"]);
    assert.match(operation("get").description, /POST, PUT, DELETE, PATCH, OPTIONS\) answers 405 `Method not allowed` with `Allow: GET, HEAD`/);
    assert.ok(operation("get").responses["503"].headers["Retry-After"]);
    assert.ok(operation("get").responses["429"].headers["Retry-After"]);
    // Every operation states what any route answers (the rate limit, a bug, the HTTP layer's refusals); the batch,
    // the one route with a body, its 413 and 415 too.
    for (const [path, methods] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(methods)) {
        for (const status of ["429", "500", "4XX"]) assert.ok(op.responses[status], `${method.toUpperCase()} ${path} documents ${status}`);
      }
    }
    const batch = doc.paths["/quoter/{chainId}/batch"].post.responses;
    assert.deepEqual([batch["413"], batch["415"]].map((response: Json) => Object.values<Json>(response.content["application/json"].examples)[0].value.error), [
      HTTP_MESSAGES.bodyTooLarge,
      HTTP_MESSAGES.unsupportedMediaType,
    ]);
  });

  test("every example is valid against its own response schema", () => {
    let count = 0;
    for (const { method, status, name, example, schema } of namedExamples()) {
      const check = ajv.compile(schema);
      assert.ok(check(example.value), `${method} ${status} ${name}: ${ajv.errorsText(check.errors)}`);
      count++;
    }
    assert.ok(count >= 18, `${count} examples`);
  });

  test("every example that names a request is exactly what the demo chain answers to it", async () => {
    let replayed = 0;
    for (const { status, name, example } of namedExamples()) {
      const request = /^GET (\/\S+)$/.exec(example.description ?? "");
      if (!request) continue;
      const answer = await h.get(request[1]!);
      assert.equal(String(answer.status), status, `${name}: ${request[1]} -> ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer.body, example.value, name);
      replayed++;
    }
    assert.ok(replayed >= 10, `${replayed} examples replayed`);
  });
});

describe("what the server really answers matches the document", () => {
  const answers: Array<[string, () => string]> = [
    ["200 LONG", () => h.quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND })],
    ["200 SHORT with trace", () => h.quotePath(1, { expectedPrice: "0.45", collateralAvailable: THOUSAND, trace: "true" })],
    ["200 with a priceLimit", () => h.quotePath(2, { expectedPrice: "1030", priceLimit: "1010", collateralAvailable: THOUSAND, trace: "true" })],
    ["200 with taker: its trade", () => h.quotePath(2, { expectedPrice: "1030", collateralAvailable: THOUSAND, taker: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" })],
    ["200 with taker and trace", () => h.quotePath(1, { expectedPrice: "0.45", collateralAvailable: THOUSAND, trace: "true", taker: "0x0000000000000000000000000000000000000001", slippageBps: "0" })],
    ["400 Invalid query parameters", () => h.quotePath(1, { expectedPrice: ".5", collateralAvailable: "0", maxIterations: "11" })],
    ["400 Invalid path parameters", () => `/quoter/0/0x12/x?expectedPrice=0.6&collateralAvailable=${ONE}`],
    ["400 Expected price must be greater than 0", () => h.quotePath(1, { expectedPrice: "-1", collateralAvailable: ONE })],
    ["400 Expected price must be different", () => h.quotePath(2, { expectedPrice: "1000", collateralAvailable: ONE })],
    ["400 Market is settled", () => h.quotePath(3, { expectedPrice: "0.6", collateralAvailable: ONE })],
    ["400 Could not find a valid position size, with trace", () => h.quotePath(2, { expectedPrice: "1010", priceLimit: "1020", collateralAvailable: THOUSAND, trace: "true" })],
    ["400 Insufficient liquidity, with trace", () => h.quotePath(4, { expectedPrice: "0.59", collateralAvailable: ONE, trace: "true" })],
    ["404 Market not found", () => h.quotePath(99, { expectedPrice: "0.6", collateralAvailable: ONE })],
    ["404 Market not found for a chain with no RPC", () => `/quoter/1/${h.devchain.marketGroup}/1?expectedPrice=0.6&collateralAvailable=${ONE}`],
    ["414 URI too long (the 4XX range)", () => h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE, pad: "x".repeat(3000) })],
  ];
  for (const [name, path] of answers) {
    test(name, async () => {
      const answer = await h.get(path());
      assert.equal(answer.status, Number(name.slice(0, 3)), JSON.stringify(answer.body));
      assertDocumented("get", answer);
    });
  }

  test("413 a GET with a body (the 4XX range), as its example says", async () => {
    const response = await h.app.inject({ method: "GET", url: h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE }), payload: "x" });
    const answer = { status: response.statusCode, body: response.json(), headers: response.headers };
    assert.equal(answer.status, 413);
    assertDocumented("get", answer);
    assert.deepEqual(answer.body, operation("get").responses["4XX"].content["application/json"].examples.bodyNotAccepted.value);
  });

  test("404 Current price not found", async () => {
    const { address, blockNumber } = await deployPricelessMarketGroup(h.devchain.chain);
    const answer = await h.get(`/quoter/31337/${address}/1?expectedPrice=0.6&collateralAvailable=${ONE}&minBlock=${blockNumber}`);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error, MESSAGES.currentPriceNotFound);
    assertDocumented("get", answer);
  });

  test("405 Method not allowed, for each method the GET operation's description names (the 4XX range)", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const) {
      const answer = await inject(h.app, h.quotePath(1, { expectedPrice: "0.6", collateralAvailable: ONE }), method);
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.allow, "GET, HEAD");
      assertDocumented("get", answer);
      const path = h.quotePath(1, {}).split("?")[0]!;
      assert.deepEqual(answer.body, methodNotAllowed(method, path, ["GET", "HEAD"]).toBody());
      const documented = operation("get").responses["4XX"].content["application/json"].examples.methodNotAllowed.value;
      if (method === "POST") assert.deepEqual(answer.body, documented, "the documented example is the answer to a POST");
    }
  });

  test("the index at /quoter matches its documented schema and example", async () => {
    const index = doc.paths["/quoter"].get;
    const answer = await h.get("/quoter");
    assert.equal(answer.status, 200);
    const media = index.responses["200"].content["application/json"];
    const check = ajv.compile(media.schema);
    assert.ok(check(answer.body), ajv.errorsText(check.errors));
    assert.deepEqual(answer.body, media.examples.demo.value, "the example is what the demo chain's service answers");
  });

  const failing = { quote: async () => { throw new TypeError("a bug"); } };

  test("429 Too many requests, with Retry-After", async () => {
    const answer = await answerOfOwnApp({ quoter: failing, protection: { rateLimitMax: 1 } }, 2);
    assert.equal(answer.status, 429, JSON.stringify(answer.body));
    assert.equal(answer.body.error, HTTP_MESSAGES.tooManyRequests);
    assertDocumented("get", answer);
  });

  test("500 Internal server error", async () => {
    const answer = await answerOfOwnApp({ quoter: failing });
    assert.equal(answer.status, 500);
    assertDocumented("get", answer);
  });

  test("503 Chain RPC unavailable, with Retry-After", async () => {
    const answer = await answerOfOwnApp({ rpc: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 2_000 });
    assert.equal(answer.status, 503);
    assertDocumented("get", answer);
  });

  test("the schemas are strict enough to catch a wrong body", () => {
    const success = ajv.compile(documentedResponse("get", 200).content["application/json"].schema);
    assert.equal(success({ direction: "LONG" }), false, "missing fields");
    const schema = documentedResponse("get", 200).content["application/json"];
    const long = schema.examples.long.value;
    assert.equal(success(long), true);
    assert.equal(success({ ...long, limitedBy: "budget" }), false, "a limitedBy the document does not list");
    const { limitedBy: _limitedBy, ...withoutReason } = long;
    assert.equal(success(withoutReason), false, "no limitedBy");
    // Each value of limitedBy the service gives is listed, each with what it means.
    assert.deepEqual(schema.schema.properties.limitedBy.enum, LIMITED_BY);
    assert.deepEqual(Object.keys(schema.schema.properties.limitedBy["x-enumDescriptions"]), LIMITED_BY);
    const error = ajv.compile(documentedResponse("get", 400).content["application/json"].schema);
    assert.equal(error({ error: "x", details: [{ param: "p", message: "m" }], statusCode: 400 }), false, "an undocumented field");
    assert.equal(error({ message: "x", details: [{ param: "p", message: "m" }] }), false, "no error field");
    assert.equal(error({ error: "x" }), false, "no details");
    assert.equal(error({ error: "x", details: [] }), false, "no detail in details");
  });
});
