// Where the service's warnings go: to the logger of the quote running (its lines carry the request id), else
// to the service's own; to none when there is neither. Both loggers here are the service's pino loggers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { createLogger } from "../../src/observability/logger.ts";
import { newQuoteStats, runWithQuoteStats } from "../../src/observability/quoteStats.ts";
import { quoteWarnings } from "../../src/service/warnings.ts";

/** A pino logger whose lines land in `lines` as [msg, chainId, reqId]. */
function jsonLogger() {
  const lines: unknown[][] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of chunk.toString().split("\n").filter(Boolean)) {
        const line = JSON.parse(text);
        lines.push([line.msg, line.chainId, line.reqId]);
      }
      done();
    },
  });
  return { logger: createLogger({ level: "warn", stream }), lines };
}

test("inside a quote with a logger: the quote's; inside one without, or outside any: the service's", () => {
  const service = jsonLogger();
  const request = jsonLogger();
  const warn = quoteWarnings(service.logger);
  runWithQuoteStats(newQuoteStats(request.logger.child({ reqId: "r1" })), () => warn({ chainId: 1 }, "inside"));
  runWithQuoteStats(newQuoteStats(), () => warn({ chainId: 2 }, "inside, no logger of its own"));
  warn({ chainId: 3 }, "outside");
  assert.deepEqual(request.lines, [["inside", 1, "r1"]]);
  assert.deepEqual(service.lines, [
    ["inside, no logger of its own", 2, undefined],
    ["outside", 3, undefined],
  ]);
});

test("with no logger at all, a warning goes nowhere", () => {
  assert.doesNotThrow(() => quoteWarnings()({ chainId: 1 }, "dropped"));
});
