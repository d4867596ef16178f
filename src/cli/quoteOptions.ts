// `quoter quote`'s command line, read from the table of quote parameters (src/quote/params.ts): the path
// parameters are its positional arguments, in the table's order, and each query parameter with a flag is an
// option. A repeated option stays repeated, so that the parser rejects it as the API does; a switch sends its text.
import type { ParseArgsConfig } from "node:util";
import { paramsIn } from "../quote/params.ts";

const PATH_PARAMS = paramsIn("path").map(([name]) => name);
const OPTION_PARAMS = paramsIn("query").flatMap(([name, param]) => (param.cli === undefined ? [] : [{ name, ...param.cli }]));

/** parseArgs's options: the parameters', then the command's own. */
export const QUOTE_OPTIONS: ParseArgsConfig["options"] = {
  ...Object.fromEntries(
    OPTION_PARAMS.map(({ flag, sends }) => [flag, sends === undefined ? { type: "string", multiple: true } : { type: "boolean" }]),
  ),
  rpc: { type: "string" },
  watch: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

/** The flag of a query parameter named as the API names it (`collateralAvailable` → `collateral`), any case. */
export function flagOfParam(name: string): string | undefined {
  return OPTION_PARAMS.find((param) => param.name.toLowerCase() === name.toLowerCase())?.flag;
}

/** `<chainId> <marketAddress> <marketId>`: what the positional arguments are. */
export const POSITIONALS = PATH_PARAMS.map((name) => `<${name}>`).join(" ");
export const POSITIONAL_COUNT = PATH_PARAMS.length;

/** The API's path and query parameters from the positional arguments and the options given. */
export function requestParams(
  positionals: readonly string[],
  values: Readonly<Record<string, unknown>>,
): { params: Record<string, string | undefined>; query: Record<string, string | string[]> } {
  const params = Object.fromEntries(PATH_PARAMS.map((name, i) => [name, positionals[i]]));
  const query: Record<string, string | string[]> = {};
  for (const { name, flag, sends } of OPTION_PARAMS) {
    const given = values[flag];
    if (sends !== undefined) {
      if (given === true) query[name] = sends;
    } else if (Array.isArray(given)) {
      query[name] = given.length === 1 ? (given[0] as string) : (given as string[]);
    }
  }
  return { params, query };
}
