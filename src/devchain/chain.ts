// The embedded chain: Hardhat's EDR running in this process, served to viem as an EIP-1193 provider.
import { createHardhatNetworkProvider } from "hardhat/internal/hardhat-network/provider/provider.js";
import { defaultHardhatNetworkParams } from "hardhat/internal/core/config/default-config.js";
import { JsonRpcServer } from "hardhat/internal/hardhat-network/jsonrpc/server.js";
import type { EIP1193Provider } from "hardhat/types/provider.js";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  createPublicClient,
  createWalletClient,
  custom,
  type Account,
  type PublicClient,
  type WalletClient,
  type Transport,
  type Chain,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";

import { DEVCHAIN_ID } from "./chainId.ts";

export { DEVCHAIN_ID };

/** Hardhat's first default account (mnemonic "test test ... junk"): the well-known deployer of local chains. */
export const DEPLOYER_PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;
/** Hardhat's second default account, a trader for demos and tests. */
export const TRADER_PRIVATE_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;

const GENESIS_BALANCE = 10n ** 24n;

export interface EmbeddedChain {
  readonly provider: EIP1193Provider;
  readonly publicClient: PublicClient<Transport, Chain>;
  /** Signs locally with {@link DEPLOYER_PRIVATE_KEY}. */
  readonly walletClient: WalletClient<Transport, Chain, Account>;
  /** A second funded account, for trades that move prices. */
  readonly traderClient: WalletClient<Transport, Chain, Account>;
}

/** Starts a fresh in-process EVM with chain id 31337, automining, and two funded accounts. */
export async function startEmbeddedChain(): Promise<EmbeddedChain> {
  const edr = await createHardhatNetworkProvider(
    {
      hardfork: "prague",
      chainId: DEVCHAIN_ID,
      networkId: DEVCHAIN_ID,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: "priority",
      chains: defaultHardhatNetworkParams.chains,
      genesisAccounts: [DEPLOYER_PRIVATE_KEY, TRADER_PRIVATE_KEY].map((privateKey) => ({
        privateKey,
        balance: GENESIS_BALANCE,
      })),
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );
  const provider = collectingNativeGarbage(edr);
  const transport = custom(provider, { retryCount: 0 });
  const publicClient = createPublicClient({ chain: hardhat, transport });
  const walletClient = createWalletClient({ chain: hardhat, transport, account: privateKeyToAccount(DEPLOYER_PRIVATE_KEY) });
  const traderClient = createWalletClient({ chain: hardhat, transport, account: privateKeyToAccount(TRADER_PRIVATE_KEY) });
  return { provider, publicClient, walletClient, traderClient };
}

export interface JsonRpcEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the chain over JSON-RPC on HTTP, with Hardhat's own server, so that any client (and the
 * quoter through an RPC URL) sees exactly what `hardhat node` answers. Port 0 picks a free port.
 */
export async function serveJsonRpc(chain: EmbeddedChain, host = "127.0.0.1", port = 0): Promise<JsonRpcEndpoint> {
  const server = new JsonRpcServer({ hostname: host, port, provider: chain.provider as never });
  const { address, port: actualPort } = await server.listen();
  return { url: `http://${address}:${actualPort}`, close: () => server.close() };
}

/** Growth of the resident set, above its lowest point since the last forced collection, that forces the next. */
const NATIVE_GARBAGE_BUDGET = 256 * 1024 * 1024;

/**
 * EDR's answers hold native memory (execution traces) behind small JavaScript objects, so V8 sees no reason
 * to collect them: serving deployless searches, the process grew by megabytes per call, to gigabytes under
 * load. When the resident set has grown by {@link NATIVE_GARBAGE_BUDGET} this forces a full collection,
 * whose finalizers release that memory. The floor is re-read after each collection, once the finalizers
 * have run, so it does not ratchet up. Cheap requests (block numbers, views) rarely reach the budget, so they
 * do not pay for collections. Only the embedded chain does this; a real RPC endpoint is another process.
 */
function collectingNativeGarbage(provider: EIP1193Provider): EIP1193Provider {
  setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as () => void;
  let floor = Number.POSITIVE_INFINITY;
  const request: EIP1193Provider["request"] = async (args) => {
    try {
      return await provider.request(args);
    } finally {
      const rss = process.memoryUsage.rss();
      floor = Math.min(floor, rss);
      if (rss > floor + NATIVE_GARBAGE_BUDGET) {
        collect();
        floor = Number.POSITIVE_INFINITY;
      }
    }
  };
  return Object.assign(Object.create(provider) as EIP1193Provider, { request });
}
