// Replicas of the service as an operator runs them: separate processes (src/main.ts, as `npm start` runs it) on one
// chain endpoint, sharing one Redis.
import { request } from "undici";
import { startProcess, type Env, type Running } from "./processes.ts";

export interface Replica {
  readonly base: string;
  readonly process: Running;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string }>;
  /** /health's `redis`, when Redis is configured. */
  redis(): Promise<{ state: "up" | "down"; since: string; reason?: string } | undefined>;
}

export async function startReplicas(count: number, env: Env): Promise<{ replicas: Replica[]; stop(): Promise<void> }> {
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      startProcess("node", ["--import", "tsx", "src/main.ts"], { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env }, /Quoter listening on (http:\/\/\S+)\/quoter /, 60_000),
    ),
  );
  const replicas = started.map((process): Replica => {
    const base = process.match[1]!;
    const get: Replica["get"] = async (path, headers = {}) => {
      const response = await request(`${base}${path}`, { headers });
      const text = await response.body.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.statusCode, body, text };
    };
    return { base, process, get, redis: async () => (await get("/health")).body.redis };
  });
  return { replicas, stop: async () => void (await Promise.all(started.map((process) => process.stop()))) };
}
