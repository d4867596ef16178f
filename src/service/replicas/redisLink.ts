// A replica's link to Redis (REDIS_URL), where replicas share answers, claims on searches and rate-limit counts.
// Redis is a help, never a dependency: each command has a short timeout, and the first that fails or is late marks
// the link down. While it is down nobody waits on Redis (every caller acts alone, in-process) and a PING every
// `probeMs` checks it; the first PING answered in time marks it up again.
import { Redis, type RedisOptions } from "ioredis";

export type RedisState = "up" | "down";

export interface RedisStatus {
  readonly state: RedisState;
  /** When it entered that state (ms since the epoch). */
  readonly since: number;
  /** Why it is down. */
  readonly reason?: string;
}

export interface RedisLinkOptions {
  readonly url: string;
  /** A command not answered within this many ms counts as Redis failing. */
  readonly timeoutMs: number;
  /** While down, a PING this often (ms). */
  readonly probeMs?: number;
}

export interface RedisLink {
  /** For commands: no offline queue (a command while disconnected fails at once). */
  readonly client: Redis;
  /** For pub/sub only. */
  readonly subscriber: Redis;
  status(): RedisStatus;
  /** Told of every change of state (the log line, the metric). */
  onChange(listener: (status: RedisStatus) => void): void;
  /** `command`'s answer; undefined when the link is down, or when the command fails or is late (it then goes down). */
  run<T>(command: (client: Redis) => Promise<T>): Promise<T | undefined>;
  /** Resolves once the link is up, or after `ms` (whichever first): start-up need not wait for Redis. */
  ready(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export function connectRedis({ url, timeoutMs, probeMs = 500 }: RedisLinkOptions): RedisLink {
  const common: RedisOptions = {
    connectTimeout: Math.max(timeoutMs, 1000),
    // Reconnect forever, at most a second apart: Redis coming back is how sharing resumes.
    retryStrategy: (times) => Math.min(100 * times, 1000),
  };
  const client = new Redis(url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: timeoutMs });
  // The subscriber may queue its SUBSCRIBE until connected, and subscribes again after each reconnection.
  const subscriber = new Redis(url, { ...common, maxRetriesPerRequest: null });
  const state = linkState(async () => {
    if (client.status === "ready" && subscriber.status === "ready") await client.ping();
    else throw new Error(`not connected (${client.status}, subscriber ${subscriber.status})`);
  }, probeMs);
  for (const connection of [client, subscriber]) {
    // Without a listener ioredis prints each connection error; the state says it instead.
    connection.on("error", (error: unknown) => state.note(messageOf(error)));
    connection.on("ready", () => void state.probe());
    connection.on("close", () => state.set("down", "connection closed"));
  }
  return {
    client,
    subscriber,
    status: () => state.status,
    onChange: (listener) => void state.listeners.add(listener),
    async run(command) {
      if (state.status.state !== "up") return undefined;
      try {
        return await command(client);
      } catch (error) {
        state.set("down", messageOf(error));
        return undefined;
      }
    },
    ready(ms) {
      if (state.status.state === "up") return Promise.resolve(true);
      // Whichever comes first, the timer and the listener both go.
      return new Promise((resolve) => {
        const end = () => {
          clearTimeout(timer);
          state.listeners.delete(changed);
          resolve(state.status.state === "up");
        };
        const changed = (now: RedisStatus) => void (now.state === "up" && end());
        const timer = setTimeout(end, ms);
        state.listeners.add(changed);
      });
    },
    async close() {
      state.close();
      client.disconnect();
      subscriber.disconnect();
    },
  };
}

/** Up or down, who is told of a change, and while down a probe every `probeMs` that brings it up when it answers. */
function linkState(ping: () => Promise<void>, probeMs: number) {
  let probing: NodeJS.Timeout | undefined;
  let closed = false;
  const state = {
    status: { state: "down", since: Date.now(), reason: "connecting" } as RedisStatus,
    listeners: new Set<(status: RedisStatus) => void>(),
    set(to: RedisState, reason?: string) {
      if (state.status.state === to || closed) return;
      state.status = { state: to, since: Date.now(), ...(reason === undefined ? {} : { reason }) };
      for (const listener of state.listeners) listener(state.status);
      if (to === "down") startProbing();
    },
    /** Why it is down, as the connection's last error says. */
    note(reason: string) {
      if (state.status.state === "down") state.status = { ...state.status, reason };
    },
    async probe() {
      if (closed) return;
      try {
        await ping();
        state.set("up");
      } catch (error) {
        state.set("down", messageOf(error));
        state.note(messageOf(error));
      }
    },
    close() {
      closed = true;
      clearInterval(probing);
    },
  };
  function startProbing(): void {
    if (probing !== undefined || closed) return;
    probing = setInterval(() => {
      if (state.status.state !== "up") return void state.probe();
      clearInterval(probing);
      probing = undefined;
    }, probeMs);
    probing.unref();
  }
  startProbing();
  return state;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
