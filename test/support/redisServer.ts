// A real redis-server (Debian's package; .ci/run installs it when missing) on 127.0.0.1 and a free port, nothing
// persisted, started and stopped by the test; `restart` brings it back on the same port (Redis coming back).
import { Redis } from "ioredis";
import { closedPort } from "./closedPort.ts";
import { startProcess, type Running } from "./processes.ts";

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Makes it answer nothing for `seconds` (DEBUG SLEEP): Redis slow, its connections open. */
  stall(seconds: number): Promise<void>;
  /** Kills it at once (SIGKILL): Redis failing, not shutting down. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER ?? "redis-server";

function launch(port: number): Promise<Running> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes", "--enable-debug-command", "local"];
  return startProcess(REDIS_SERVER, args, {}, /Ready to accept connections/, 10_000);
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await closedPort();
  let running: Running | undefined = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stall(seconds) {
      const client = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 0 });
      try {
        await client.call("DEBUG", "SLEEP", String(seconds));
      } finally {
        client.disconnect();
      }
    },
    async kill() {
      const killed = running;
      running = undefined;
      if (killed === undefined) return;
      const exited = new Promise((resolve) => killed.child.once("exit", resolve));
      killed.child.kill("SIGKILL");
      await exited;
    },
    async restart() {
      if (running === undefined) running = await launch(port);
    },
    async stop() {
      await running?.stop();
      running = undefined;
    },
  };
}
