// At start-up, before any quote: does each endpoint serve the chain it is configured for? A node of another chain
// would answer every quote as if it were this chain's, so a mismatch stops the service with one line naming the
// variable and both chain ids. An endpoint that does not answer is named too, and checked again before its first
// quote.
import { ensureChainId } from "../chain/rpc/chainIdCheck.ts";
import type { ChainRegistry } from "../chain/rpc/client.ts";
import { ChainUnavailableError, WrongChainError, configuredIn } from "../chain/rpc/chainErrors.ts";

export type EndpointCheck =
  | { readonly kind: "ok"; readonly chainId: number; readonly source: string }
  | { readonly kind: "wrong-chain"; readonly chainId: number; readonly source: string; readonly other: number }
  | { readonly kind: "unreachable"; readonly chainId: number; readonly source: string; readonly label: string; readonly reason: string };

/** eth_chainId of every HTTP endpoint of every chain, at once. */
export async function checkEndpoints(chains: ChainRegistry): Promise<EndpointCheck[]> {
  const endpoints = [...chains.values()].flatMap((chain) => chain.endpoints);
  return Promise.all(
    endpoints.map(async (endpoint): Promise<EndpointCheck> => {
      const { chainId, source, label } = endpoint;
      try {
        await ensureChainId(endpoint);
        return { kind: "ok", chainId, source };
      } catch (error) {
        if (error instanceof WrongChainError) return { kind: "wrong-chain", chainId, source, other: error.other };
        if (error instanceof ChainUnavailableError) return { kind: "unreachable", chainId, source, label, reason: error.reason };
        throw error;
      }
    }),
  );
}

/** The line that stops the service: the variable, both chain ids, and what to do. */
export function wrongChainLine(check: { chainId: number; source: string; other: number }): string {
  return `${check.source} serves chain ${check.other}, not chain ${check.chainId}: point ${configuredIn(check.source)} at a node of chain ${check.chainId}`;
}
