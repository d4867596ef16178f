// viem's ABI decoder, fed the way that costs least: hex turned into bytes by Node's native decoder (viem's own
// conversion is a loop in JavaScript), and error selectors hashed once (viem's decodeErrorResult hashes every
// error of the ABI on every call). Decoding the searcher's answer was the largest part of a quote's CPU after
// the transport (bench/cpu.ts profile).
import { decodeAbiParameters, hexToBytes, toFunctionSelector, type Abi, type Hex } from "viem";
import { formatAbiItem } from "viem/utils";

/** An error of an ABI. */
export type AbiError = Extract<Abi[number], { type: "error" }>;

/**
 * The bytes of `data` after its first `skipBytes` bytes. Node's hex decoder stops at the first character that is
 * not hex and drops an odd last digit; such data goes to viem's, which reads it as viem always did (or throws).
 */
export function bytesOf(data: Hex, skipBytes = 0): Uint8Array {
  const hex = data.slice(2 + 2 * skipBytes);
  const buffer = Buffer.from(hex, "hex");
  if (buffer.length * 2 !== hex.length) return hexToBytes(`0x${hex}`);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}

/** Word `index` (32 bytes, unsigned) of hex data, when the data holds it. */
export function wordAt(data: Hex, index: number): bigint | undefined {
  const start = 2 + 64 * index;
  if (data.length < start + 64) return undefined;
  return BigInt(`0x${data.slice(start, start + 64)}`);
}

/** The 4-byte selector of an ABI error, lower-case hex. */
export const errorSelector = (error: AbiError): Hex => toFunctionSelector(formatAbiItem(error));

/** Solidity's built-in errors, with the argument names viem gives them. */
const SOLIDITY_ERRORS: readonly AbiError[] = [
  { type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] },
  { type: "error", name: "Panic", inputs: [{ name: "reason", type: "uint256" }] },
];

/** Errors by selector, Solidity's built-in ones last: the first error of the list wins a selector, as in viem's decodeErrorResult. */
export function errorsBySelector(errors: readonly AbiError[]): ReadonlyMap<string, AbiError> {
  const bySelector = new Map<string, AbiError>();
  for (const error of [...errors, ...SOLIDITY_ERRORS]) {
    const selector = errorSelector(error);
    if (!bySelector.has(selector)) bySelector.set(selector, error);
  }
  return bySelector;
}

/** The error `data` encodes and its arguments; undefined when no error of the map has its selector. Throws when its arguments do not decode. */
export function decodeError(bySelector: ReadonlyMap<string, AbiError>, data: Hex): { error: AbiError; args: readonly unknown[] } | undefined {
  const error = data.length >= 10 ? bySelector.get(data.slice(0, 10).toLowerCase()) : undefined;
  if (error === undefined) return undefined;
  return { error, args: error.inputs.length === 0 ? [] : decodeAbiParameters(error.inputs, bytesOf(data, 4)) };
}
