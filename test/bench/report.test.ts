// The bench's summary of the search=exact workload: candidates and requests count over the answers of 200 only.
// Its timings: medians and how far past a bound, and a note wherever an answer was not the set-up's.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { summarizeExact, timingRows, type ExactQuote, type Timed, type Timings } from "../../bench/report.ts";

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

const timed = (status: number, ms: number): Timed => ({ status, ms });
const timings = (overrides: Partial<Timings> = {}): Timings => ({
  devchain: { listeningMs: 1000, chainIdMs: 1010, getMarketMs: 1030 },
  deadline: { deadlineMs: 400, delayMs: 150, samples: [timed(503, 410), timed(503, 402), timed(503, 430)] },
  queue: {
    maxInFlight: 1,
    maxQueued: 1,
    delayMs: 200,
    quotesAtOnce: 4,
    samples: [timed(200, 210), timed(200, 420), timed(503, 5), timed(503, 7)],
  },
  ready: { readyTimeoutMs: 500, samples: [timed(503, 501), timed(503, 509)] },
  ...overrides,
});

describe("bench report: the timings", () => {
  test("median (nearest rank), range and how far past the bound; no note when every answer is the set-up's", () => {
    const rows = timingRows(timings());
    assert.deepEqual(rows.map((row) => row.note), [undefined, undefined, undefined, undefined]);
    assert.match(rows[0]!.measured, /listening line at 1000\.0 ms; eth_chainId answered at 1010\.0 ms, getMarket\(1\) at 1030\.0 ms/);
    assert.match(rows[1]!.measured, /503 after 410\.0 ms median \(402\.0–430\.0 over 3 quotes\); past the deadline, ms: median 10\.0, most 30\.0/);
    assert.match(rows[2]!.measured, /refused \(503\) after 5\.0 ms median \(5\.0–7\.0 over 2 refused\).*210\.0–420\.0 ms/);
    assert.match(rows[3]!.measured, /503 after 501\.0 ms median \(501\.0–509\.0 over 2 checks\); past the timeout, ms: median 1\.0, most 9\.0/);
  });

  test("an answer that is not the set-up's is noted, and left out of the times", () => {
    const rows = timingRows(
      timings({
        deadline: { deadlineMs: 400, delayMs: 150, samples: [timed(200, 2300), timed(503, 404)] },
        queue: { maxInFlight: 1, maxQueued: 1, delayMs: 200, quotesAtOnce: 4, samples: [timed(200, 210), timed(200, 420), timed(200, 630), timed(503, 5)] },
        ready: { readyTimeoutMs: 500, samples: [timed(200, 3)] },
      }),
    );
    assert.equal(rows[1]!.note, "1 of 2 answered 1 × 200, not 503");
    assert.match(rows[1]!.measured, /503 after 404\.0 ms median \(404\.0–404\.0 over 1 quotes\)/);
    assert.equal(rows[2]!.note, "1 of 4 refused, 3 answered 200, 0 otherwise; expected 2 refused");
    assert.equal(rows[3]!.note, "1 of 1 answered 1 × 200, not 503");
    assert.match(rows[3]!.measured, /503 after no checks; past the timeout, ms: n\/a/);
  });
});
