// A chain's endpoints in the order of RPC_URL_<chainId>: a transport failure moves the whole quote to the next
// one, so that every read of an answer comes from one endpoint; when none answers, 503.
import type { ChainEndpoint } from "../chain/client.ts";
import { ChainUnavailableError } from "../chain/errors.ts";
import { rpcUnavailable } from "../quote/errors.ts";
import type { Warn } from "./warnings.ts";

/** The first answer of `answerAt` over `endpoints`; any failure but the transport's is the answer's own and ends it. */
export async function firstAnswer<T>(
  endpoints: readonly ChainEndpoint[],
  answerAt: (endpoint: ChainEndpoint) => Promise<T>,
  signal: AbortSignal,
  warn: Warn,
): Promise<T> {
  for (const endpoint of endpoints) {
    signal.throwIfAborted();
    try {
      return await answerAt(endpoint);
    } catch (error) {
      if (!(error instanceof ChainUnavailableError)) throw error;
      warn({ chainId: endpoint.chainId, endpoint: endpoint.label, reason: error.reason }, "RPC endpoint failed");
    }
  }
  throw rpcUnavailable();
}
