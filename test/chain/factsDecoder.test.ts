// The hand-written reader of the searchers' answers against viem's general ABI decoder: the same values from random
// facts (single, batch and depth ladder), the same verdict (a value or a refusal) on corrupted and truncated encodings, and the
// same values from real searcher answers on the embedded chain.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeAbiParameters, encodeAbiParameters, getAbiItem, maxInt256, minInt256, numberToHex, type Hex } from "viem";
import { batchQuoteSearcherAbi, depthLadderSearcherAbi, marketGroupAbi, quoteSearcherAbi } from "../../src/generated/contracts.ts";
import { ladderPrices } from "../../src/quote/depthRequest.ts";
import { decodeBatchSearchFacts, decodeLadderFacts, decodeSearchFacts, type Facts } from "../../src/chain/searchers/factsDecoder.ts";
import { encodeBatchSearch, encodeLadderSearch } from "../../src/chain/searchers/batchSearcher.ts";
import { encodeSearch } from "../../src/chain/searchers/searcher.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { parseQuoteRequest } from "../../src/quote/request.ts";

const single = getAbiItem({ abi: quoteSearcherAbi, name: "SearchFacts" }).inputs;
const batch = getAbiItem({ abi: batchQuoteSearcherAbi, name: "BatchSearchFacts" }).inputs;
const ladder = getAbiItem({ abi: depthLadderSearcherAbi, name: "LadderFacts" }).inputs;

/** A seeded generator (xorshift), so that a failure names its case and repeats. */
function random(seed: number) {
  let state = BigInt(seed) | 1n;
  const next = () => {
    state ^= (state << 13n) & 0xffffffffffffffffn;
    state ^= state >> 7n;
    state ^= (state << 17n) & 0xffffffffffffffffn;
    return state & 0xffffffffffffffffn;
  };
  const below = (n: number) => Number(next() % BigInt(n));
  const word = () => (next() << 192n) | (next() << 128n) | (next() << 64n) | next();
  const bytes = (): Hex => `0x${Array.from({ length: [0, 4, 32, 96, 100][below(5)]! + below(3) }, () => below(256).toString(16).padStart(2, "0")).join("")}`;
  const call = () => ({ success: below(2) === 1, data: bytes() });
  const size = () => [maxInt256, minInt256, 0n, 1n, -1n, word() >> 1n, -(word() >> 1n)][below(7)]!;
  const facts = (): Facts => ({
    blockNumber: below(2) ? BigInt(below(1_000_000)) : word(),
    market: call(),
    priceRead: below(2) === 1,
    price: call(),
    collateralRead: below(2) === 1,
    collateralGroup: call(),
    decimalsRead: below(2) === 1,
    collateralDecimals: call(),
    candidates: Array.from({ length: below(12) }, () => ({ size: size(), success: below(2) === 1, data: bytes(), gasUsed: below(2) ? BigInt(below(30_000_000)) : word() })),
    edgeRead: below(2) === 1,
    edge: call(),
    liquidityRead: below(2) === 1,
    liquidity: call(),
  });
  const ladderFacts = () => ({ blockNumber: word(), price: call(), prices: Array.from({ length: below(6) }, word), facts: Array.from({ length: below(4) }, facts) });
  return { below, facts, ladderFacts };
}

const kinds = {
  single: { inputs: single, decode: decodeSearchFacts },
  batch: { inputs: batch, decode: decodeBatchSearchFacts },
  ladder: { inputs: ladder, decode: decodeLadderFacts },
};

/** Both decoders' verdict on an encoding: the value, or that it refused. */
function both(encoded: Hex, kind: keyof typeof kinds) {
  const verdict = (decode: () => unknown) => {
    try {
      return { value: decode() };
    } catch {
      return { refused: true };
    }
  };
  const mine = verdict(() => kinds[kind].decode(encoded.slice(2)));
  // The ladder's answer is four values, which viem reads as a list; the hand reader names them.
  const viems = verdict(() => {
    const values = decodeAbiParameters(kinds[kind].inputs, encoded) as readonly unknown[];
    if (kind !== "ladder") return values[0];
    const [blockNumber, price, prices, facts] = values;
    return { blockNumber, price, prices, facts };
  });
  return { mine, viems };
}

