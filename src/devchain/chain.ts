// The embedded chain: Foundry's anvil as a child process on loopback, reached over JSON-RPC like any node.
// A separate process keeps the EVM's memory out of the service (anvil's stays flat however heavy a call is),
// and the binary comes from a pinned npm package, so `npm ci` is the only set-up step.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { lookup } from "node:dns/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isIP } from "node:net";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type EIP1193RequestFn,
  type PublicClient,
  type WalletClient,
  type Transport,
  type Chain,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { DEVCHAIN_ID } from "./devchainId.ts";

export { DEVCHAIN_ID };

/** Hardhat's first default account (mnemonic "test test ... junk"): the well-known deployer of local chains. */
const DEPLOYER_PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;
/** Hardhat's second default account, a trader for demos and tests. */
export const TRADER_PRIVATE_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;

/** Balance of each of the two accounts, in ether (anvil's unit): 10^24 wei, as before. */
const GENESIS_BALANCE_ETHER = 1_000_000;
const BLOCK_GAS_LIMIT = 60_000_000;
/**
 * The genesis block's time, 2026-01-01T00:00:00Z: with the demo's blocks mined at fixed times after it, every
 * embedded chain has the same blocks, hashes included, so that documented answers (which name their block by
 * hash) are what a new chain answers. The chain's clock runs on from there.
 */
export const GENESIS_TIMESTAMP = 1_767_225_600;

