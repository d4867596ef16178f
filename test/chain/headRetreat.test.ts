// When an older head reported by the endpoints is lag and when the head moved back (semantics §11): the bound
// since the head was last confirmed, half of it with older heads reported, and enough checks of every endpoint
// that found the head gone; any confirmation in between starts it all again.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Hex } from "viem";
import type { BlockHeader } from "../../src/chain/head/blocks.ts";
import { HeadRetreat, MIN_CHECKS } from "../../src/chain/head/retreat.ts";

const header = (number: number): BlockHeader => ({ number: BigInt(number), hash: `0x${number.toString(16).padStart(64, "0")}` as Hex, parentHash: `0x${"00".repeat(32)}` as Hex, timestamp: BigInt(number) });
const BOUND = 2_000;

/** A retreat confirmed at 0, then an older head at `olderAt`, and a check every `checkEveryMs` from then until `until`. */
function checkedUntil(until: number, olderAt = 0) {
  const retreat = new HeadRetreat(BOUND, 0);
  retreat.older(header(6), olderAt);
  const decisions: { at: number; to: BlockHeader | undefined }[] = [];
  for (let at = olderAt + retreat.checkEveryMs; at <= until; at += retreat.checkEveryMs) {
    retreat.checked();
    decisions.push({ at, to: retreat.movedBackTo(at) });
  }
  return { retreat, decisions };
}

describe("the head moved back", () => {
  test("the head unconfirmed for the whole bound, older heads for half of it, and enough checks: moved back to the newest older head", () => {
    const { decisions } = checkedUntil(3_000, 500);
    const first = decisions.find((decision) => decision.to !== undefined)!;
    assert.equal(first.at, 2_000, "at the bound since the head was last confirmed");
    assert.equal(first.to?.number, 6n);
    assert.ok(decisions.filter((decision) => decision.at < 2_000).every((decision) => decision.to === undefined));
  });

  test("older heads reported only just before the bound: half the bound more, and the checks, before it is decided", () => {
    const { decisions } = checkedUntil(4_000, 1_900);
    const first = decisions.find((decision) => decision.to !== undefined)!;
    assert.ok(first.at >= 1_900 + BOUND / 2, `decided at ${first.at}`);
    assert.ok(first.at >= 1_900 + MIN_CHECKS * (BOUND / 8));
  });

  test("a confirmation in between (the head again, or a newer block, reported) starts it all again", () => {
    const retreat = new HeadRetreat(BOUND, 0);
    retreat.older(header(6), 100);
    for (let i = 0; i < MIN_CHECKS; i++) retreat.checked();
    retreat.confirmed(1_500);
    assert.equal(retreat.doubted, false);
    assert.equal(retreat.movedBackTo(2_500), undefined);
    retreat.older(header(6), 1_600);
    for (let i = 0; i < MIN_CHECKS; i++) retreat.checked();
    assert.equal(retreat.movedBackTo(3_400), undefined, "the bound counts from the last confirmation");
    assert.equal(retreat.movedBackTo(3_500)?.number, 6n);
  });

  test("without enough checks it is still lag, however long the older heads last", () => {
    const retreat = new HeadRetreat(BOUND, 0);
    retreat.older(header(6), 0);
    for (let i = 0; i < MIN_CHECKS - 1; i++) retreat.checked();
    assert.equal(retreat.movedBackTo(60_000), undefined);
  });

  test("the endpoints' head is the newest older head reported", () => {
    const retreat = new HeadRetreat(BOUND, 0);
    retreat.older(header(5), 0);
    retreat.older(header(7), 10);
    retreat.older(header(6), 20);
    for (let i = 0; i < MIN_CHECKS; i++) retreat.checked();
    assert.equal(retreat.movedBackTo(BOUND)?.number, 7n);
  });
});
