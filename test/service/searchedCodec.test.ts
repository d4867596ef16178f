// What one replica hands another through Redis reads back as the same answer: the body, or the quote error with
// its kind, details and extra fields (the user's body and status come from those), and the search's facts. Text
// that is not such an answer (another version's, damaged) reads as none, so that the reader searches itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { QuoteError, insufficientLiquidity, marketSettled, noValidSize } from "../../src/quote/quoteErrors.ts";
import type { QuoteResponseBody } from "../../src/quote/quoteAnswer.ts";
import { err, ok } from "../../src/quote/result.ts";
import type { Searched } from "../../src/service/answerAtBlock.ts";
import { decodeSearched, encodeSearched } from "../../src/service/replicas/searchedCodec.ts";

const body: QuoteResponseBody = {
  direction: "SHORT",
  maxSize: "-45898437500000000",
  currentPrice: "1000",
  expectedPrice: "970",
  collateralAvailable: "1000000000000000000000",
  requiredCollateral: "23764940199135258254",
  maxCollateral: "23764940",
  fillPrice: "985.1",
  priceAfter: "970.000000000000000001",
  limitedBy: "collateral",
  blockNumber: "18446744073709551617",
  blockHash: `0x${"ab".repeat(32)}`,
  iterations: 7,
  collateralDecimals: 6,
  exact: false,
  upperBound: "45898437500000001",
  trace: [],
};

const roundTrip = (searched: Searched) => decodeSearched(encodeSearched(searched));

test("a 200 body and its facts read back as they were, a block number past 2^64 included", () => {
  const searched: Searched = { answer: ok(body), facts: { blockNumber: 2n ** 64n + 1n, direction: "SHORT", candidates: 7 } };
  assert.deepEqual(roundTrip(searched), searched);
});

test("a quote error reads back with its kind, message, details, extra fields and body", () => {
  const errors: QuoteError[] = [
    noValidSize({ details: [{ param: "expectedPrice", message: "the smallest size moves it past 1000.0000000000000001" }], extra: { trace: [{ size: "1", ok: false }] } }),
    insufficientLiquidity(),
    marketSettled(),
  ];
  for (const error of errors) {
    const searched: Searched = { answer: err(error), facts: { blockNumber: 6n, stoppedBy: "MarketSettled" } };
    const back = roundTrip(searched);
    assert.ok(back !== undefined && !back.answer.ok);
    const read = back.answer.error;
    assert.ok(read instanceof QuoteError);
    assert.equal(read.kind, error.kind);
    assert.equal(read.message, error.message);
    assert.deepEqual(read.details, error.details);
    assert.deepEqual(read.toBody(), error.toBody());
    assert.deepEqual(back.facts, searched.facts);
  }
});

test("text that is not an answer of this version reads as none", () => {
  const good = encodeSearched({ answer: ok(body), facts: { blockNumber: 6n } });
  for (const text of [
    "",
    "not json",
    "null",
    "[]",
    // The version before limitedBy: its bodies lack a field every 200 of this one carries.
    good.replace('"v":2', '"v":1'),
    good.replace('"v":2', '"v":3'),
    good.replace('"blockNumber":"6"', '"blockNumber":"-6"'),
    JSON.stringify({ v: 2, facts: { blockNumber: "6" } }),
    JSON.stringify({ v: 2, error: { kind: "noSuchKind", details: [] }, facts: { blockNumber: "6" } }),
    JSON.stringify({ v: 2, error: { kind: "marketSettled" }, facts: { blockNumber: "6" } }),
  ]) {
    assert.equal(decodeSearched(text), undefined, text);
  }
});
