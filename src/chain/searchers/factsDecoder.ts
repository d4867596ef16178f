// The searchers' answers read by hand: the one ABI type they revert with (SearcherBase's Facts, the batch's
// Facts[], and the depth ladder's price, prices and Facts[]), word by word from the hex, every offset, length and flag checked against the data as viem checks them.
// viem's decodeAbiParameters reads any type and stays the reference: test/chain/factsDecoder.test.ts decodes random
// facts with both. On the hot path of every quote, the general decoder was the largest part of the CPU of a quote
// after the transport (bench/cpu.ts).
import type { Hex } from "viem";
import { QuoterError } from "../../quote/quoterError.ts";
import type { RawCall } from "../rpc/call.ts";

export type Candidate = { size: bigint; success: boolean; data: Hex; gasUsed: bigint };

export type Facts = {
  blockNumber: bigint;
  market: RawCall;
  priceRead: boolean;
  price: RawCall;
  collateralRead: boolean;
  collateralGroup: RawCall;
  decimalsRead: boolean;
  collateralDecimals: RawCall;
  candidates: readonly Candidate[];
  /** An exact search asked the market's QuoterV2 for the price edge (src/chain/searchers/priceEdge.ts), answered in `edge`. */
  edgeRead: boolean;
  edge: RawCall;
  /** An exact search read its market's pool's `liquidity()` (the rule's first guesses), answered in `liquidity`. */
  liquidityRead: boolean;
  liquidity: RawCall;
};

/** A depth ladder's answer: the block, the price read there, the prices planned from it, the facts of the levels started. */
export type LadderFacts = { blockNumber: bigint; price: RawCall; prices: bigint[]; facts: Facts[] };

/** The data is not an ABI encoding of the type read (the caller then says the endpoint does not run the searcher). */
export class FactsDecodingError extends QuoterError {
  constructor(message: string) {
    super("facts-decoding", message);
  }
}

const TWO_255 = 1n << 255n;
const TWO_256 = 1n << 256n;
/** Offsets and lengths past this many bytes are not in any answer an endpoint sends (and would lose precision). */
const MAX_POSITION = 2 ** 32;
const ZEROS_OF_A_SMALL_WORD = "0".repeat(56);

/** Reads ABI words at byte positions of lower-case hex (no 0x). */
class Words {
  readonly bytes: number;
  constructor(private readonly hex: string) {
    if (hex.length % 2 !== 0) throw new FactsDecodingError("odd number of hex digits");
    this.bytes = hex.length / 2;
  }

  private text(at: number): string {
    if (!Number.isSafeInteger(at) || at < 0 || at + 32 > this.bytes) throw new FactsDecodingError(`no word at byte ${at} of ${this.bytes}`);
    return this.hex.slice(2 * at, 2 * at + 64);
  }

  uint(at: number): bigint {
    const text = this.text(at);
    if (!/^[0-9a-f]{64}$/.test(text)) throw new FactsDecodingError(`not a word at byte ${at}`);
    return BigInt(`0x${text}`);
  }

  int(at: number): bigint {
    const word = this.uint(at);
    return word >= TWO_255 ? word - TWO_256 : word;
  }

  /** An offset or a length: a word small enough to be a position in the data. */
  position(at: number): number {
    const text = this.text(at);
    const low = Number.parseInt(text.slice(56), 16);
    if (!text.startsWith(ZEROS_OF_A_SMALL_WORD) || !/^[0-9a-f]{8}$/.test(text.slice(56)) || low >= MAX_POSITION) {
      throw new FactsDecodingError(`not a position at byte ${at}`);
    }
    return low;
  }

  bool(at: number): boolean {
    const word = this.uint(at);
    if (word > 1n) throw new FactsDecodingError(`not a bool at byte ${at}`);
    return word === 1n;
  }

  /** Dynamic bytes whose length word is at `at`. */
  bytesAt(at: number): Hex {
    const length = this.position(at);
    const start = at + 32;
    if (start + length > this.bytes) throw new FactsDecodingError(`bytes of ${length} past the end at byte ${at}`);
    const text = this.hex.slice(2 * start, 2 * (start + length));
    if (!/^[0-9a-f]*$/.test(text)) throw new FactsDecodingError(`not bytes at byte ${at}`);
    return `0x${text}`;
  }
}

