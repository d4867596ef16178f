// The help texts of the `quoter` command, apart from the code so that printing them loads nothing else.
import { MAX_ITERATIONS } from "../quote/limits.ts";
import { BASE_PATH } from "../http/paths.ts";
import { settingsHelp } from "../settingsText.ts";

export const HELP = `Usage: quoter <command> [options]

Commands:
  serve      the HTTP service (as npm start); with no RPC_URL_<chainId> set, on the embedded demo chain
  devchain   the embedded demo chain as a JSON-RPC node (as npm run devchain)
  quote      one quote, printed as the API's JSON body, without an HTTP server
  position   one quote of a held position (add to it, reduce, close, turn it around), as quote prints it
  depth      one market's depth ladder (the exact quote at several prices), printed as the API's JSON body
  liquidity  the largest liquidity a budget mints in a price range, proven, printed as the API's JSON body

Run quoter <command> --help for a command's options. Settings come from the environment: see .env.example.`;

export const SERVE_HELP = `Usage: quoter serve

Starts the quoter's HTTP service, as npm start does: GET ${BASE_PATH}/<chainId>/<marketAddress>/<marketId>, the
OpenAPI document and docs, /health, /ready and /metrics. It takes no options: every setting comes from the
environment (below, and in .env.example). With no RPC_URL_<chainId> set, it starts the embedded demo chain and
serves chain 31337 on it. A bad setting stops it with exit status 1.

Settings (environment variables, with their defaults):
${settingsHelp()}`;

export const QUOTE_HELP = `Usage: quoter quote <chainId> <marketAddress> <marketId> --expected-price P --collateral C
                    [--price-limit L] [--max-iterations N] [--search exact] [--min-block B]
                    [--taker ADDRESS [--slippage-bps S] [--deadline-seconds D]]
                    [--rpc URL[,URL...]] [--trace] [--watch]

Quotes once, as GET ${BASE_PATH}/<chainId>/<marketAddress>/<marketId> would, without starting an HTTP server, and
prints the API's JSON body on stdout (one line): the 200 body, or the error body {"error", "details"} of the
status the API would answer. Values are read by the API's rules (docs/semantics.md: exact decimals, wei).

  --expected-price P   expectedPrice: the price expected after the trade (e.g. 1030, 0.55, 1e-7)
  --collateral C       collateralAvailable: the budget in wei (a decimal integer)
  --price-limit L      priceLimit (default: the current price)
  --max-iterations N   maxIterations, 1 to ${MAX_ITERATIONS} (default ${MAX_ITERATIONS})
  --search S           bisection (default: the interface's search) or exact (the largest size, proven)
  --min-block B        minBlock: answer at block B or later (after a trade: its receipt's block number)
  --taker ADDRESS      the account that will trade: the answer adds "trade", the createTraderPosition
                       transaction and the ERC-20 approval it needs first (or null), ready to sign, with the
                       taker's balance, "calls" (both, in order, as a wallet's wallet_sendCalls takes them)
                       and the trade simulated from it. This command holds no keys: it prints them, and sends
                       neither (sign and send them with your wallet, the approval first)
  --slippage-bps S     with --taker: room for the price to move, 0 to 5000 basis points of maxCollateral (default 50)
  --deadline-seconds D with --taker: the trade's deadline after the answer's block, 1 to 86400 s (default 300)
  --rpc URL[,URL...]   the chain's JSON-RPC endpoint(s), in fallback order. Default: RPC_URL_<chainId>; for
                       chain 31337 with neither, an embedded demo chain is started (as npm start does)
  --trace              add the search's candidates (trace=true)
  --watch              keep quoting: one line of JSON per event of the live stream ({"event", "id", "data"}:
                       a quote, an error, the end), at once and on each block that changes the answer; Ctrl-C
                       ends it (exit status 0)
  -h, --help           this help

Other settings (RPC_TIMEOUT_MS, QUOTE_DEADLINE_MS, SEARCH_STRATEGY, SEARCH_GAS_CAP, LOG_LEVEL, ...) come from
the environment, as for \`quoter serve\`. Warnings are logged on stderr; stdout holds only the answer.

Exit status:
  0  the quote succeeded (the API's 200)
  1  the API would answer 4xx: the error body is printed on stdout
  3  the API would answer 5xx (e.g. 503 Chain RPC unavailable): the error body is printed on stdout
  2  usage or configuration error: a message on stderr, nothing on stdout`;

