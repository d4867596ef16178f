// eth_simulateV1 (semantics §12): calls from given senders, in order, in one simulated block on top of a pinned block,
// each seeing the state the ones before it left (a reverted call leaves none), with the gas each used. The block is
// named as eth_call names it (by hash; by number, checked by hash, for a node that takes no block object). Whether an
// endpoint runs the method is learnt from its first answer and remembered, with one warning.
import { isHex, numberToHex, type Address, type Hex } from "viem";
import { QuoterError } from "../../quote/quoterError.ts";
import { blockParam, blockUnknown, checkBlockAtNumber, notAnExecution, quantity, readByNumberFromNow, refusesBlockObject, send, unavailable, type BlockPin, type ReadContext } from "./call.ts";
import { classifyRpcError } from "./chainErrors.ts";
import type { ChainEndpoint } from "./client.ts";
import { RpcTransportError, type JsonRpcAnswer, type JsonRpcError } from "./transport.ts";

/** A call of the simulated block: from its sender, no value. */
export type SimulatedCallRequest = { readonly from: Address; readonly to: Address; readonly data: Hex };

/** How a call of the simulated block ended: its return or revert data, and the gas it used (intrinsic gas included). */
export type SimulatedCall = { readonly success: boolean; readonly data: Hex; readonly gasUsed: bigint };

/** The endpoint does not run eth_simulateV1 (it answered that it has no such method, or refused its parameters). */
export class SimulateUnsupportedError extends QuoterError {
  constructor(message: string) {
    super("simulate-unsupported", message);
  }
}

/** How nodes say they have no such method: JSON-RPC's -32601 (geth, ganache), or their words for it. */
const NO_SUCH_METHOD = /method .*(?:not found|does not exist|not available|not supported|unsupported)|not (?:implemented|supported)|unknown method/i;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/**
 * The calls in one block simulated on top of the context's block, numbered one above it and timestamped `time`.
 * Throws {@link SimulateUnsupportedError} for an endpoint without eth_simulateV1, BlockUnknownError when it does not
 * have the block, ChainUnavailableError for anything else that is not the simulation's answer.
 */
export async function simulateBlock(endpoint: ChainEndpoint, calls: readonly SimulatedCallRequest[], time: bigint, context: ReadContext): Promise<SimulatedCall[]> {
  if (endpoint.state.simulates === false) throw new SimulateUnsupportedError(`${endpoint.source} does not run eth_simulateV1`);
  const { block } = context;
  const payload = {
    blockStateCalls: [{ blockOverrides: { number: numberToHex(block.number + 1n), time: numberToHex(time) }, calls: calls.map(({ from, to, data }) => ({ from, to, data })) }],
  };
  const byNumber = async () => {
    const answer = await send(endpoint, "eth_simulateV1", [payload, numberToHex(block.number)], context.signal, context.tally);
    const read = simulationAnswer(endpoint, answer, calls.length, block);
    await checkBlockAtNumber(endpoint, block, context);
    return read;
  };
  if (endpoint.state.blocksByNumber === true) return byNumber();
  const answer = await send(endpoint, "eth_simulateV1", [payload, blockParam(block)], context.signal, context.tally);
  if (answer.error !== undefined && refusesBlockObject(answer.error)) {
    const read = await byNumber();
    readByNumberFromNow(endpoint, answer.error);
    return read;
  }
  return simulationAnswer(endpoint, answer, calls.length, block);
}

/** The calls' outcomes in the simulated block, or the failure the answer is. */
function simulationAnswer(endpoint: ChainEndpoint, answer: JsonRpcAnswer, count: number, block: BlockPin): SimulatedCall[] {
  if (answer.error !== undefined) throw refusal(endpoint, answer.error, block);
  const calls = (Array.isArray(answer.result) ? (answer.result[0] as { calls?: unknown } | undefined)?.calls : undefined) as unknown[] | undefined;
  const read = Array.isArray(calls) && calls.length === count ? calls.map(simulatedCall) : undefined;
  if (read === undefined || read.includes(undefined)) {
    throw unavailable(endpoint, "eth_simulateV1", new RpcTransportError("eth_simulateV1 answered something that is not the simulated block's calls"));
  }
  if (endpoint.state.simulates !== true) endpoint.state.simulates = true;
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_simulateV1", outcome: "ok" });
  return read as SimulatedCall[];
}

/** An error answer: the block unknown, no such method (remembered), or the transport's failure. */
function refusal(endpoint: ChainEndpoint, error: JsonRpcError, block: BlockPin): Error {
  if (classifyRpcError(error).kind === "unknown-block") return blockUnknown(endpoint, "eth_simulateV1", block, error);
  if (error.code === METHOD_NOT_FOUND || error.code === INVALID_PARAMS || NO_SUCH_METHOD.test(error.message)) {
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_simulateV1", outcome: "refused" });
    if (endpoint.state.simulates !== false) {
      endpoint.state.simulates = false;
      endpoint.log?.warn(
        { chainId: endpoint.chainId, endpoint: endpoint.label, refusal: `JSON-RPC error ${error.code}: ${error.message.slice(0, 80)}` },
        `${endpoint.source} does not run eth_simulateV1: a trade is simulated there by eth_call from now on (the transaction alone; not run where an approval must come first)`,
      );
    }
    return new SimulateUnsupportedError(`${endpoint.source} does not run eth_simulateV1 (JSON-RPC error ${error.code})`);
  }
  return unavailable(endpoint, "eth_simulateV1", notAnExecution(error));
}

/**
 * One call's result: `status` 0x1 or 0x0, `returnData`, `gasUsed`; a failed call's revert data is its returnData
 * (anvil) or its error's data (geth).
 */
function simulatedCall(value: unknown): SimulatedCall | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const call = value as { status?: unknown; returnData?: unknown; gasUsed?: unknown; error?: { data?: unknown } };
  const status = quantity(call.status);
  const gasUsed = quantity(call.gasUsed);
  if (status === undefined || gasUsed === undefined || typeof call.returnData !== "string" || !isHex(call.returnData)) return undefined;
  const errorData = call.error?.data;
  const data = status === 0n && call.returnData === "0x" && typeof errorData === "string" && isHex(errorData) ? errorData : call.returnData;
  return { success: status === 1n, data, gasUsed };
}
