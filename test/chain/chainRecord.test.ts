// The chain of hashes as the service sees it (semantics §11): a new head, the head again, a lagging endpoint's older
// block (never a move back), a reorg at the head's height or below it (the replaced blocks named), a gap filled by
// the ancestors the record asks for, and the block time the polling follows.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Hex } from "viem";
import type { BlockHeader } from "../../src/chain/head/blocks.ts";
import { createChainRecord, RECORD_DEPTH } from "../../src/chain/head/chainRecord.ts";

/** A hash named by its fork and height: `hash("a", 7)`. */
const hash = (fork: string, number: number): Hex => `0x${Buffer.from(`${fork}:${number}`).toString("hex").padEnd(64, "0")}` as Hex;
/** Block `number` of `fork`, whose parent is of `parentFork`, mined 12 s after its parent. */
const block = (number: number, fork = "a", parentFork = fork): BlockHeader => ({
  number: BigInt(number),
  hash: hash(fork, number),
  parentHash: hash(parentFork, number - 1),
  timestamp: 1_000n + 12n * BigInt(number),
});

describe("new heads and known blocks", () => {
  test("the first header is the head; its child extends it; the head again is known", () => {
    const record = createChainRecord();
    assert.deepEqual(record.observe(block(6)), { kind: "new-head", head: block(6), replaced: [] });
    assert.equal(record.hashAt(5n), hash("a", 5), "the first head's parent is known from it");
    assert.deepEqual(record.observe(block(7)), { kind: "new-head", head: block(7), replaced: [] });
    assert.deepEqual(record.observe(block(7)), { kind: "known" });
    assert.equal(record.head?.hash, hash("a", 7));
  });

  test("a lagging endpoint's older block of the same chain never moves the head back", () => {
    const record = createChainRecord();
    for (const n of [6, 7, 8]) record.observe(block(n));
    assert.deepEqual(record.observe(block(7)), { kind: "lagging" });
    assert.deepEqual(record.observe(block(5)), { kind: "lagging" }, "the first head's parent is on the chain too");
    assert.equal(record.head?.number, 8n);
    assert.equal(record.isReplaced(hash("a", 7)), false);
  });

  test("a block older than the record can tell is a lagging one, not a reorg", () => {
    const record = createChainRecord();
    record.observe(block(1_000));
    assert.deepEqual(record.observe(block(10, "z")), { kind: "lagging" });
    assert.equal(record.head?.number, 1_000n);
  });
});

describe("reorgs", () => {
  test("another hash at the head's height replaces the head (anvil_reorg of depth 1, or revert then mine)", () => {
    const record = createChainRecord();
    for (const n of [6, 7]) record.observe(block(n));
    const seen = record.observe(block(7, "b", "a"));
    assert.deepEqual(seen, { kind: "reorg", head: block(7, "b", "a"), replaced: [hash("a", 7)] });
    assert.equal(record.isReplaced(hash("a", 7)), true);
    assert.equal(record.isReplaced(hash("a", 6)), false, "its parent is still the chain");
    assert.equal(record.head?.hash, hash("b", 7));
  });

  test("a lower head with a hash the record does not know is followed: every block above it is replaced", () => {
    const record = createChainRecord();
    for (const n of [5, 6, 7, 8]) record.observe(block(n));
    const seen = record.observe(block(6, "b", "a"));
    assert.equal(seen.kind, "reorg");
    assert.deepEqual(new Set(seen.kind === "reorg" ? seen.replaced : []), new Set([hash("a", 6), hash("a", 7), hash("a", 8)]));
    assert.equal(record.head?.hash, hash("b", 6));
    assert.equal(record.hashAt(7n), undefined, "nothing above the new head");
  });

  test("a new head on another branch: the blocks under it are fetched until the record's chain is met", () => {
    const record = createChainRecord();
    for (const n of [5, 6, 7]) record.observe(block(n));
    // Block 8 of branch b, which left branch a after block 5: blocks 6 and 7 of a are gone.
    const seen = record.observe(block(8, "b"));
    assert.equal(seen.kind, "reorg");
    assert.deepEqual(seen.kind === "reorg" && seen.replaced, [hash("a", 7)]);
    assert.equal(seen.kind === "reorg" && seen.needsAncestor, hash("b", 7));
    const seven = record.link(block(7, "b"));
    assert.deepEqual(seven, { connected: false, replaced: [], next: hash("b", 6) });
    const six = record.link(block(6, "b", "a"));
    assert.deepEqual(six, { connected: true, replaced: [hash("a", 6)] });
    assert.equal(record.isReplaced(hash("a", 6)), true);
    assert.deepEqual([5n, 6n, 7n, 8n].map((n) => record.hashAt(n)), [hash("a", 5), hash("b", 6), hash("b", 7), hash("b", 8)]);
  });

  test("a block that comes back is the chain again (A, B, then A)", () => {
    const record = createChainRecord();
    for (const n of [6, 7]) record.observe(block(n));
    record.observe(block(7, "b", "a"));
    assert.equal(record.isReplaced(hash("a", 7)), true);
    record.observe(block(7));
    assert.equal(record.isReplaced(hash("a", 7)), false);
    assert.equal(record.isReplaced(hash("b", 7)), true);
  });
});