/** A tuple (success, bytes) at `at`. */
function call(words: Words, at: number): RawCall {
  return { success: words.bool(at), data: words.bytesAt(at + words.position(at + 32)) };
}

/** A candidate (int256 size, bool success, bytes data, uint256 gasUsed) at `at`. */
function candidate(words: Words, at: number): Candidate {
  return { size: words.int(at), success: words.bool(at + 32), data: words.bytesAt(at + words.position(at + 64)), gasUsed: words.uint(at + 96) };
}

/** An array of words whose length word is at `at`. */
function uints(words: Words, at: number): bigint[] {
  const length = words.position(at);
  if (at + 32 * (1 + length) > words.bytes) throw new FactsDecodingError(`an array of ${length} past the end at byte ${at}`);
  return Array.from({ length }, (_, i) => words.uint(at + 32 * (1 + i)));
}

/** An array of dynamic tuples whose length word is at `at`, each read by `read` at its offset. */
function array<T>(words: Words, at: number, read: (words: Words, at: number) => T): T[] {
  const length = words.position(at);
  const heads = at + 32;
  if (heads + 32 * length > words.bytes) throw new FactsDecodingError(`an array of ${length} past the end at byte ${at}`);
  return Array.from({ length }, (_, i) => read(words, heads + words.position(heads + 32 * i)));
}

/** The Facts tuple at `at`: thirteen head words, then the dynamic parts at their offsets. */
function facts(words: Words, at: number): Facts {
  const dynamic = (word: number) => at + words.position(at + 32 * word);
  return {
    blockNumber: words.uint(at),
    market: call(words, dynamic(1)),
    priceRead: words.bool(at + 64),
    price: call(words, dynamic(3)),
    collateralRead: words.bool(at + 128),
    collateralGroup: call(words, dynamic(5)),
    decimalsRead: words.bool(at + 192),
    collateralDecimals: call(words, dynamic(7)),
    candidates: array(words, dynamic(8), candidate),
    edgeRead: words.bool(at + 288),
    edge: call(words, dynamic(10)),
    liquidityRead: words.bool(at + 352),
    liquidity: call(words, dynamic(12)),
  };
}

/** `SearchFacts(Facts)`'s argument from its encoding (the data after the selector, as lower- or upper-case hex). */
export function decodeSearchFacts(encoded: string): Facts {
  const words = new Words(encoded.toLowerCase());
  return facts(words, words.position(0));
}

/** `BatchSearchFacts(Facts[])`'s argument from its encoding (the data after the selector). */
export function decodeBatchSearchFacts(encoded: string): Facts[] {
  const words = new Words(encoded.toLowerCase());
  return array(words, words.position(0), facts);
}

/** `LadderFacts(uint256, Call, uint256[], Facts[])`'s arguments from their encoding (the data after the selector). */
export function decodeLadderFacts(encoded: string): LadderFacts {
  const words = new Words(encoded.toLowerCase());
  return {
    blockNumber: words.uint(0),
    price: call(words, words.position(32)),
    prices: uints(words, words.position(64)),
    facts: array(words, words.position(96), facts),
  };
}

/** The position searcher's reads of the position (contracts/PositionSearcher.sol): a read not made is a failed empty call. */
export type PositionFacts = { owner: RawCall; position: RawCall; size: RawCall };

/** `PositionSearchFacts((Call, Call, Call), Facts)`'s arguments from their encoding (the data after the selector). */
export function decodePositionSearchFacts(encoded: string): { position: PositionFacts; facts: Facts } {
  const words = new Words(encoded.toLowerCase());
  const at = words.position(0);
  const dynamic = (word: number) => at + words.position(at + 32 * word);
  return {
    position: { owner: call(words, dynamic(0)), position: call(words, dynamic(1)), size: call(words, dynamic(2)) },
    facts: facts(words, words.position(32)),
  };
}
