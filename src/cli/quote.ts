// `quoter quote`: one quote without an HTTP server, printed as the same JSON body the API answers. The request
// goes through the API's parser (parseQuoteRequest) and the same quoter service; only the transport differs.
import { parseArgs } from "node:util";
import { ConfigError, loadConfig, parseRpcUrlList, type Config } from "../config.ts";
import { DEVCHAIN_ID } from "../devchain/chainId.ts";
import type { Devchain } from "../devchain/devchain.ts";
import { createLogger } from "../observability/logger.ts";
import { internalError, QuoteError } from "../quote/quoteErrors.ts";
import { statusOf } from "../http/httpErrors.ts";
import { parseQuoteRequest, type QuoteRequest } from "../quote/request.ts";
import { createQuoterFromConfig } from "../service/fromConfig.ts";
import { QUOTE_HELP } from "./help.ts";
import { watchQuote } from "./watch.ts";
import { POSITIONAL_COUNT, POSITIONALS, QUOTE_OPTIONS, flagOfParam, requestParams } from "./quoteOptions.ts";

const EXIT = { ok: 0, clientError: 1, usage: 2, serverError: 3 } as const;

type Arguments = ReturnType<typeof requestParams> & { rpc?: string; watch: boolean };
type Setup = { config: Config; rpcUrls?: string[] };

function usageError(message: string): number {
  process.stderr.write(`quoter quote: ${message}\nRun quoter quote --help for usage.\n`);
  return EXIT.usage;
}

function print(body: unknown): void {
  process.stdout.write(`${JSON.stringify(body)}\n`);
}

/** The request's parameters and --rpc, or the exit status once --help is printed or a usage error said. */
function readArguments(args: readonly string[]): Arguments | number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: QUOTE_OPTIONS });
  } catch (error) {
    return usageError(parseArgsProblem(error));
  }
  const { positionals } = parsed;
  const values: Readonly<Record<string, unknown>> = parsed.values;
  if (values.help) {
    console.log(QUOTE_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== POSITIONAL_COUNT) return usageError(`expected ${POSITIONALS}, got ${positionals.length} argument(s)`);
  return { ...requestParams(positionals, values), ...(typeof values.rpc === "string" ? { rpc: values.rpc } : {}), watch: values.watch === true };
}

/** What parseArgs refused, in a line that says what to type instead (never its advice about `--`). */
function parseArgsProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(message ?? "")?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    const flags = Object.keys(QUOTE_OPTIONS ?? {});
    const asFlag = flagOfParam(option.replace(/^-+/, ""));
    const suggestion = asFlag !== undefined ? `: did you mean --${asFlag}?` : `; the options are ${flags.map((flag) => `--${flag}`).join(", ")}`;
    return `unknown option ${option}${suggestion}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) return `option ${option.split(" ")[0]} needs a value`;
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `expected ${POSITIONALS} and options, got more arguments`;
  return message ?? String(error);
}

/** The environment's settings and the --rpc URLs, or the exit status of a configuration error. */
function readSetup(rpc: string | undefined): Setup | number {
  try {
    const config = loadConfig();
    return rpc === undefined ? { config } : { config, rpcUrls: parseRpcUrlList("--rpc", rpc) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`quoter quote: invalid configuration: ${error.message}\n`);
    return EXIT.usage;
  }
}

/** Runs the command; resolves to its exit status. */
export async function runQuote(args: readonly string[]): Promise<number> {
  const given = readArguments(args);
  if (typeof given === "number") return given;
  const setup = readSetup(given.rpc);
  if (typeof setup === "number") return setup;
  const request = parseQuoteRequest(given.params, given.query);
  if (!request.ok) return answerError(request.error);
  return quoteOnce(setup, request.value, given.watch);
}

/**
 * The quote on --rpc, else RPC_URL_<chainId>, else (chain 31337) an embedded demo chain started for it; with
 * --watch, its live stream until Ctrl-C.
 */
async function quoteOnce({ config, rpcUrls }: Setup, request: QuoteRequest, watch: boolean): Promise<number> {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, fd: 2 });
  let devchain: Devchain | undefined;
  const id = request.chainId;
  let urls = rpcUrls ?? config.rpcUrls.get(id);
  if (urls === undefined && id === DEVCHAIN_ID) {
    const { startDevchain } = await import("../devchain/devchain.ts");
    devchain = await startDevchain();
    urls = [devchain.endpoint.url];
  }
  // One quote needs no pushed heads: the latest block is read once, as a quote on an idle chain does. A watch
  // takes them where they are pushed (RPC_WS_URL_<chainId>, the demo chain's WebSocket), else polls.
  const pushed = devchain ? new Map([[id, devchain.endpoint.webSocketUrl]]) : config.rpcWsUrls;
  const { quoter } = createQuoterFromConfig(config, urls === undefined ? new Map() : new Map([[id, urls]]), {
    logger,
    webSocketUrls: watch && !rpcUrls ? pushed : new Map(),
    ...(rpcUrls ? { source: "--rpc" } : {}),
  });
  try {
    if (watch) {
      await quoter.start();
      await watchQuote(quoter, request, (line) => process.stdout.write(`${line}\n`));
      return EXIT.ok;
    }
    print(await quoter.quote(request));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof QuoteError) return answerError(error);
    logger.error({ err: error }, "quote failed");
    return answerError(internalError());
  } finally {
    await quoter.close();
    await devchain?.close();
  }
}

function answerError(error: QuoteError): number {
  print(error.toBody());
  // The exit status says which class of status the API would answer.
  return statusOf(error) >= 500 ? EXIT.serverError : EXIT.clientError;
}
