// A process that starts an embedded chain, prints `anvil <pid>`, then ends as its argument says: `exit` (a
// normal end, without closing the chain) or `wait` (runs until a signal ends it). For the orphan tests.
import { startEmbeddedChain } from "../../src/devchain/chain.ts";

const chain = await startEmbeddedChain();
console.log(`anvil ${chain.pid}`);
if (process.argv[2] === "exit") process.exit(0);
setInterval(() => undefined, 60_000);
