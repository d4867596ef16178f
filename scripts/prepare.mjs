// What `npm ci` and `npm install` run in a clone: the build (src/ to dist/), when its tools are installed. An
// install without them (--omit=dev) skips it and says so: the compiled service ships in the package (npm pack),
// which installs and starts with production dependencies only.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The build's own tools: @types/node is a dev dependency only (TypeScript itself may come as a peer of viem). */
function buildable() {
  if ((process.env.npm_config_omit ?? "").split(/[\s,]+/).includes("dev")) return false;
  try {
    require.resolve("typescript");
    require.resolve("@types/node/package.json");
    return true;
  } catch {
    return false;
  }
}
if (buildable()) {
  execSync("npm run build", { stdio: "inherit" });
} else if (!existsSync(new URL("../dist/main.js", import.meta.url))) {
  console.warn("quoter: not built (the build's tools are dev dependencies): run `npm ci` to build, or install the package made by `npm pack`");
}
