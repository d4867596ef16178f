// Where the service's warnings go: to the logger a quote was given (its lines carry the request id), else to the
// service's own; to none when there is neither. Both loggers here are the service's pino loggers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { createLogger } from "../../src/observability/logger.ts";
import { warningsTo } from "../../src/service/warnings.ts";

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

test("warnings go to the logger they are sent to, with its bindings (a request's id)", () => {
  const service = jsonLogger();
  const request = jsonLogger();
  warningsTo(request.logger.child({ reqId: "r1" }))({ chainId: 1 }, "the quote's");
  warningsTo(service.logger)({ chainId: 3 }, "the service's");
  assert.deepEqual(request.lines, [["the quote's", 1, "r1"]]);
  assert.deepEqual(service.lines, [["the service's", 3, undefined]]);
});

test("with no logger at all, a warning goes nowhere", () => {
  assert.doesNotThrow(() => warningsTo()({ chainId: 1 }, "dropped"));
});
