// ganache 7 (the npm package `ganache`, a Shanghai node that takes no EIP-1898 block object in eth_call) as a child
// process on loopback, with the demo deployed on it as on the embedded chain: the same two accounts, the same
// contracts at the same addresses, blocks mined at the same times. ganache has neither evm_setAutomine nor
// evm_setNextBlockTimestamp, so the deployment's requests for them are said in ganache's words (miner_stop,
// miner_start, evm_mine with a timestamp).
import { createRequire } from "node:module";
import { createPublicClient, createWalletClient, defineChain, http, type Address, type EIP1193RequestFn } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { GENESIS_TIMESTAMP, TRADER_PRIVATE_KEY, type EmbeddedChain } from "../../src/devchain/chain.ts";
import { deployDemo } from "../../src/devchain/demo.ts";
import { closedPort } from "./closedPort.ts";
import { startProcess } from "./processes.ts";

/** ganache's own default chain id. */
export const GANACHE_CHAIN_ID = 1337;
/** Hardhat's first default account, the demo's deployer (as on the embedded chain). */
const DEPLOYER_PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const BALANCE_WEI = (10n ** 24n).toString();

export interface GanacheChain {
  readonly url: string;
  readonly chain: EmbeddedChain;
  readonly marketGroup: Address;
  close(): Promise<void>;
}

export async function startGanacheWithDemo(): Promise<GanacheChain> {
  const port = await closedPort();
  const cli = createRequire(import.meta.url).resolve("ganache/dist/node/cli.js");
  const args = [
    cli,
    "--chain.chainId", String(GANACHE_CHAIN_ID),
    "--chain.hardfork", "shanghai",
    "--chain.time", new Date(GENESIS_TIMESTAMP * 1000).toISOString(),
    "--miner.blockGasLimit", "60000000",
    "--server.host", "127.0.0.1",
    "--server.port", String(port),
    "--wallet.accounts", `${DEPLOYER_PRIVATE_KEY},${BALANCE_WEI}`,
    "--wallet.accounts", `${TRADER_PRIVATE_KEY},${BALANCE_WEI}`,
  ];
  const node = await startProcess("node", args, {}, /RPC Listening on/, 30_000);
  const url = `http://127.0.0.1:${port}`;
  try {
    const chain = defineChain({ id: GANACHE_CHAIN_ID, name: "ganache", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const transport = http(url, { retryCount: 0, timeout: 60_000 });
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 10 });
    const walletClient = createWalletClient({ chain, transport, account: privateKeyToAccount(DEPLOYER_PRIVATE_KEY), pollingInterval: 10 });
    const traderClient = createWalletClient({ chain, transport, account: privateKeyToAccount(TRADER_PRIVATE_KEY), pollingInterval: 10 });
    const raw = publicClient.request as EIP1193RequestFn;
    let nextTimestamp: number | undefined;
    const request = (async ({ method, params }: { method: string; params?: unknown[] }) => {
      if (method === "evm_setAutomine") return raw({ method: params?.[0] ? "miner_start" : "miner_stop", params: [] } as never);
      if (method === "evm_setNextBlockTimestamp") return void (nextTimestamp = Number(params?.[0]));
      if (method === "evm_mine" && nextTimestamp !== undefined) {
        const timestamp = nextTimestamp;
        nextTimestamp = undefined;
        return raw({ method, params: [{ timestamp }] } as never);
      }
      return raw({ method, params } as never);
    }) as EIP1193RequestFn;
    const embedded = {
      url,
      provider: { request },
      publicClient,
      walletClient,
      traderClient,
      pid: node.child.pid!,
      exited: new Promise<null>(() => undefined),
      hold: () => undefined,
      close: async () => void (await node.stop()),
    } as unknown as EmbeddedChain;
    const marketGroup = await deployDemo(embedded);
    return { url, chain: embedded, marketGroup, close: async () => void (await node.stop()) };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
