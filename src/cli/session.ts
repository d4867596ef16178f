// What the commands that quote share: their exit statuses, the setup (the environment's settings and --rpc), a
// quoter on the chain asked (an embedded demo chain started for chain 31337 when no endpoint is configured), and
// how an answer's error is printed.
import { ConfigError, forEmbeddedChain, loadConfig, parseRpcUrlList, type Config } from "../config.ts";
import { DEVCHAIN_ID } from "../devchain/devchainId.ts";
import type { Devchain } from "../devchain/devchain.ts";
import { statusOf } from "../http/httpErrors.ts";
import { createLogger } from "../observability/logger.ts";
import { internalError, QuoteError } from "../quote/quoteErrors.ts";
import type { QuoterService } from "../service/api.ts";
import { createQuoterFromConfig } from "../service/fromConfig.ts";

export const EXIT = { ok: 0, clientError: 1, usage: 2, serverError: 3 } as const;

export type Setup = { readonly config: Config; readonly rpcUrls?: string[] };

/** A usage error of `command`: a line on stderr, nothing on stdout. */
export function usageError(command: string, message: string): number {
  process.stderr.write(`quoter ${command}: ${message}\nRun quoter ${command} --help for usage.\n`);
  return EXIT.usage;
}

/** One line of JSON on stdout. */
export function print(body: unknown): void {
  process.stdout.write(`${typeof body === "string" ? body : JSON.stringify(body)}\n`);
}

/** The environment's settings and the --rpc URLs, or the exit status of a configuration error. */
export function readSetup(command: string, rpc: string | undefined): Setup | number {
  try {
    const config = loadConfig();
    return rpc === undefined ? { config } : { config, rpcUrls: parseRpcUrlList("--rpc", rpc) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`quoter ${command}: invalid configuration: ${error.message}\n`);
    return EXIT.usage;
  }
}

/** The error body on stdout; the exit status says which class of status the API would answer. */
export function answerError(error: QuoteError): number {
  print(error.toBody());
  return statusOf(error) >= 500 ? EXIT.serverError : EXIT.clientError;
}

/**
 * `run` with a quoter of chain `chainId` on --rpc, else RPC_URL_<chainId>, else (chain 31337) an embedded demo chain
 * started for it. `watch`: heads are followed where they are pushed; otherwise the latest block is read once, as a
 * quote on an idle chain does. A QuoteError thrown is printed as the API's body; anything else is a 500's.
 */
export async function withQuoter(
  { config, rpcUrls }: Setup,
  chainId: number,
  watch: boolean,
  run: (quoter: QuoterService) => Promise<number>,
): Promise<number> {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, fd: 2 });
  let devchain: Devchain | undefined;
  let urls = rpcUrls ?? config.rpcUrls.get(chainId);
  if (urls === undefined && chainId === DEVCHAIN_ID) {
    const { startDevchain } = await import("../devchain/devchain.ts");
    devchain = await startDevchain({ deploy: config.demoChain === "deploy" });
    urls = [devchain.endpoint.url];
  }
  const pushed = devchain ? new Map([[chainId, devchain.endpoint.webSocketUrl]]) : config.rpcWsUrls;
  const { quoter } = createQuoterFromConfig(devchain ? forEmbeddedChain(config) : config, urls === undefined ? new Map() : new Map([[chainId, urls]]), {
    logger,
    webSocketUrls: watch && !rpcUrls ? pushed : new Map(),
    ...(rpcUrls ? { source: "--rpc" } : {}),
  });
  try {
    return await run(quoter);
  } catch (error) {
    if (error instanceof QuoteError) return answerError(error);
    logger.error({ err: error }, "quote failed");
    return answerError(internalError());
  } finally {
    await quoter.close();
    await devchain?.close();
  }
}
