// `quoter quote`: one quote without an HTTP server, printed as the same JSON body the API answers. The request
// goes through the API's parser (parseQuoteRequest) and the same quoter service; only the transport differs.
import { parseArgs } from "node:util";
import { parseQuoteRequest, type QuoteRequest } from "../quote/request.ts";
import { answerError, EXIT, print, readSetup, usageError as usageErrorOf, withQuoter, type Setup } from "./session.ts";
import { QUOTE_HELP } from "./help.ts";
import { watchQuote } from "./watch.ts";
import { POSITIONAL_COUNT, POSITIONALS, QUOTE_OPTIONS, flagOfParam, requestParams } from "./quoteOptions.ts";

type Arguments = ReturnType<typeof requestParams> & { rpc?: string; watch: boolean };
const usageError = (message: string) => usageErrorOf("quote", message);

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

/** Runs the command; resolves to its exit status. */
export async function runQuote(args: readonly string[]): Promise<number> {
  const given = readArguments(args);
  if (typeof given === "number") return given;
  const setup = readSetup("quote", given.rpc);
  if (typeof setup === "number") return setup;
  const request = parseQuoteRequest(given.params, given.query);
  if (!request.ok) return answerError(request.error);
  return quoteOnce(setup, request.value, given.watch);
}

/** The quote; with --watch, its live stream until Ctrl-C. */
function quoteOnce(setup: Setup, request: QuoteRequest, watch: boolean): Promise<number> {
  return withQuoter(setup, request.chainId, watch, async (quoter) => {
    if (watch) {
      await quoter.start();
      await watchQuote(quoter, request, (line) => process.stdout.write(`${line}\n`));
    } else {
      print(await quoter.quote(request));
    }
    return EXIT.ok;
  });
}
