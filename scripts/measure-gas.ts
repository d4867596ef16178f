// `npm run gas`: the gas of a 10-candidate single-call search on each demo market, on a fresh embedded chain:
// what a node charges for the same deployless call the service makes (the searcher's execution, measured by
// contracts/test/GasMeter.sol since the searcher always reverts, plus the call's intrinsic gas), and the gas
// each candidate's quote used.
import { createPublicClient, decodeErrorResult, encodeDeployData, hexToBytes, http, type Hex } from "viem";
import { classifyCallError } from "../src/chain/errors.ts";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKETS } from "../src/devchain/demo.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { decodeFacts, encodeSearch } from "../src/chain/searcher.ts";
import { gasMeterAbi, gasMeterBytecode } from "../src/generated/contracts.ts";
import { parseQuoteRequest } from "../src/quote/request.ts";

export interface SearchGas {
  readonly group: string;
  readonly marketId: bigint;
  readonly request: string;
  /** Intrinsic gas of the deployless call plus the searcher's execution. */
  readonly gas: bigint;
  readonly candidates: number;
  /** Gas each candidate's quote used, in search order. */
  readonly candidateGas: readonly bigint[];
}

/** A transaction's intrinsic gas for creation code `data`: base, creation, calldata, and initcode words. */
function intrinsicCreationGas(data: Hex): bigint {
  const bytes = hexToBytes(data);
  const calldata = bytes.reduce((sum, byte) => sum + (byte === 0 ? 4n : 16n), 0n);
  return 21_000n + 32_000n + calldata + 2n * BigInt(Math.ceil(bytes.length / 32));
}

export async function measureSearchGas(): Promise<SearchGas[]> {
  const devchain = await startDevchain();
  // Over JSON-RPC, as the service asks: its revert reads as it does in production.
  const client = createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0 }) });
  try {
    const rows: SearchGas[] = [];
    for (const market of DEMO_MARKETS) {
      const query = { ...market.example, maxIterations: "10" };
      const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress: market.group, marketId: String(market.id) }, query);
      if (!parsed.ok) throw parsed.error;
      const search = encodeSearch(parsed.value);
      const meter = encodeDeployData({ abi: gasMeterAbi, bytecode: gasMeterBytecode, args: [search] });
      const answer = await client.call({ data: meter, gas: 60_000_000n }).then(
        () => ({ kind: "transport" }) as const,
        (error: unknown) => classifyCallError(error),
      );
      if (answer.kind !== "reverted") throw new Error("the gas meter did not answer with its measurement");
      const measured = decodeErrorResult({ abi: gasMeterAbi, data: answer.data });
      if (measured.errorName !== "Measured") throw new Error("the gas meter did not measure");
      const [used, , data] = measured.args;
      const facts = decodeFacts({ success: false, data });
      rows.push({
        group: market.group,
        marketId: market.id,
        request: new URLSearchParams(query).toString(),
        gas: intrinsicCreationGas(search) - 32_000n + used,
        candidates: facts.candidates.length,
        candidateGas: facts.candidates.map((candidate) => candidate.gasUsed),
      });
    }
    return rows;
  } finally {
    await devchain.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await measureSearchGas()) {
    const perCandidate = row.candidateGas.length ? `, per candidate ${row.candidateGas.join(" ")}` : "";
    console.log(`group ${row.group} market ${row.marketId}: ${row.gas} gas, ${row.candidates} candidates${perCandidate}  (${row.request})`);
  }
}
