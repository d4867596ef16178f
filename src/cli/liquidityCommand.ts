// `quoter liquidity`: one new liquidity position's quote without an HTTP server, printed as the same JSON body the
// API answers. The request goes through the API's parser (parseLiquidityRequest) and the same service; only the
// transport differs.
import { parseLiquidityRequest } from "../quote/liquidityRequest.ts";
import { LIQUIDITY_HELP } from "./help.ts";
import { runOneShot } from "./oneShot.ts";

/** Runs the command; resolves to its exit status. */
export function runLiquidity(args: readonly string[]): Promise<number> {
  return runOneShot(
    {
      command: "liquidity",
      help: LIQUIDITY_HELP,
      options: {
        collateral: "collateralAvailable",
        "lower-price": "lowerPrice",
        "upper-price": "upperPrice",
        "min-block": "minBlock",
        taker: "taker",
        "slippage-bps": "slippageBps",
        "deadline-seconds": "deadlineSeconds",
      },
      switches: { trace: "trace" },
      parse: parseLiquidityRequest,
      answer: (quoter, request) => quoter.quoteLiquidity(request),
    },
    args,
  );
}
