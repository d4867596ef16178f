// The answer cache's bounds (entries and bytes, least recently used out first), keyed by block hash; the answers of
// the blocks the head left behind dropped as it moves on, and a replaced block's answers dropped.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createAnswerCache } from "../../src/service/answerCache.ts";

const hashOf = (number: number) => "0x" + String(number).padStart(2, "0").repeat(32);
const block = (number: number) => ({ number: BigInt(number), hash: hashOf(number) });
const B1 = hashOf(1);
const B6 = hashOf(6);
const B7 = hashOf(7);

describe("answer cache", () => {
  test("an answer is kept per chain, block and request", () => {
    const cache = createAnswerCache<string>({ maxEntries: 10, maxBytes: 1000 });
    cache.set(1, block(6), "q", "a", 10);
    assert.equal(cache.get(1, B6, "q"), "a");
    assert.equal(cache.get(1, B7, "q"), undefined, "another block");
    assert.equal(cache.get(2, B6, "q"), undefined, "another chain");
    assert.equal(cache.get(1, B6, "r"), undefined, "another request");
    assert.deepEqual({ hits: cache.stats.hits, misses: cache.stats.misses }, { hits: 1, misses: 3 });
  });

  test("past maxEntries or maxBytes the least recently used answers go first", () => {
    const cache = createAnswerCache<string>({ maxEntries: 3, maxBytes: 100 });
    for (const key of ["a", "b", "c"]) cache.set(1, block(1), key, key, 10);
    cache.get(1, B1, "a"); // now b is the least recently used
    cache.set(1, block(1), "d", "d", 10);
    assert.equal(cache.get(1, B1, "b"), undefined);
    assert.deepEqual(["a", "c", "d"].map((key) => cache.get(1, B1, key)), ["a", "c", "d"]);
    cache.set(1, block(1), "big", "big", 80); // 110 bytes with the others: the oldest leave until it fits
    assert.ok(cache.stats.bytes <= 100, `${cache.stats.bytes} bytes kept`);
    assert.equal(cache.get(1, B1, "big"), "big");
    assert.equal(cache.stats.entries, 3);
  });

  test("maxEntries 0, or an answer larger than maxBytes, keeps nothing", () => {
    const off = createAnswerCache<string>({ maxEntries: 0, maxBytes: 100 });
    off.set(1, block(1), "a", "a", 1);
    assert.equal(off.get(1, B1, "a"), undefined);
    const small = createAnswerCache<string>({ maxEntries: 10, maxBytes: 5 });
    small.set(1, block(1), "a", "a", 6);
    assert.equal(small.get(1, B1, "a"), undefined);
    assert.equal(small.stats.bytes, 0);
  });
});

test("the answers of replaced blocks are dropped, of that chain only; the others stay", () => {
  const cache = createAnswerCache<string>({ maxEntries: 10, maxBytes: 1000 });
  for (const key of ["a", "b"]) {
    cache.set(1, block(6), key, `${key}6`, 10);
    cache.set(1, block(7), key, `${key}7`, 10);
    cache.set(2, block(7), key, `other chain ${key}`, 10);
  }
  cache.drop(1, [B7]);
  assert.deepEqual(["a", "b"].map((key) => cache.get(1, B7, key)), [undefined, undefined]);
  assert.deepEqual(["a", "b"].map((key) => cache.get(1, B6, key)), ["a6", "b6"]);
  assert.deepEqual(["a", "b"].map((key) => cache.get(2, B7, key)), ["other chain a", "other chain b"]);
  assert.deepEqual({ entries: cache.stats.entries, bytes: cache.stats.bytes }, { entries: 4, bytes: 40 });
});

test("the answers of the blocks the head left behind go as it moves on: the newest block's and the one before are kept", () => {
  const cache = createAnswerCache<string>({ maxEntries: 100_000, maxBytes: 1 << 30 });
  for (let number = 1; number <= 1_000; number++) for (const key of ["a", "b", "c"]) cache.set(1, block(number), key, `${key}${number}`, 10);
  assert.deepEqual({ entries: cache.stats.entries, bytes: cache.stats.bytes }, { entries: 6, bytes: 60 }, "blocks 999 and 1000 only, not 3,000 answers");
  assert.deepEqual([cache.get(1, hashOf(1000), "a"), cache.get(1, hashOf(999), "b"), cache.get(1, hashOf(998), "c")], ["a1000", "b999", undefined]);
  cache.set(1, block(998), "late", "a quote that began at block 998", 10);
  assert.equal(cache.get(1, hashOf(998), "late"), undefined, "an answer at a block left behind is not kept: it is never asked again");
  cache.set(2, block(5), "a", "another chain's", 10);
  assert.equal(cache.get(2, hashOf(5), "a"), "another chain's", "each chain has its own newest block");
  assert.equal(cache.get(1, hashOf(1000), "a"), "a1000");
});

test("after the newest blocks are replaced (a head that moved back), the answers at the lower head are kept again", () => {
  const cache = createAnswerCache<string>({ maxEntries: 100, maxBytes: 1000 });
  for (const number of [5, 6, 7, 8]) cache.set(1, block(number), "q", `q${number}`, 10);
  cache.drop(1, [hashOf(7), hashOf(8)]);
  cache.set(1, { number: 6n, hash: "0x" + "ab".repeat(32) }, "q", "q at the new block 6", 10);
  assert.equal(cache.get(1, "0x" + "ab".repeat(32), "q"), "q at the new block 6");
  assert.equal(cache.stats.entries, 1);
});
