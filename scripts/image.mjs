// `npm run image`: builds the Dockerfile as quoter:latest with podman or docker, whichever is installed. The base
// image is the official Node 24 slim image unless QUOTER_BASE_IMAGE names another (a registry mirror, a local
// stand-in). The builder's npm configuration and the CA bundle it names (its cafile, else the NODE_EXTRA_CA_CERTS
// node trusts: a registry reached through a TLS proxy) go in as build secrets (never a layer), each only where it
// exists. Extra arguments go to the engine's build (e.g. -t another:tag).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const engine = ["podman", "docker"].find((name) => spawnSync(name, ["--version"], { stdio: "ignore" }).status === 0);
if (engine === undefined) {
  console.error("npm run image: neither podman nor docker is installed");
  process.exit(1);
}
const npmConfig = (key) => {
  try {
    const value = execFileSync("npm", ["config", "get", key], { encoding: "utf8" }).trim();
    return value !== "" && value !== "null" && value !== "undefined" && existsSync(value) ? value : undefined;
  } catch {
    return undefined;
  }
};
const secrets = [
  ["npmrc", npmConfig("userconfig")],
  ["cafile", npmConfig("cafile") ?? (process.env.NODE_EXTRA_CA_CERTS && existsSync(process.env.NODE_EXTRA_CA_CERTS) ? process.env.NODE_EXTRA_CA_CERTS : undefined)],
].flatMap(([id, file]) => (file === undefined ? [] : ["--secret", `id=${id},src=${file}`]));
const base = process.env.QUOTER_BASE_IMAGE?.trim();
const args = [
  "build",
  ...(engine === "podman" ? ["--format", "docker"] : []), // HEALTHCHECK is Docker's format, not OCI's
  ...(base ? ["--build-arg", `BASE_IMAGE=${base}`] : []),
  ...secrets,
  "-t",
  "quoter:latest",
  ...process.argv.slice(2),
  ".",
];
console.log(`${engine} ${args.join(" ")}`);
const built = spawnSync(engine, args, { stdio: "inherit", cwd: new URL("..", import.meta.url).pathname, env: { ...process.env, DOCKER_BUILDKIT: "1" } });
process.exit(built.status ?? 1);
