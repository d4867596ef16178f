// `quoter depth`: one depth ladder without an HTTP server, printed as the same JSON body the API answers. The
// request goes through the API's parser (parseDepthRequest) and the same service; only the transport differs.
import { parseArgs } from "node:util";
import { depthJson } from "../http/batchAnswer.ts";
import { parseDepthRequest } from "../quote/depthRequest.ts";
import { quoteDepth } from "../service/depthLadder.ts";
import { DEPTH_HELP } from "./help.ts";
import { answerError, EXIT, print, readSetup, usageError, withQuoter } from "./session.ts";

/** Each option and the API's query parameter it sends. */
const OPTIONS = {
  collateral: "collateralAvailable",
  prices: "prices",
  to: "to",
  levels: "levels",
  "min-block": "minBlock",
  taker: "taker",
  "slippage-bps": "slippageBps",
  "deadline-seconds": "deadlineSeconds",
} as const;

/** Runs the command; resolves to its exit status. */
export async function runDepth(args: readonly string[]): Promise<number> {
  let parsed;
  try {
    const options = Object.fromEntries(Object.keys(OPTIONS).map((flag) => [flag, { type: "string" as const }]));
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: { ...options, rpc: { type: "string" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    return usageError("depth", (error as Error).message.split(".")[0] ?? String(error));
  }
  const values: Readonly<Record<string, string | boolean | undefined>> = parsed.values;
  if (values.help === true) {
    console.log(DEPTH_HELP);
    return EXIT.ok;
  }
  if (parsed.positionals.length !== 3) return usageError("depth", `expected <chainId> <marketAddress> <marketId>, got ${parsed.positionals.length} argument(s)`);
  const setup = readSetup("depth", typeof values.rpc === "string" ? values.rpc : undefined);
  if (typeof setup === "number") return setup;
  const [chainId, marketAddress, marketId] = parsed.positionals;
  const query = Object.fromEntries(Object.entries(OPTIONS).flatMap(([flag, name]) => (typeof values[flag] === "string" ? [[name, values[flag]]] : [])));
  const request = parseDepthRequest({ chainId, marketAddress, marketId }, query);
  if (!request.ok) return answerError(request.error);
  return withQuoter(setup, request.value.chainId, false, async (quoter) => {
    print(depthJson(await quoteDepth(quoter, request.value)));
    return EXIT.ok;
  });
}
