// Runs the project's own commands (npm start, npm run devchain, bin/quoter.js, or node on an entry point) as a
// user would, in the project root and in a process group of their own: until they print that they are ready,
// or until they exit; and stops them after.
import { spawn, type ChildProcess } from "node:child_process";

/** Added to the test's own environment; a variable set to undefined is left out. */
export type Env = Record<string, string | undefined>;

export interface Running {
  readonly child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  stop(): Promise<number | null>;
}

export interface Exited {
  /** The exit status, or null when a signal ended it. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function launch(command: string, args: string[], env: Env) {
  const child = spawn(command, args, {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = { output: "", stdout: "", stderr: "" };
  child.stdout!.on("data", (chunk: Buffer) => ((printed.output += chunk), (printed.stdout += chunk)));
  child.stderr!.on("data", (chunk: Buffer) => ((printed.output += chunk), (printed.stderr += chunk)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, printed, exited };
}

/**
 * Runs `command <args>` to its end, or for `timeoutMs` at most: then its process group is killed and the run
 * answers code null, its stderr saying so (a hung `npm install` must fail its test, not hold the whole run).
 */
export async function runProcess(command: string, args: string[], env: Env = {}, timeoutMs = 180_000): Promise<Exited> {
  const { child, printed, exited } = launch(command, args, env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid!, "SIGKILL");
  }, timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  const stderr = timedOut ? `${printed.stderr}\n${command} ${args.join(" ")}: killed after ${timeoutMs} ms` : printed.stderr;
  return { code, stdout: printed.stdout, stderr };
}

/** Spawns `npm <args>` and waits until a line matches `ready` (or fails). */
export function startCommand(args: string[], env: Env, ready: RegExp, timeoutMs = 20_000): Promise<Running & { match: RegExpMatchArray }> {
  return startProcess("npm", ["--silent", ...args], env, ready, timeoutMs);
}

/** Spawns `command <args>`, ready when its output matches `ready`; fails when it exits or times out first. */
export async function startProcess(
  command: string,
  args: string[],
  env: Env,
  ready: RegExp,
  timeoutMs = 20_000,
): Promise<Running & { match: RegExpMatchArray }> {
  const { child, printed, exited } = launch(command, args, env);
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(" ")} not ready in ${timeoutMs} ms:\n${printed.output}`)), timeoutMs);
    const onData = () => {
      const found = printed.output.match(ready);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${printed.output}`));
    });
  });
  return {
    child,
    match,
    output: () => printed.output,
    async stop() {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      return exited;
    },
  };
}
