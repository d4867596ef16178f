// The answer cache's bounds (entries and bytes, least recently used out first) and the head tracker's freshness.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createAnswerCache } from "../../src/service/answerCache.ts";
import { createHeadTracker } from "../../src/service/headTracker.ts";

describe("answer cache", () => {
  test("an answer is kept per chain, block and request", () => {
    const cache = createAnswerCache<string>({ maxEntries: 10, maxBytes: 1000 });
    cache.set(1, 6n, "q", "a", 10);
    assert.equal(cache.get(1, 6n, "q"), "a");
    assert.equal(cache.get(1, 7n, "q"), undefined, "another block");
    assert.equal(cache.get(2, 6n, "q"), undefined, "another chain");
    assert.equal(cache.get(1, 6n, "r"), undefined, "another request");
    assert.deepEqual({ hits: cache.stats.hits, misses: cache.stats.misses }, { hits: 1, misses: 3 });
  });

  test("past maxEntries or maxBytes the least recently used answers go first", () => {
    const cache = createAnswerCache<string>({ maxEntries: 3, maxBytes: 100 });
    for (const key of ["a", "b", "c"]) cache.set(1, 1n, key, key, 10);
    cache.get(1, 1n, "a"); // now b is the least recently used
    cache.set(1, 1n, "d", "d", 10);
    assert.equal(cache.get(1, 1n, "b"), undefined);
    assert.deepEqual(["a", "c", "d"].map((key) => cache.get(1, 1n, key)), ["a", "c", "d"]);
    cache.set(1, 1n, "big", "big", 80); // 110 bytes with the others: the oldest leave until it fits
    assert.ok(cache.stats.bytes <= 100, `${cache.stats.bytes} bytes kept`);
    assert.equal(cache.get(1, 1n, "big"), "big");
    assert.equal(cache.stats.entries, 3);
  });

  test("maxEntries 0, or an answer larger than maxBytes, keeps nothing", () => {
    const off = createAnswerCache<string>({ maxEntries: 0, maxBytes: 100 });
    off.set(1, 1n, "a", "a", 1);
    assert.equal(off.get(1, 1n, "a"), undefined);
    const small = createAnswerCache<string>({ maxEntries: 10, maxBytes: 5 });
    small.set(1, 1n, "a", "a", 6);
    assert.equal(small.get(1, 1n, "a"), undefined);
    assert.equal(small.stats.bytes, 0);
  });
});

describe("head tracker", () => {
  test("a head is fresh for maxAgeMs after it was confirmed, never moves back, and 0 turns pinning off", () => {
    let now = 1000;
    const heads = createHeadTracker(500, () => now);
    assert.equal(heads.fresh(1), undefined);
    heads.confirm(1, 6n);
    assert.equal(heads.fresh(1), 6n);
    now += 499;
    assert.equal(heads.fresh(1), 6n);
    now += 1;
    assert.equal(heads.fresh(1), undefined, "stale: the next quote reads the latest block");
    heads.confirm(1, 6n);
    assert.equal(heads.fresh(1), 6n, "confirmed again");
    heads.confirm(1, 5n);
    assert.equal(heads.fresh(1), 6n, "a lagging node's block does not move the head back");
    assert.equal(heads.fresh(2), undefined, "per chain");
    const off = createHeadTracker(0, () => now);
    off.confirm(1, 6n);
    assert.equal(off.fresh(1), undefined);
  });
});
