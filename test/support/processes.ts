// Runs the project's own commands (npm start, npm run devchain, or node on an entry point) as a user would,
// and stops them after.
import { spawn, type ChildProcess } from "node:child_process";

export interface Running {
  readonly child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  stop(): Promise<number | null>;
}

/** Spawns `npm <args>` in its own process group and waits until a line matches `ready` (or fails). */
export function startCommand(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 20_000): Promise<Running & { match: RegExpMatchArray }> {
  return startProcess("npm", ["--silent", ...args], env, ready, timeoutMs);
}

/** Spawns `command <args>` in the project root, in its own process group, ready when a line matches `ready`. */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 20_000,
): Promise<Running & { match: RegExpMatchArray }> {
  const child = spawn(command, args, {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(" ")} not ready in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = output.match(ready);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output}`));
    });
  });
  return {
    child,
    match,
    output: () => output,
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
