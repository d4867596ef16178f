// What the service's unit tests share: a chain's endpoints at given URLs, a request on the demo markets,
// and warnings recorded as they are given.
import type { Address } from "viem";
import { latestHeader } from "../../src/chain/head/blocks.ts";
import type { BlockPin } from "../../src/chain/rpc/call.ts";
import { createChainRegistry, type ChainEndpoint } from "../../src/chain/rpc/client.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import type { QuoteRequest } from "../../src/quote/request.ts";
import type { Warn } from "../../src/service/warnings.ts";
import type { Searched } from "../../src/service/answerAtBlock.ts";
import type { QuoteResponseBody } from "../../src/quote/quoteAnswer.ts";

/** The endpoints of chain 31337 at `urls`, in order, sharing one limiter as a configured chain's do. */
export function endpointsAt(urls: readonly string[], timeoutMs = 5_000): readonly ChainEndpoint[] {
  return createChainRegistry(new Map([[DEVCHAIN_ID, urls]]), { timeoutMs }).get(DEVCHAIN_ID)!.endpoints;
}

/** The latest block of the node at `url`, by number and hash: where a quote's reads are pinned. */
export async function latestPin(url: string): Promise<BlockPin> {
  const { number, hash } = await latestHeader(endpointsAt([url])[0]!);
  return { number, hash };
}

/** A LONG on demo market 2 (price 1000) that the budget does not bind: a full 10-candidate bisection. */
export function demoRequest(marketGroup: Address, overrides: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    chainId: DEVCHAIN_ID,
    marketAddress: marketGroup,
    marketId: 2n,
    expectedPrice: 1030n * 10n ** 18n,
    collateralAvailable: 10n ** 21n,
    maxIterations: 10,
    trace: false,
    search: "bisection",
    ...overrides,
  };
}

export interface Warning {
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

export function recordWarnings(): { warn: Warn; warnings: Warning[] } {
  const warnings: Warning[] = [];
  return { warn: (fields, message) => void warnings.push({ fields, message }), warnings };
}

/** A search's answer as the service gives it: the 200 body, or its error thrown. */
export function bodyOf(searched: Searched): QuoteResponseBody {
  if (!searched.answer.ok) throw searched.answer.error;
  return searched.answer.value as QuoteResponseBody;
}
