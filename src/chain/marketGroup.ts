// The three market group calls of a quote (semantics §1): how each is encoded, and how its raw answer reads.
// Both search strategies go through these pure functions, so they read the same bytes the same way.
import { decodeErrorResult, decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from "viem";
import { marketGroupAbi } from "../generated/contracts.ts";
import type { Evaluation } from "../quote/search.ts";
import type { RawCall } from "./call.ts";

export { marketGroupAbi };

/** Errors decoded by name: the market group's own, and `EpochSettled()` of the epoch-era Sapience groups. */
const errorAbi = [...marketGroupAbi, ...parseAbi(["error EpochSettled()"])];

export type MarketCheck = { kind: "found"; settled: boolean } | { kind: "missing"; reason: string };

export const encodeGetMarket = (marketId: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "getMarket", args: [marketId] });

export const encodeGetReferencePrice = (marketId: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "getReferencePrice", args: [marketId] });

export const encodeQuote = (marketId: bigint, signedSize: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [marketId, signedSize] });

/** Decodes a successful answer; one that cannot be decoded counts as a revert (semantics §1). */
function decodeSuccess<T>(raw: RawCall, decode: (data: Hex) => T): T | undefined {
  if (!raw.success) return undefined;
  try {
    return decode(raw.data);
  } catch {
    return undefined;
  }
}

/** The custom error's name (or viem's built-in `Error`/`Panic`), or undefined when the data matches nothing. */
export function decodeErrorName(data: Hex): string | undefined {
  if (data.length < 10) return undefined;
  try {
    return decodeErrorResult({ abi: errorAbi, data }).errorName;
  } catch {
    return undefined;
  }
}

/**
 * Semantics §3.5: no code at the address, `getMarket` reverting (or undecodable), a `marketId` field other
 * than the one asked for, or a zero `startTime` (never created) mean the market does not exist.
 */
export function interpretMarket(raw: RawCall, marketId: bigint): MarketCheck {
  const decoded = decodeSuccess(raw, (data) => decodeFunctionResult({ abi: marketGroupAbi, functionName: "getMarket", data }));
  if (decoded === undefined) {
    if (raw.success && raw.data === "0x") return { kind: "missing", reason: "no market group at this address" };
    const name = raw.success ? undefined : decodeErrorName(raw.data);
    return { kind: "missing", reason: `getMarket reverted${name ? ` with ${name}()` : ""}` };
  }
  const [market] = decoded;
  if (market.marketId !== marketId) return { kind: "missing", reason: "getMarket answered for another market id" };
  if (market.startTime === 0n) return { kind: "missing", reason: "the market was never created" };
  return { kind: "found", settled: market.settled };
}

/** Semantics §3.6: the D18 reference price, or undefined when `getReferencePrice` reverts or returns 0. */
export function interpretReferencePrice(raw: RawCall): bigint | undefined {
  const price = decodeSuccess(raw, (data) => decodeFunctionResult({ abi: marketGroupAbi, functionName: "getReferencePrice", data }));
  return price === undefined || price === 0n ? undefined : price;
}

/** One candidate's quote, or its revert with the decoded error name that the search classifies. */
export function interpretQuote(raw: RawCall): Evaluation {
  const decoded = decodeSuccess(raw, (data) =>
    decodeFunctionResult({ abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", data }),
  );
  if (decoded === undefined) {
    const errorName = raw.success ? undefined : decodeErrorName(raw.data);
    return errorName === undefined ? { kind: "reverted", data: raw.data } : { kind: "reverted", data: raw.data, errorName };
  }
  const [requiredCollateral, fillPrice, priceAfter] = decoded;
  return { kind: "quoted", quote: { requiredCollateral, fillPrice, priceAfter } };
}
