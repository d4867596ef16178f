// Whether an endpoint serves the chain it is configured for: eth_chainId, asked once and shared by whoever waits,
// and asked again (at most every 10 s) once an endpoint was found serving another chain.
import { notAnExecution, quantity, send, unavailable } from "./call.ts";
import type { ChainEndpoint } from "./client.ts";
import { WrongChainError } from "./chainErrors.ts";
import { RpcTransportError } from "./transport.ts";
import { abortable } from "./waiting.ts";

/** eth_chainId as a number; a malformed answer is the transport's failure. */
export async function readChainId(endpoint: ChainEndpoint, signal?: AbortSignal): Promise<number> {
  const answer = await send(endpoint, "eth_chainId", [], signal);
  const id = answer.error === undefined ? quantity(answer.result) : undefined;
  if (id === undefined || id > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw unavailable(endpoint, "eth_chainId", answer.error ? notAnExecution(answer.error) : new RpcTransportError("eth_chainId answered something that is not a quantity"));
  }
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_chainId", outcome: "ok" });
  return Number(id);
}

/** How long an endpoint found serving another chain is refused before it is asked its chain id again, in ms. */
const WRONG_CHAIN_RECHECK_MS = 10_000;

/**
 * Before an endpoint serves a quote, and again after it failed: does it serve the chain it is configured for?
 * Concurrent callers share one eth_chainId. Throws {@link WrongChainError} when it serves another chain (asked
 * again at most every 10 s), or the transport's failure.
 */
export function ensureChainId(endpoint: ChainEndpoint, signal?: AbortSignal): Promise<void> {
  const { state } = endpoint;
  if (state.chainId === "ok") return Promise.resolve();
  const wrong = () => {
    const known = state.chainId;
    if (typeof known === "object") throw new WrongChainError(endpoint.chainId, endpoint.source, known.other);
  };
  if (typeof state.chainId === "object" && Date.now() - (state.checkedAt ?? 0) < WRONG_CHAIN_RECHECK_MS) {
    return Promise.resolve().then(wrong);
  }
  // The endpoint's own business, shared by whoever waits: not counted against the quote that happened to ask.
  state.checking ??= readChainId(endpoint)
    .then((id) => {
      state.chainId = id === endpoint.chainId ? "ok" : { other: id };
      state.checkedAt = Date.now();
    })
    .finally(() => {
      state.checking = undefined;
    });
  const checked = state.checking.then(wrong);
  if (signal === undefined) return checked;
  // A quote that gives up does not wait for the check, which others may still share.
  return abortable(checked, signal);
}
