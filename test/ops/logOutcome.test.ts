// The quote's log line says the outcome its answer carries: "ok" for a 200, else the `error` of the body sent,
// whichever layer refused (the protection hooks, the rate limit, the parser, the service, a bug).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { buildApp } from "../../src/http/app.ts";
import type { Quoter } from "../../src/service/api.ts";
import { createLogger } from "../../src/observability/logger.ts";
import { marketNotFound } from "../../src/quote/quoteErrors.ts";
import type { QuoteResponseBody } from "../../src/quote/quoteAnswer.ts";

const MARKET = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const url = (marketId: string, extra = "") => `/quoter/1/${MARKET}/${marketId}?expectedPrice=2&collateralAvailable=1${extra}`;

const ANSWER: QuoteResponseBody = {
  direction: "LONG",
  maxSize: "1",
  currentPrice: "1",
  expectedPrice: "2",
  collateralAvailable: "1",
  requiredCollateral: "1",
  maxCollateral: "1",
  fillPrice: "1",
  priceAfter: "1",
  limitedBy: "expectedPrice",
  blockNumber: "6",
  blockHash: `0x${"66".repeat(32)}`,
  iterations: 1,
  collateralDecimals: 18,
};

// Market 1 answers, market 2 is not found, market 3 is a bug: no chain is needed to see the log lines.
const quoter: Quoter = {
  quote: async (request) => {
    if (request.marketId === 1n) return ANSWER;
    if (request.marketId === 2n) throw marketNotFound();
    throw new Error("a bug");
  },
};

test("the outcome of each quote's line is the error its answer carries", async () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  const app = buildApp({ quoter, logger: createLogger({ level: "info", stream }), protection: { rateLimitMax: 6, maxUrlLength: 300 } });
  const cases: [string, { url: string; method?: "GET" | "HEAD"; payload?: string }][] = [
    ["ok", { url: url("1") }],
    ["ok-head", { url: url("1"), method: "HEAD" }],
    ["not-found", { url: url("2") }],
    ["not-found-head", { url: url("2"), method: "HEAD" }],
    ["bug", { url: url("3") }],
    ["invalid", { url: url("x") }],
    ["long", { url: url("1", `&pad=${"x".repeat(300)}`) }],
    ["body", { url: url("1"), payload: "{}" }],
    ["limited", { url: url("1") }],
  ];
  const answers = new Map<string, { status: number; error: string }>();
  for (const [id, request] of cases) {
    const response = await app.inject({ ...request, headers: { "x-request-id": id, ...(request.payload ? { "content-type": "application/json" } : {}) } });
    const error = response.body === "" ? undefined : (response.json() as { error?: string }).error;
    answers.set(id, { status: response.statusCode, error: response.statusCode === 200 ? "ok" : (error ?? "") });
  }
  await app.close();
  const quoteLines = new Map(lines.filter((line) => line.msg === "quote").map((line) => [line.reqId as string, line]));
  assert.deepEqual(
    cases.map(([id]) => [id, quoteLines.get(id)?.status, quoteLines.get(id)?.outcome]),
    [
      ["ok", 200, "ok"],
      ["ok-head", 200, "ok"],
      ["not-found", 404, "Market not found"],
      ["not-found-head", 404, "Market not found"],
      ["bug", 500, "Internal server error"],
      ["invalid", 400, "Invalid path parameters"],
      ["long", 414, "URI too long"],
      ["body", 413, "Request body not accepted"],
      ["limited", 429, "Too many requests"],
    ],
  );
  for (const [id, { status, error }] of answers) {
    if (error !== "") assert.equal(quoteLines.get(id)?.outcome, error, `${id} (${status}): the line says what the body says`);
  }
});
