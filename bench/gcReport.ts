// What the bench asks a service preloaded with bench/gcProbe.ts: a full garbage collection, and its report, read
// from the service's log.
import { readFileSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { Child } from "./processes.ts";

/** The probe's line (bench/gcProbe.ts): process.memoryUsage() after the collections, and what it saw since the last. */
export interface GcReport extends NodeJS.MemoryUsage {
  /** Whether the service had gc() (--expose-gc): without it, nothing was collected. */
  readonly collected: boolean;
  readonly collections: number;
  /** The least heapUsed after a full collection since the last report, this one's included. */
  readonly heapFloor: number;
  readonly majorCollections: number;
  readonly eventLoopMs: { readonly p50: number; readonly p99: number; readonly max: number; readonly mean: number };
}

/** Sends SIGUSR2 and waits (at most `timeoutMs`) for the probe's next line in the log; undefined when none comes. */
export async function collectGarbage(child: Child, timeoutMs = 5_000): Promise<GcReport | undefined> {
  const from = statSync(child.logFile).size;
  process.kill(child.pid, "SIGUSR2");
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    await sleep(50);
    const line = readFileSync(child.logFile).subarray(from).toString("utf8").split("\n").find((text) => text.startsWith("bench-gc "));
    if (line !== undefined) return JSON.parse(line.slice("bench-gc ".length)) as GcReport;
  }
  return undefined;
}
