// Child processes of the bench: each in its own process group, its output in a log file (a file, not a pipe:
// a service that logs every request must never wait on the bench to read it), waited for until it prints that
// it is ready, and all of them killed when the bench ends, whichever way it ends.
import { fork, spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
/** Kept for the error message of a child that fails: its last output. */
const OUTPUT_TAIL_CHARS = 16_000;
const READY_POLL_MS = 25;

/** Where the children's logs go: one file per child, removed by {@link removeLogs}. */
export const LOG_DIR = mkdtempSync(join(tmpdir(), "quoter-bench-"));

export function removeLogs(): void {
  rmSync(LOG_DIR, { recursive: true, force: true });
}

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly pid: number;
  readonly logFile: string;
  /** The last {@link OUTPUT_TAIL_CHARS} characters printed, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<Child>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** Synchronous last resort (process "exit"): SIGKILL every child still running. */
export function killAllNow(): void {
  for (const child of running) killGroup(child.process, "SIGKILL");
  running.clear();
}

/** SIGTERM every child still running, SIGKILL those still there a few seconds later. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

function openLog(name: string): { path: string; fd: number } {
  const path = join(LOG_DIR, `${name}.log`);
  return { path, fd: openSync(path, "a") };
}

function tail(path: string): string {
  try {
    return readFileSync(path, "utf8").slice(-OUTPUT_TAIL_CHARS);
  } catch {
    return "";
  }
}

function track(name: string, child: ChildProcess, logFile: string, graceMs = 3_000): Child {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const handle: Child = {
    name,
    process: child,
    pid: child.pid!,
    logFile,
    output: () => tail(logFile),
    async stop() {
      running.delete(handle);
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** Resolves with the first match of `ready` in the child's log; rejects if it exits or times out first. */
function waitFor(handle: Child, ready: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const child = handle.process;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`${handle.name} exited (${signal ?? code}) before it was ready:\n${handle.output()}`));
    };
    const poll = setInterval(() => {
      const found = handle.output().match(ready);
      if (found) {
        cleanup();
        resolve(found);
      } else if (Date.now() - started > timeoutMs) {
        cleanup();
        reject(new Error(`${handle.name} not ready within ${timeoutMs} ms:\n${handle.output()}`));
      }
    }, READY_POLL_MS);
    const cleanup = () => {
      clearInterval(poll);
      child.off("exit", onExit);
    };
    child.once("exit", onExit);
  });
}

/**
 * `node --import tsx <script> <args>` in the project root, in its own process group, ready when `ready` matches.
 * `spawnedAt` is performance.now() at the spawn and `readyMs` how long the ready line took from there: seen
 * within one poll of the log ({@link READY_POLL_MS}).
 */
export async function startNode(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  options: { timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<Child & { match: RegExpMatchArray; spawnedAt: number; readyMs: number }> {
  const log = openLog(name);
  const spawnedAt = performance.now();
  // tsx first, so that any --import among nodeArgs may be TypeScript.
  const child = spawn(process.execPath, ["--import", "tsx", ...(options.nodeArgs ?? []), script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", log.fd, log.fd],
  });
  closeSync(log.fd);
  const handle = track(name, child, log.path);
  try {
    const match = await waitFor(handle, ready, options.timeoutMs ?? 30_000);
    return { ...handle, match, spawnedAt, readyMs: performance.now() - spawnedAt };
  } catch (error) {
    await handle.stop();
    throw error;
  }
}

/** Forks a TypeScript module with an IPC channel; ready with its first message. */
export async function forkNode<Ready>(name: string, script: string, args: string[], timeoutMs = 30_000): Promise<Child & { ready: Ready }> {
  const log = openLog(name);
  const child = fork(script, args, {
    cwd: ROOT,
    execArgv: ["--import", "tsx"],
    detached: true,
    stdio: ["ignore", log.fd, log.fd, "ipc"],
  });
  closeSync(log.fd);
  const handle = track(name, child, log.path);
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} not ready within ${timeoutMs} ms:\n${handle.output()}`)), timeoutMs);
      child.once("message", (message) => {
        clearTimeout(timer);
        resolve(message as Ready);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${handle.output()}`));
      });
    });
    return { ...handle, ready };
  } catch (error) {
    await handle.stop();
    throw error;
  }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat; undefined without /proc. */
export function cpuMillis(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces), from field 3 on: utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Resident set size of a process in bytes (VmRSS); one reading of /proc for the bench and the tests. */
export { residentBytes } from "../test/support/processTree.ts";
