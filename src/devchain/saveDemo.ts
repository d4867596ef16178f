// The build's last step (`node dist/devchain/saveDemo.js`): deploys the demo on a fresh embedded chain and saves its
// state for every later start to load, unless the saved one was made from these very sources already.
import { fileURLToPath } from "node:url";
import { startEmbeddedChain } from "./chain.ts";
import { deployDemo } from "./demo.ts";
import { DEMO_STATE_FILE, demoFingerprint, demoStateIsCurrent, saveDemoState } from "./demoState.ts";

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// The same sources in their two forms: the compiled build (dist/, `npm start`) and the TypeScript (tsx, the tests).
const fingerprints = {
  ".js": demoFingerprint(at("../devchain/"), at("../generated/contracts.js"), ".js"),
  ".ts": demoFingerprint(at("../../src/devchain/"), at("../../src/generated/contracts.ts"), ".ts"),
};

if (demoStateIsCurrent(Object.values(fingerprints))) {
  console.log(`demo chain: ${DEMO_STATE_FILE} is current`);
} else {
  const started = performance.now();
  const chain = await startEmbeddedChain();
  try {
    await deployDemo(chain);
    const { head } = await saveDemoState(chain, fingerprints);
    console.log(`demo chain: deployed and saved to ${DEMO_STATE_FILE} (block ${head.number}, ${head.hash}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await chain.close();
  }
}
