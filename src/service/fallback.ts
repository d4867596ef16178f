// A chain's endpoints in the order of RPC_URL_<chainId>: a failure moves the whole quote to the next one, so that
// every read of an answer comes from one endpoint. An endpoint is asked its chain id before it serves a quote (and
// again after it failed); one resting after a rate limit is skipped. When none answers, the failures say why.
import { ensureChainId } from "../chain/rpc/chainIdCheck.ts";
import type { ChainEndpoint } from "../chain/rpc/client.ts";
import { BlockUnknownError, ChainUnavailableError, EndpointRestingError, EndpointsFailedError, type EndpointFailure } from "../chain/rpc/chainErrors.ts";
import type { Warn } from "./warnings.ts";

/**
 * The first answer of `answerAt` over `endpoints`; any failure but the chain's (ChainUnavailableError) is the
 * answer's own and ends it. Throws {@link EndpointsFailedError} when none answers.
 */
export async function firstAnswer<T>(
  endpoints: readonly ChainEndpoint[],
  answerAt: (endpoint: ChainEndpoint) => Promise<T>,
  signal: AbortSignal,
  warn: Warn,
): Promise<T> {
  const failures: EndpointFailure[] = [];
  for (const endpoint of endpoints) {
    signal.throwIfAborted();
    try {
      await ensureChainId(endpoint, signal);
      return await answerAt(endpoint);
    } catch (error) {
      if (!(error instanceof ChainUnavailableError)) throw error;
      error.source ??= endpoint.source;
      failures.push({ endpoint, error });
      // A lagging node or a resting one is expected now and then: only the endpoint's failures are warned of.
      if (!(error instanceof BlockUnknownError || error instanceof EndpointRestingError)) {
        warn({ chainId: endpoint.chainId, endpoint: endpoint.label, reason: error.reason }, "RPC endpoint failed");
      }
    }
  }
  throw new EndpointsFailedError(endpoints[0]?.chainId ?? 0, failures);
}
