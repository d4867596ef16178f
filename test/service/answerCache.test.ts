// The answer cache's bounds (entries and bytes, least recently used out first), keyed by block hash, and a
// replaced block's answers dropped.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createAnswerCache } from "../../src/service/answerCache.ts";

const B1 = "0x" + "11".repeat(32);
const B6 = "0x" + "66".repeat(32);
const B7 = "0x" + "77".repeat(32);

describe("answer cache", () => {
  test("an answer is kept per chain, block and request", () => {
    const cache = createAnswerCache<string>({ maxEntries: 10, maxBytes: 1000 });
    cache.set(1, B6, "q", "a", 10);
    assert.equal(cache.get(1, B6, "q"), "a");
    assert.equal(cache.get(1, B7, "q"), undefined, "another block");
    assert.equal(cache.get(2, B6, "q"), undefined, "another chain");
    assert.equal(cache.get(1, B6, "r"), undefined, "another request");
    assert.deepEqual({ hits: cache.stats.hits, misses: cache.stats.misses }, { hits: 1, misses: 3 });
  });

  test("past maxEntries or maxBytes the least recently used answers go first", () => {
    const cache = createAnswerCache<string>({ maxEntries: 3, maxBytes: 100 });
    for (const key of ["a", "b", "c"]) cache.set(1, B1, key, key, 10);
    cache.get(1, B1, "a"); // now b is the least recently used
    cache.set(1, B1, "d", "d", 10);
    assert.equal(cache.get(1, B1, "b"), undefined);
    assert.deepEqual(["a", "c", "d"].map((key) => cache.get(1, B1, key)), ["a", "c", "d"]);
    cache.set(1, B1, "big", "big", 80); // 110 bytes with the others: the oldest leave until it fits
    assert.ok(cache.stats.bytes <= 100, `${cache.stats.bytes} bytes kept`);
    assert.equal(cache.get(1, B1, "big"), "big");
    assert.equal(cache.stats.entries, 3);
  });

  test("maxEntries 0, or an answer larger than maxBytes, keeps nothing", () => {
    const off = createAnswerCache<string>({ maxEntries: 0, maxBytes: 100 });
    off.set(1, B1, "a", "a", 1);
    assert.equal(off.get(1, B1, "a"), undefined);
    const small = createAnswerCache<string>({ maxEntries: 10, maxBytes: 5 });
    small.set(1, B1, "a", "a", 6);
    assert.equal(small.get(1, B1, "a"), undefined);
    assert.equal(small.stats.bytes, 0);
  });
});

test("the answers of replaced blocks are dropped, of that chain only; the others stay", () => {
  const cache = createAnswerCache<string>({ maxEntries: 10, maxBytes: 1000 });
  for (const key of ["a", "b"]) {
    cache.set(1, B6, key, `${key}6`, 10);
    cache.set(1, B7, key, `${key}7`, 10);
    cache.set(2, B7, key, `other chain ${key}`, 10);
  }
  cache.drop(1, [B7]);
  assert.deepEqual(["a", "b"].map((key) => cache.get(1, B7, key)), [undefined, undefined]);
  assert.deepEqual(["a", "b"].map((key) => cache.get(1, B6, key)), ["a6", "b6"]);
  assert.deepEqual(["a", "b"].map((key) => cache.get(2, B7, key)), ["other chain a", "other chain b"]);
  assert.deepEqual({ entries: cache.stats.entries, bytes: cache.stats.bytes }, { entries: 4, bytes: 40 });
});
