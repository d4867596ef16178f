// The `quoter` command (bin/quoter.js runs this file through tsx): serve, devchain, quote, position, depth,
// liquidity. Each command loads its modules only when it runs, so that --help answers at once.
import { HELP, POSITION_HELP, QUOTE_HELP, SERVE_HELP } from "./help.ts";

const isHelp = (arg: string | undefined) => arg === "-h" || arg === "--help" || arg === "help";

function usage(message: string): never {
  process.stderr.write(`quoter: ${message}\n\n${HELP}\n`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case "serve":
    if (rest.some(isHelp)) {
      console.log(SERVE_HELP);
      process.exit(0);
    }
    if (rest.length > 0) usage(`serve takes no arguments (got ${rest.join(" ")}); settings come from the environment`);
    await import("../main.ts");
    break;
  case "devchain":
    // src/devchain/serve.ts reads its own flags (--port, --host, --help) from process.argv.
    process.argv = [process.argv[0]!, process.argv[1]!, ...rest];
    await import("../devchain/serve.ts");
    break;
  case "quote":
    if (rest.some(isHelp)) {
      console.log(QUOTE_HELP);
      process.exit(0);
    }
    process.exit(await (await import("./quote.ts")).runQuote(rest));
  case "position":
    if (rest.some(isHelp)) {
      console.log(POSITION_HELP);
      process.exit(0);
    }
    process.exit(await (await import("./quote.ts")).runQuote(rest, "position"));
  case "depth":
    process.exit(await (await import("./depthCommand.ts")).runDepth(rest));
  case "liquidity":
    process.exit(await (await import("./liquidityCommand.ts")).runLiquidity(rest));
  default:
    if (isHelp(command)) {
      console.log(HELP);
      process.exit(0);
    }
    usage(command === undefined ? "a command is required" : `unknown command "${command}"`);
}
