// What `quoter depth` and `quoter liquidity` share: one request read from the command line by the API's own parser,
// answered by the same service without an HTTP server, and printed as the API's JSON body. Each option names the
// query parameter it sends; a switch sends "true"; the three positional arguments are the route's path.
import { parseArgs } from "node:util";
import type { QuoteError } from "../quote/quoteErrors.ts";
import type { Result } from "../quote/result.ts";
import type { QuoterService } from "../service/api.ts";
import { answerError, EXIT, print, readSetup, usageError, withQuoter } from "./session.ts";

export interface OneShot<Request extends { readonly chainId: number }> {
  readonly command: string;
  readonly help: string;
  /** Each option (without its dashes) and the query parameter it sends. */
  readonly options: Readonly<Record<string, string>>;
  /** Each switch and the query parameter it sets to "true". */
  readonly switches?: Readonly<Record<string, string>>;
  parse(params: Record<string, unknown>, query: Record<string, unknown>): Result<Request, QuoteError>;
  answer(quoter: QuoterService, request: Request): Promise<unknown>;
}

/** Runs `command` with `args`; resolves to its exit status. */
export async function runOneShot<Request extends { readonly chainId: number }>(command: OneShot<Request>, args: readonly string[]): Promise<number> {
  const switches = command.switches ?? {};
  let parsed;
  try {
    const options = {
      ...Object.fromEntries(Object.keys(command.options).map((flag) => [flag, { type: "string" as const }])),
      ...Object.fromEntries(Object.keys(switches).map((flag) => [flag, { type: "boolean" as const }])),
    };
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: { ...options, rpc: { type: "string" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    return usageError(command.command, (error as Error).message.split(".")[0] ?? String(error));
  }
  const values: Readonly<Record<string, string | boolean | undefined>> = parsed.values;
  if (values.help === true) {
    console.log(command.help);
    return EXIT.ok;
  }
  if (parsed.positionals.length !== 3) return usageError(command.command, `expected <chainId> <marketAddress> <marketId>, got ${parsed.positionals.length} argument(s)`);
  const setup = readSetup(command.command, typeof values.rpc === "string" ? values.rpc : undefined);
  if (typeof setup === "number") return setup;
  const [chainId, marketAddress, marketId] = parsed.positionals;
  const query = Object.fromEntries([
    ...Object.entries(command.options).flatMap(([flag, name]) => (typeof values[flag] === "string" ? [[name, values[flag]]] : [])),
    ...Object.entries(switches).flatMap(([flag, name]) => (values[flag] === true ? [[name, "true"]] : [])),
  ]);
  const request = command.parse({ chainId, marketAddress, marketId }, query);
  if (!request.ok) return answerError(request.error);
  return withQuoter(setup, request.value.chainId, false, async (quoter) => {
    print(await command.answer(quoter, request.value));
    return EXIT.ok;
  });
}
