// `quoter quote`: one quote without an HTTP server, printed as the same JSON body the API answers. The request
// goes through the API's parser (parseQuoteRequest) and the same quoter service; only the transport differs.
import { parseArgs } from "node:util";
import { ConfigError, loadConfig, parseRpcUrlList } from "../config.ts";
import { DEVCHAIN_ID } from "../devchain/chainId.ts";
import type { Devchain } from "../devchain/devchain.ts";
import { createLogger } from "../observability/logger.ts";
import { internalError, QuoteError } from "../quote/errors.ts";
import { statusOf } from "../http/httpErrors.ts";
import { parseQuoteRequest } from "../quote/request.ts";
import { createQuoterFromConfig } from "../service/fromConfig.ts";
import { QUOTE_HELP } from "./help.ts";

export const EXIT = { ok: 0, clientError: 1, usage: 2, serverError: 3 } as const;

/** Maps CLI options to the API's query parameters (a repeated option stays repeated: the parser rejects it). */
const QUERY_OPTIONS = {
  "expected-price": "expectedPrice",
  collateral: "collateralAvailable",
  "price-limit": "priceLimit",
  "max-iterations": "maxIterations",
  search: "search",
} as const;

function usageError(message: string): number {
  process.stderr.write(`quoter quote: ${message}\nRun quoter quote --help for usage.\n`);
  return EXIT.usage;
}

function print(body: unknown): void {
  process.stdout.write(`${JSON.stringify(body)}\n`);
}

/** Runs the command; resolves to its exit status. */
export async function runQuote(args: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        "expected-price": { type: "string", multiple: true },
        collateral: { type: "string", multiple: true },
        "price-limit": { type: "string", multiple: true },
        "max-iterations": { type: "string", multiple: true },
        search: { type: "string", multiple: true },
        rpc: { type: "string" },
        trace: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(QUOTE_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 3) return usageError(`expected <chainId> <marketAddress> <marketId>, got ${positionals.length} argument(s)`);

  let config;
  let rpcUrls: string[] | undefined;
  try {
    config = loadConfig();
    if (values.rpc !== undefined) rpcUrls = parseRpcUrlList("--rpc", values.rpc);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`quoter quote: invalid configuration: ${error.message}\n`);
    return EXIT.usage;
  }

  const [chainId, marketAddress, marketId] = positionals;
  const query: Record<string, string | string[]> = {};
  for (const [option, param] of Object.entries(QUERY_OPTIONS)) {
    const given = values[option as keyof typeof QUERY_OPTIONS];
    if (given !== undefined) query[param] = given.length === 1 ? given[0]! : given;
  }
  if (values.trace) query.trace = "true";
  const request = parseQuoteRequest({ chainId, marketAddress, marketId }, query);
  if (!request.ok) return answerError(request.error);

  const logger = createLogger({ level: config.logLevel, format: config.logFormat, fd: 2 });
  let devchain: Devchain | undefined;
  const id = request.value.chainId;
  let urls = rpcUrls ?? config.rpcUrls.get(id);
  if (urls === undefined && id === DEVCHAIN_ID) {
    const { startDevchain } = await import("../devchain/devchain.ts");
    devchain = await startDevchain();
    urls = [devchain.endpoint.url];
  }
  try {
    const { quoter } = createQuoterFromConfig(config, urls === undefined ? new Map() : new Map([[id, urls]]), { logger });
    print(await quoter.quote(request.value));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof QuoteError) return answerError(error);
    logger.error({ err: error }, "quote failed");
    return answerError(internalError());
  } finally {
    await devchain?.close();
  }
}

function answerError(error: QuoteError): number {
  print(error.toBody());
  // The exit status says which class of status the API would answer.
  return statusOf(error) >= 500 ? EXIT.serverError : EXIT.clientError;
}
