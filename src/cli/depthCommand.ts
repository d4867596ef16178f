// `quoter depth`: one depth ladder without an HTTP server, printed as the same JSON body the API answers. The
// request goes through the API's parser (parseDepthRequest) and the same service; only the transport differs.
import { depthJson } from "../http/batchAnswer.ts";
import { parseDepthRequest } from "../quote/depthRequest.ts";
import { quoteDepth } from "../service/depthLadder.ts";
import { DEPTH_HELP } from "./help.ts";
import { runOneShot } from "./oneShot.ts";

/** Runs the command; resolves to its exit status. */
export function runDepth(args: readonly string[]): Promise<number> {
  return runOneShot(
    {
      command: "depth",
      help: DEPTH_HELP,
      options: {
        collateral: "collateralAvailable",
        prices: "prices",
        to: "to",
        levels: "levels",
        "min-block": "minBlock",
        taker: "taker",
        "slippage-bps": "slippageBps",
        "deadline-seconds": "deadlineSeconds",
      },
      parse: parseDepthRequest,
      answer: async (quoter, request) => depthJson(await quoteDepth(quoter, request)),
    },
    args,
  );
}
