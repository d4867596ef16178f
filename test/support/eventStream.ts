// A live quote stream as a client reads it: undici's EventSource (the WHATWG client browsers have), its events
// kept in order, to wait for the next one or check that none came. The server's `error` events arrive on the
// same listener as EventSource's own connection errors: only the former carry data.
import { EventSource } from "undici";

export interface StreamEvent {
  readonly type: "quote" | "error" | "end";
  readonly data: string;
  /** The event's id (`lastEventId`): its block number. */
  readonly id: string;
  readonly json: any;
}

export interface EventStream {
  readonly events: StreamEvent[];
  /** The next event not yet taken, waited for at most `ms`. */
  next(ms?: number, what?: string): Promise<StreamEvent>;
  /** Resolves when no event came for `ms`; throws with the event that did. */
  quiet(ms: number): Promise<void>;
  /** Whether the connection failed or the server ended it (EventSource then retries; `end` closes it here). */
  readonly closed: boolean;
  close(): void;
}

export function openEventStream(url: string): EventStream {
  const source = new EventSource(url);
  const events: StreamEvent[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  let closed = false;
  const push = (type: StreamEvent["type"]) => (message: Event) => {
    const { data, lastEventId } = message as MessageEvent<string>;
    if (data === undefined) return; // EventSource's own error: the connection
    events.push({ type, data, id: lastEventId, json: JSON.parse(data) });
    // `end` is the last event: a client closes instead of reconnecting.
    if (type === "end") {
      closed = true;
      source.close();
    }
    wake?.();
  };
  for (const type of ["quote", "error", "end"] as const) source.addEventListener(type, push(type));
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) closed = true;
  });
  return {
    events,
    async next(ms = 5_000, what = "the next event") {
      const deadline = Date.now() + ms;
      while (taken >= events.length) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event within ${ms} ms: waited for ${what} (${events.length} so far)`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => (clearTimeout(timer), resolve());
        });
      }
      return events[taken++]!;
    },
    async quiet(ms) {
      const before = events.length;
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (events.length > before) throw new Error(`an event came within ${ms} ms: ${JSON.stringify(events[before])}`);
    },
    get closed() {
      return closed;
    },
    close() {
      closed = true;
      source.close();
    },
  };
}

/** A server-sent event as read off the wire: its fields (a comment line is none of them). */
export interface WireEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string | undefined;
}

/** Reads a raw event stream (an undici response body): `onEvent` for each event as it arrives, comments skipped. */
export function onWireEvents(body: NodeJS.ReadableStream, onEvent: (event: WireEvent) => void): void {
  let buffer = "";
  body.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const frames = buffer.split("\n\n");
    buffer = frames.pop()!;
    for (const frame of frames) {
      const field = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(frame)?.[1];
      if (frame.split("\n").every((line) => line.startsWith(":"))) continue;
      onEvent({ id: field("id"), event: field("event"), data: field("data") });
    }
  });
  body.on("error", () => undefined);
}