/** Defined here: importing viem/chains (every chain viem knows) costs about a second of start-up. */
const devchain = defineChain({
  id: DEVCHAIN_ID,
  name: "Devchain",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

/** The platform package holding the anvil binary, pinned in package.json. */
const ANVIL_PACKAGE = "@foundry-rs/anvil-linux-amd64";
const READY_TIMEOUT_MS = 30_000;

export interface EmbeddedChain {
  /** JSON-RPC endpoint of the node, e.g. http://127.0.0.1:41233. */
  readonly url: string;
  /** Raw JSON-RPC requests (evm_mine, evm_setNextBlockTimestamp, ...). */
  readonly provider: { readonly request: EIP1193RequestFn };
  readonly publicClient: PublicClient<Transport, Chain>;
  /** Signs locally with {@link DEPLOYER_PRIVATE_KEY}. */
  readonly walletClient: WalletClient<Transport, Chain, Account>;
  /** A second funded account, for trades that move prices. */
  readonly traderClient: WalletClient<Transport, Chain, Account>;
  /** The anvil process, for its resident memory. */
  readonly pid: number;
  /** Settles when the node has exited, whoever stopped it: its exit code, or the signal that ended it. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /**
   * Keeps this process alive while the node runs (by default the node never holds the process: a script or a
   * test that is done exits, and the node with it).
   */
  hold(): void;
  /** Stops the node (and its watchdog); resolves once it has exited. */
  close(): Promise<void>;
}

export interface EmbeddedChainOptions {
  /** Address to listen on (an IP address or a host name); default 127.0.0.1. */
  readonly host?: string;
  /** Port to listen on; 0 (default) lets the kernel pick a free one. */
  readonly port?: number;
  /** A state dumped by anvil to start from (its accounts, blocks and head) instead of the genesis block. */
  readonly loadState?: { readonly file: string; readonly headTimestamp: bigint };
}

/** The anvil binary inside {@link ANVIL_PACKAGE}; a clear error on a platform it does not serve. */
function anvilBinary(): string {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `the embedded chain runs anvil from the npm package ${ANVIL_PACKAGE}, built for linux-x64 only; ` +
        `this is ${process.platform}-${process.arch}: install Foundry's anvil package for this platform ` +
        `(@foundry-rs/anvil-<platform>) and adapt src/devchain/chain.ts, or set RPC_URL_<chainId> to a node of your own`,
    );
  }
  const require = createRequire(import.meta.url);
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${ANVIL_PACKAGE}/package.json`);
  } catch {
    throw new Error(`the embedded chain needs the npm package ${ANVIL_PACKAGE}: run npm ci`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.anvil;
  if (bin === undefined) throw new Error(`${ANVIL_PACKAGE} declares no anvil binary`);
  return join(dirname(manifestPath), bin);
}

/**
 * Starts a fresh anvil: chain id 31337, automining, Hardhat's first two default accounts funded (anvil's
 * default mnemonic derives exactly those), a 60M block gas limit (which is also its eth_call cap), Prague; or
 * the same node from a state it dumped before (`loadState`).
 */
export async function startEmbeddedChain(options: EmbeddedChainOptions = {}): Promise<EmbeddedChain> {
  const binary = anvilBinary();
  const host = await ipAddressOf(options.host ?? "127.0.0.1");
  const args = [
    "--host", host,
    "--port", String(options.port ?? 0),
    "--chain-id", String(DEVCHAIN_ID),
    "--accounts", "2",
    "--balance", String(GENESIS_BALANCE_ETHER),
    "--gas-limit", String(BLOCK_GAS_LIMIT),
    "--hardfork", "prague",
    // anvil's clock starts at --timestamp whatever state it loads: a loaded chain's next block follows its head.
    "--timestamp", String(options.loadState ? options.loadState.headTimestamp + 1n : GENESIS_TIMESTAMP),
    ...(options.loadState ? ["--load-state", options.loadState.file] : []),
    "--silent",
  ];
  // Its own process group: a Ctrl-C meant for the service must not stop the chain under in-flight quotes;
  // the service stops it when it is done.
  const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-4_000)));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  child.once("error", () => undefined);
  const stop = guardAgainstOrphan(child);
  // The chain lives as long as someone closes it or the process ends; it must not keep the process alive.
  child.unref();
  (child.stderr as { unref?: () => void }).unref?.();
  const close = async () => {
    // Referenced again, so that the process waits for the exit it is about to cause.
    child.ref();
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    stop();
  };

  try {
    const port = await listeningPort(child, () => stderr);
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    const transport = http(url, { retryCount: 0, timeout: 60_000 });
    const publicClient = createPublicClient({ chain: devchain, transport, pollingInterval: 10 });
    const walletClient = createWalletClient({ chain: devchain, transport, account: privateKeyToAccount(DEPLOYER_PRIVATE_KEY), pollingInterval: 10 });
    const traderClient = createWalletClient({ chain: devchain, transport, account: privateKeyToAccount(TRADER_PRIVATE_KEY), pollingInterval: 10 });
    const chainId = await publicClient.getChainId();
    if (chainId !== DEVCHAIN_ID) throw new Error(`anvil answered chain id ${chainId}, not ${DEVCHAIN_ID}`);
    const provider = { request: publicClient.request as EIP1193RequestFn };
    const hold = () => void child.ref();
    return { url, provider, publicClient, walletClient, traderClient, pid: child.pid!, exited, hold, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** anvil listens on IP addresses only: a host name is resolved first. */
async function ipAddressOf(host: string): Promise<string> {
  return isIP(host) !== 0 ? host : (await lookup(host)).address;
}

/**
 * The port anvil listens on, read from the kernel: the listening TCP socket among the process's file
 * descriptors. With port 0 anvil picks a free port but, silenced, never says which; picking one here first
 * and passing it would race with other processes doing the same.
 */
async function listeningPort(child: ChildProcess, output: () => string): Promise<number> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
      throw new Error(`anvil exited before listening (${child.exitCode ?? child.signalCode ?? "not started"}): ${output().trim()}`);
    }
    const port = listeningPortOf(child.pid);
    if (port !== undefined) return port;
    if (Date.now() > deadline) throw new Error(`anvil did not listen within ${READY_TIMEOUT_MS} ms: ${output().trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function listeningPortOf(pid: number): number | undefined {
  const sockets = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode !== undefined) sockets.add(inode);
      } catch {
        // closed meanwhile
      }
    }
    for (const table of ["tcp", "tcp6"]) {
      for (const line of readFileSync(`/proc/${pid}/net/${table}`, "utf8").split("\n").slice(1)) {
        const fields = line.trim().split(/\s+/);
        // local_address is hex ip:port, st 0A is LISTEN, the tenth field the socket's inode.
        if (fields[3] === "0A" && sockets.has(fields[9]!)) return Number.parseInt(fields[1]!.split(":")[1]!, 16);
      }
    }
  } catch {
    // not there yet, or gone: the caller looks at the process again
  }
  return undefined;
}

const chains = new Set<ChildProcess>();
const killAll = () => {
  for (const child of chains) child.kill("SIGKILL");
};

/**
 * anvil has no option to die with its parent, so two guards: on the process's `exit` event it is killed
 * at once, and a watchdog shell, holding the read end of a pipe whose write end only this process holds,
 * kills it when that pipe closes: however this process ends, SIGKILL included. Returns the guards' removal.
 */
function guardAgainstOrphan(child: ChildProcess): () => void {
  if (chains.size === 0) process.on("exit", killAll);
  chains.add(child);
  const watchdog = spawn("/bin/sh", ["-c", `trap '' INT TERM HUP; read _; kill -KILL ${child.pid} 2>/dev/null`], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  watchdog.once("error", () => undefined);
  watchdog.unref();
  (watchdog.stdin as { unref?: () => void } | null)?.unref?.();
  return () => {
    chains.delete(child);
    if (chains.size === 0) process.off("exit", killAll);
    // The chain is gone already: stop the watchdog without letting it signal a pid that may be reused.
    watchdog.kill("SIGKILL");
  };
}