export const POSITION_HELP = `Usage: quoter position <chainId> <marketAddress> <positionId> --expected-price P --collateral C
                    [--price-limit L] [--max-iterations N] [--search exact] [--min-block B]
                    [--taker ADDRESS [--slippage-bps S] [--deadline-seconds D]]
                    [--rpc URL[,URL...]] [--trace] [--watch]

Quotes a held position once, as GET ${BASE_PATH}/<chainId>/<marketAddress>/positions/<positionId> would, without
starting an HTTP server, and prints the API's JSON body on stdout (one line): the largest trade (maxSize, positive
buys) whose modification of the position fits the budget and the price, its targetSize and the collateral it moves
(collateralDelta, signed), or the error body. The options are quoter quote's, but --collateral may be 0 (only trades
that need no new collateral: a reduce, a close, a turnaround the released collateral pays for), and --taker must be
the position's owner (its trade is modifyTraderPosition, printed, never sent).

Exit status: 0 the quote (200); 1 the API would answer 4xx; 3 it would answer 5xx; 2 usage or configuration error.`;

export const DEPTH_HELP = `Usage: quoter depth <chainId> <marketAddress> <marketId> --collateral C
                    (--prices P,P,... | --to T --levels N) [--min-block B]
                    [--taker ADDRESS [--slippage-bps S] [--deadline-seconds D]] [--rpc URL[,URL...]]

The depth ladder of one market, as GET ${BASE_PATH}/<chainId>/<marketAddress>/<marketId>/depth would answer it,
without starting an HTTP server: the largest size (search=exact) at each price, all at one block, printed as the
API's JSON body on stdout (one line), or the error body of the status the API would answer.

  --collateral C       collateralAvailable: the budget in wei (a decimal integer), the same at every level
  --prices P,P,...     the levels' prices, 1 to 50, all on one side of the current price
  --to T --levels N    or N prices evenly spaced from the current price (excluded) to T (included), each rounded
                       toward the current price
  --min-block B        minBlock: answer at block B or later
  --taker ADDRESS      each level adds its trade, as quoter quote --taker prints it (printed, never sent)
  --slippage-bps S, --deadline-seconds D
                       with --taker, as for quoter quote
  --rpc URL[,URL...]   the chain's JSON-RPC endpoint(s), as for quoter quote
  -h, --help           this help

Exit status: 0 the ladder (200); 1 the API would answer 4xx; 3 it would answer 5xx; 2 usage or configuration error.`;


export const LIQUIDITY_HELP = `Usage: quoter liquidity <chainId> <marketAddress> <marketId> --collateral C
                    [--lower-price P] [--upper-price P] [--min-block B]
                    [--taker ADDRESS [--slippage-bps S] [--deadline-seconds D]] [--rpc URL[,URL...]] [--trace]

Quotes a new liquidity position once, as GET ${BASE_PATH}/<chainId>/<marketAddress>/<marketId>/liquidity would,
without starting an HTTP server, and prints the API's JSON body on stdout (one line): the largest liquidity the
budget mints in the range, proven (one more needs more collateral than the budget), what its mint takes
(amountBaseToken, amountQuoteToken, maxCollateral), the market group's own quote for the budget beside it
(groupQuote, with whether it fits), or the error body of the status the API would answer.

  --collateral C       collateralAvailable: the budget in wei (a decimal integer)
  --lower-price P      lowerPrice: the range's lower price (default: the market's lowest); the tick at or below it
  --upper-price P      upperPrice: the range's upper price (default: the market's highest); the tick at or above it
  --min-block B        minBlock: answer at block B or later
  --taker ADDRESS      the account that will provide the liquidity: the answer adds "trade", the
                       createLiquidityPosition transaction and the approval it needs first (or null), with
                       "calls" and the simulation, as quoter quote --taker prints them (printed, never sent)
  --slippage-bps S, --deadline-seconds D
                       with --taker, as for quoter quote (the slippage lowers the minimum amounts and raises the
                       collateral limit, never past the budget)
  --rpc URL[,URL...]   the chain's JSON-RPC endpoint(s), as for quoter quote
  --trace              add the liquidities tried (trace=true)
  -h, --help           this help

Exit status: 0 the quote (200); 1 the API would answer 4xx; 3 it would answer 5xx; 2 usage or configuration error.`;
