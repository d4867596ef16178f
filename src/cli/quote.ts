// `quoter quote`: one quote without an HTTP server, printed as the same JSON body the API answers. The request
// goes through the API's parser (parseQuoteRequest) and the same quoter service; only the transport differs.
// `quoter position` is the same for a held position (semantics §13): its id in place of the market id.
import { parseArgs } from "node:util";
import { parseQuoteRequest } from "../quote/request.ts";
import { isLiquidityRequest, parsePositionPath, parsePositionQuery, type AnyQuoteRequest, type PositionRequest } from "../quote/positionRequest.ts";
import type { Result } from "../quote/result.ts";
import type { QuoteError } from "../quote/quoteErrors.ts";
import { answerError, EXIT, print, readSetup, usageError as usageErrorOf, withQuoter, type Setup } from "./session.ts";
import { POSITION_HELP, QUOTE_HELP } from "./help.ts";
import { watchQuote } from "./watch.ts";
import { POSITIONAL_COUNT, POSITIONALS, QUOTE_OPTIONS, flagOfParam, requestParams } from "./quoteOptions.ts";

type Arguments = ReturnType<typeof requestParams> & { rpc?: string; watch: boolean };
/** Which command runs: `quote` (a new position, by market id) or `position` (a held one, by position id). */
type Command = "quote" | "position";

/** The request's parameters and --rpc, or the exit status once --help is printed or a usage error said. */
function readArguments(args: readonly string[], command: Command): Arguments | number {
  const usageError = (message: string) => usageErrorOf(command, message);
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: QUOTE_OPTIONS });
  } catch (error) {
    return usageError(parseArgsProblem(error, command));
  }
  const { positionals } = parsed;
  const values: Readonly<Record<string, unknown>> = parsed.values;
  if (values.help) {
    console.log(command === "quote" ? QUOTE_HELP : POSITION_HELP);
    return EXIT.ok;
  }
  const expected = command === "quote" ? POSITIONALS : POSITIONALS.replace("<marketId>", "<positionId>");
  if (positionals.length !== POSITIONAL_COUNT) return usageError(`expected ${expected}, got ${positionals.length} argument(s)`);
  return { ...requestParams(positionals, values), ...(typeof values.rpc === "string" ? { rpc: values.rpc } : {}), watch: values.watch === true };
}

/** What parseArgs refused, in a line that says what to type instead (never its advice about `--`). */
function parseArgsProblem(error: unknown, command: Command): string {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(message ?? "")?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    const flags = Object.keys(QUOTE_OPTIONS ?? {});
    const asFlag = flagOfParam(option.replace(/^-+/, ""));
    const suggestion = asFlag !== undefined ? `: did you mean --${asFlag}?` : `; the options are ${flags.map((flag) => `--${flag}`).join(", ")}`;
    return `unknown option ${option}${suggestion}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) return `option ${option.split(" ")[0]} needs a value`;
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `expected ${command === "quote" ? POSITIONALS : POSITIONALS.replace("<marketId>", "<positionId>")} and options, got more arguments`;
  return message ?? String(error);
}

/** Runs the command; resolves to its exit status. */
export async function runQuote(args: readonly string[], command: Command = "quote"): Promise<number> {
  const given = readArguments(args, command);
  if (typeof given === "number") return given;
  const setup = readSetup(command, given.rpc);
  if (typeof setup === "number") return setup;
  const request = command === "quote" ? parseQuoteRequest(given.params, given.query) : parsePosition(given);
  if (!request.ok) return answerError(request.error);
  return quoteOnce(setup, request.value, given.watch);
}

/** A held position's request: the third positional argument is its id. */
function parsePosition({ params, query }: Arguments): Result<PositionRequest, QuoteError> {
  const { marketId: positionId, ...path } = params;
  const parsedPath = parsePositionPath({ ...path, positionId });
  if (!parsedPath.ok) return parsedPath;
  const parsedQuery = parsePositionQuery(query);
  return parsedQuery.ok ? { ok: true, value: { ...parsedPath.value, ...parsedQuery.value } } : parsedQuery;
}

/** The quote; with --watch, its live stream until Ctrl-C. */
function quoteOnce(setup: Setup, request: AnyQuoteRequest, watch: boolean): Promise<number> {
  return withQuoter(setup, request.chainId, watch, async (quoter) => {
    if (watch) {
      await quoter.start();
      await watchQuote(quoter, request, (line) => process.stdout.write(`${line}\n`));
    } else {
      print("positionId" in request ? await quoter.quotePosition(request) : isLiquidityRequest(request) ? await quoter.quoteLiquidity!(request) : await quoter.quote(request));
    }
    return EXIT.ok;
  });
}