describe("gaps", () => {
  test("a head several blocks ahead asks for its ancestors; met on the recorded chain, nothing is replaced", () => {
    const record = createChainRecord();
    record.observe(block(6));
    const seen = record.observe(block(9));
    assert.deepEqual(seen, { kind: "new-head", head: block(9), replaced: [], needsAncestor: hash("a", 8) });
    assert.deepEqual(record.link(block(8)), { connected: false, replaced: [], next: hash("a", 7) });
    assert.deepEqual(record.link(block(7)), { connected: true, replaced: [] });
    assert.deepEqual(record.observe(block(8)), { kind: "lagging" }, "a filled block is known");
  });

  test("a head further ahead than the record's depth starts the record anew", () => {
    const record = createChainRecord();
    record.observe(block(6));
    const far = 6 + Number(RECORD_DEPTH) + 1;
    assert.deepEqual(record.observe(block(far)), { kind: "new-head", head: block(far), replaced: [] });
    assert.equal(record.hashAt(6n), undefined);
  });
});

test("the block time, from the recorded blocks' timestamps; none until two blocks a second apart", () => {
  const record = createChainRecord();
  record.observe(block(6));
  assert.equal(record.blockTimeMs(), undefined);
  for (const n of [7, 8, 9, 10]) record.observe(block(n));
  assert.equal(record.blockTimeMs(), 12_000);
  const fast = createChainRecord();
  for (let n = 1; n <= 9; n++) fast.observe({ ...block(n), timestamp: BigInt(Math.floor(n / 4)) }); // 4 blocks a second
  assert.equal(fast.blockTimeMs(), 250);
});

describe("the head moved back (every endpoint kept reporting an older head)", () => {
  test("to a block of the record: it is the head, the blocks above are replaced, and the chain grows from it again", () => {
    const record = createChainRecord();
    for (const n of [6, 7, 8]) record.observe(block(n));
    assert.deepEqual(record.moveBack(block(6)), [hash("a", 7), hash("a", 8)]);
    assert.equal(record.head?.hash, hash("a", 6));
    assert.equal(record.hashAt(7n), undefined);
    assert.ok(record.isReplaced(hash("a", 7)) && record.isReplaced(hash("a", 8)));
    assert.equal(record.isReplaced(hash("a", 6)), false);
    assert.deepEqual(record.observe(block(7, "b", "a")), { kind: "new-head", head: block(7, "b", "a"), replaced: [] }, "a block mined on it is a new head");
    assert.deepEqual(record.observe(block(7)), { kind: "reorg", head: block(7), replaced: [hash("b", 7)] }, "the old block 7 back is another hash at that height");
  });

  test("to a block older than the record: everything recorded is replaced", () => {
    const record = createChainRecord();
    record.observe(block(1_000));
    record.observe(block(1_001));
    assert.deepEqual(new Set(record.moveBack(block(10, "z"))), new Set([hash("a", 999), hash("a", 1_000), hash("a", 1_001)]));
    assert.equal(record.head?.hash, hash("z", 10));
    assert.equal(record.hashAt(9n), hash("z", 9), "its parent is known from it, as for a first head");
    assert.deepEqual(record.observe(block(11, "z")), { kind: "new-head", head: block(11, "z"), replaced: [] });
  });
});

test("an older block in a gap the walk down the ancestors left (an endpoint did not have one) is lagging, never a reorg", () => {
  const record = createChainRecord();
  record.observe(block(4));
  record.observe(block(7));
  assert.deepEqual(record.link(block(6)), { connected: false, replaced: [], next: hash("a", 5) }, "the walk stops here: no endpoint had block 5");
  assert.deepEqual(record.observe(block(5)), { kind: "lagging" });
  assert.equal(record.head?.number, 7n);
  assert.equal(record.hashAt(5n), hash("a", 5), "filled in: block 6 names it its parent");
  const forked = record.observe(block(5, "x", "a"));
  assert.equal(forked.kind, "reorg", "another block at a filled height is a reorg");
  assert.deepEqual(new Set("replaced" in forked ? forked.replaced : []), new Set([hash("a", 5), hash("a", 6), hash("a", 7)]));
});
