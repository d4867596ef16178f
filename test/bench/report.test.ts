// The bench's summary of the search=exact workload: candidates and requests count over the answers of 200 only.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { summarizeExact, type ExactQuote } from "../../bench/report.ts";

const quote = (marketId: number, status: number, iterations?: number, rpcRequests = 1): ExactQuote => ({
  marketId,
  expectedPrice: "0.55",
  collateralAvailable: "1000",
  note: marketId === 1 ? "deep, LONG" : "shallow, SHORT",
  status,
  iterations,
  exact: status === 200 ? iterations! < 32 : undefined,
  rpcRequests,
});

describe("bench report: the exact workload's summary", () => {
  test("per market then all; median (nearest rank) and max over the 200s; other statuses counted", () => {
    const summary = summarizeExact([
      quote(1, 200, 7, 8),
      quote(1, 200, 32, 33),
      quote(1, 200, 5, 6),
      quote(2, 400, undefined, 4),
      quote(2, 200, 4, 1),
    ]);
    assert.deepEqual(
      summary.map((s) => [s.label, s.quotes, s.ok, s.exactTrue, s.otherStatuses, s.candidates, s.rpcRequests]),
      [
        ["market 1 (deep)", 3, 3, 2, {}, { median: 7, max: 32 }, { median: 8, max: 33 }],
        ["market 2 (shallow)", 2, 1, 1, { 400: 1 }, { median: 4, max: 4 }, { median: 1, max: 1 }],
        ["all", 5, 4, 3, { 400: 1 }, { median: 5, max: 32 }, { median: 6, max: 33 }],
      ],
    );
  });
});