describe("the searchers' answers read by hand", () => {
  test("300 random facts, 100 random batches and 100 random ladders: the values viem reads, and the values encoded", () => {
    const { facts, below, ladderFacts } = random(2026);
    for (let i = 0; i < 300; i++) {
      const value = facts();
      const encoded = encodeAbiParameters(single, [value]);
      assert.deepEqual(decodeSearchFacts(encoded.slice(2)), value, `case ${i}`);
      assert.deepEqual(decodeSearchFacts(encoded.slice(2).toUpperCase()), value, `case ${i}, upper case`);
      assert.deepEqual(both(encoded, "single").mine, both(encoded, "single").viems, `case ${i}`);
    }
    for (let i = 0; i < 100; i++) {
      const value = Array.from({ length: below(6) }, facts);
      const encoded = encodeAbiParameters(batch, [value]);
      assert.deepEqual(decodeBatchSearchFacts(encoded.slice(2)), value, `batch ${i}`);
    }
    for (let i = 0; i < 100; i++) {
      const value = ladderFacts();
      const encoded = encodeAbiParameters(ladder, [value.blockNumber, value.price, value.prices, value.facts]);
      assert.deepEqual(decodeLadderFacts(encoded.slice(2)), value, `ladder ${i}`);
      assert.deepEqual(both(encoded, "ladder").mine, both(encoded, "ladder").viems, `ladder ${i}`);
    }
  });

  test("corrupted and truncated encodings: each refused where viem refuses, read alike where viem reads", () => {
    const { facts, below, ladderFacts } = random(7);
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      const kind = i % 4 === 0 ? "batch" : i % 4 === 1 ? "ladder" : "single";
      const { blockNumber, price, prices } = ladderFacts();
      const encoded =
        kind === "single"
          ? encodeAbiParameters(single, [facts()])
          : kind === "batch"
            ? encodeAbiParameters(batch, [[facts(), facts()]])
            : encodeAbiParameters(ladder, [blockNumber, price, prices, [facts(), facts()]]);
      const hex = encoded.slice(2);
      const cut = below(3) === 0;
      // A word set to a small number (an offset, a length or a flag gone wrong), or the data cut short.
      const at = 64 * below(hex.length / 64);
      const corrupted: Hex = cut ? `0x${hex.slice(0, 2 * below(hex.length / 2))}` : `0x${hex.slice(0, at)}${numberToHex(below(4) === 0 ? 2 : below(2_000), { size: 32 }).slice(2)}${hex.slice(at + 64)}`;
      const { mine, viems } = both(corrupted, kind);
      assert.deepEqual(mine, viems, `case ${i} (${cut ? "cut" : `word at ${at / 2}`})`);
      if ("refused" in mine) refused++;
    }
    assert.ok(refused > 100, `most corruptions are refused (${refused})`);
  });

  describe("real answers of the searchers on the embedded chain", () => {
    let devchain: Devchain;
    before(async () => {
      devchain = await startDevchain();
    });
    after(() => devchain.close());

    test("each demo quote, bisection and exact, alone and in one batch: the values viem reads", async () => {
      const requests = ["1", "2", "3", "4", "5"].flatMap((marketId) =>
        (["bisection", "exact"] as const).map((search) => {
          const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress: devchain.marketGroup, marketId }, { expectedPrice: marketId === "2" ? "1030" : "0.55", collateralAvailable: "1000000000000000000000", search });
          if (!parsed.ok) throw parsed.error;
          return parsed.value;
        }),
      );
      const revertData = async (data: Hex): Promise<Hex> => {
        const answer = (await devchain.chain.provider.request({ method: "eth_call", params: [{ data, gas: "0x1c9c380" }, "latest"] } as never).catch((error: { data?: Hex; cause?: { data?: Hex } }) => error.data ?? error.cause?.data)) as Hex;
        assert.ok(typeof answer === "string" && answer.length > 10, "the searcher answers by reverting");
        return answer;
      };
      let candidates = 0;
      for (const request of requests) {
        const data = await revertData(encodeSearch(request));
        const { mine, viems } = both(`0x${data.slice(10)}`, "single");
        assert.ok("value" in mine);
        assert.deepEqual(mine, viems);
        candidates += (mine.value as Facts).candidates.length;
      }
      assert.ok(candidates > 25, `real candidates read (${candidates})`);
      const data = await revertData(encodeBatchSearch(requests, 32));
      const { mine, viems } = both(`0x${data.slice(10)}`, "batch");
      assert.equal((mine as { value: Facts[] }).value.length, requests.length);
      assert.deepEqual(mine, viems);
      // Market 2's ladder of 5 levels to 1030, exact searches planned from its price on chain.
      const farthest = requests.find((request) => request.marketId === 2n && request.search === "exact")!;
      const ladderData = await revertData(encodeLadderSearch({ farthest, levels: 5 }, 32));
      const read = both(`0x${ladderData.slice(10)}`, "ladder");
      assert.deepEqual(read.mine, read.viems);
      const value = (read.mine as { value: { prices: bigint[]; facts: Facts[] } }).value;
      // The levels the rule places from market 2's price (999.999999999999999999 on the v3 pool) to 1030.
      const price = await devchain.chain.publicClient.readContract({ address: devchain.marketGroup, abi: marketGroupAbi, functionName: "getReferencePrice", args: [2n] });
      assert.deepEqual(value.prices, ladderPrices(price, 1030n * 10n ** 18n, 5));
      assert.equal(value.prices.at(-1), 1030n * 10n ** 18n);
      assert.equal(value.facts.length, 5);
    });
  });
});
