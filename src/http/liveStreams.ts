// Live quotes over server-sent events: the quote route asked with `Accept: text/event-stream` answers a stream of
// `quote` events (the 200 body at a block, one line of JSON, `id:` its block number), `error` events (the error
// answer with its status) and a last `end` event (`settled`, `expired`, `shutdown`) before the stream closes.
// The answers come from the service's live quotes (one search per distinct quote and head); this module owns the
// streams themselves: their limits, their keep-alive comments, their end on shutdown, their metrics.
import type {} from "@fastify/sse"; // reply.sse
import type { FastifyReply, FastifyRequest } from "fastify";
import { SETTINGS } from "../config.ts";
import type { StreamObserver } from "../observability/metrics.ts";
import type { AnyQuoteRequest } from "../quote/positionRequest.ts";
import type { BatchItem } from "../quote/batchRequest.ts";
import { requestKey } from "../service/coalescer.ts";
import type { LiveEvent, LiveQuotes, LiveWatcher } from "../service/liveQuotes.ts";
import { batchJson } from "./batchAnswer.ts";
import { errorWithStatus, tooManyStreams, type HttpError } from "./httpErrors.ts";
import { noteStream } from "./observability.ts";

export interface StreamLimits {
  /** Streams open at once, all clients together (STREAMS_MAX). */
  readonly max: number;
  /** Streams one client address may hold open (STREAMS_PER_CLIENT). */
  readonly perClient: number;
  /** A comment line after this long without an event, so that proxies keep the connection (15 s). */
  readonly keepAliveMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  max: SETTINGS.STREAMS_MAX.default,
  perClient: SETTINGS.STREAMS_PER_CLIENT.default,
  keepAliveMs: 15_000,
};

/** How long a client refused a stream is asked to wait, and an ended one to wait before it reconnects. */
const RETRY_AFTER_SECONDS = 5;
const SHUTDOWN_RETRY_MS = 1_000;
/** A client that reads slower than this much unsent data piles up is dropped: its stream closes. */
const MAX_UNSENT_BYTES = 1024 * 1024;
const KEEP_ALIVE = ": keep-alive\n\n";

/** An open stream, as shutdown sees it: the way to end it. */
type Stream = { end(reason: "shutdown"): Promise<void> };

/** The `data:` of each event, serialized once however many streams send it (events are shared by a watch). */
const serialized = new WeakMap<LiveEvent, string>();

export class LiveStreams {
  private readonly open = new Set<Stream>();
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly live: LiveQuotes,
    private readonly limits: StreamLimits,
    private readonly observe: StreamObserver,
  ) {}

  /** Whether a stream of `chainId`'s quotes can be opened: the service follows that chain. */
  serves(chainId: number): boolean {
    return this.live.follows(chainId);
  }

  /** The 429 a new stream of `client` gets past a limit; undefined when it may open. */
  refusal(client: string): HttpError | undefined {
    if (this.open.size >= this.limits.max) {
      return tooManyStreams(RETRY_AFTER_SECONDS, [
        { param: "streams", message: `the service has ${this.open.size} live streams open, its most (STREAMS_MAX): retry later, or ask without Accept: text/event-stream` },
      ]);
    }
    if ((this.perClient.get(client) ?? 0) >= this.limits.perClient) {
      return tooManyStreams(RETRY_AFTER_SECONDS, [
        { param: "streams", message: `this client has ${this.limits.perClient} live streams open, its most (STREAMS_PER_CLIENT): close one first` },
      ]);
    }
    return undefined;
  }

  get size(): number {
    return this.open.size;
  }

  /** Opens the stream of `quote` on `reply` (whose reply.sse the SSE plugin set): its events until it ends. */
  start(request: FastifyRequest, reply: FastifyReply, quote: AnyQuoteRequest): void {
    this.openStream(request, reply, (watcher) => this.live.watch(quote, watcher), []);
  }

  /**
   * Opens the stream of a batch: a `quote` event whose data is the batch's whole answer (every result, the bad
   * items' 400s too) at each block that changes any of them.
   */
  startBatch(request: FastifyRequest, reply: FastifyReply, chainId: number, items: readonly BatchItem[]): void {
    const requests = items.flatMap((item) => (item.ok ? [item.value] : []));
    // Streams of the same items share one watch: the key is the items as asked, bad ones included.
    const key = JSON.stringify(items.map((item) => (item.ok ? requestKey(item.value) : item.error.toBody())));
    const subscribe = (watcher: LiveWatcher) => this.live.watchBatch(requests, chainId, key, watcher);
    this.openStream(request, reply, subscribe, items);
  }

  private openStream(
    request: FastifyRequest,
    reply: FastifyReply,
    subscribe: (watcher: LiveWatcher) => () => void,
    items: readonly BatchItem[],
  ): void {
    const sse = reply.sse;
    const client = request.ip;
    let events = 0;
    let endedBy: string | undefined;
    const write = (message: Message & { retry?: number }) => {
      if (!sse.isConnected) return Promise.resolve();
      if (reply.raw.writableLength > MAX_UNSENT_BYTES) {
        // Dropped, not ended: ending would wait for the client to read all that is queued.
        endedBy = "slow-client";
        reply.raw.destroy();
        return Promise.resolve();
      }
      keepAlive.refresh();
      events++;
      this.observe.sent(message.event as "quote" | "error" | "end");
      return sse.send(message);
    };
    const end = async (reason: string, retry?: number) => {
      endedBy = reason;
      await write({ event: "end", data: JSON.stringify({ reason }), ...(retry === undefined ? {} : { retry }) });
      sse.close();
    };
    const keepAlive = setTimeout(function comment() {
      if (sse.isConnected) reply.raw.write(KEEP_ALIVE);
      keepAlive.refresh();
    }, this.limits.keepAliveMs);
    keepAlive.unref();

    const stream: Stream = { end: (reason) => end(reason, SHUTDOWN_RETRY_MS) };
    this.open.add(stream);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    this.observe.opened();
    // Answers after the handler returned: the SSE plugin keeps the connection; the onSend hooks do not run.
    sse.keepAlive();
    reply.header("x-request-id", request.id);
    sse.sendHeaders();

    const unwatch = subscribe((event) => {
      if (event.type === "end") void end(event.reason);
      else void write(toMessage(event, reply, items));
    });
    sse.onClose(() => {
      unwatch();
      clearTimeout(keepAlive);
      this.open.delete(stream);
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left === 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
      this.observe.closed();
      noteStream(request, { events, endedBy: endedBy ?? "client" });
    });
  }

  /** Ends every stream with `end` (`shutdown`) and a retry hint: the service is going away. */
  async endAll(): Promise<void> {
    await Promise.all([...this.open].map((stream) => stream.end("shutdown")));
  }
}

type Message = { event: string; data: string; id?: string };

/**
 * An answer as its SSE message: the event, the block number as its id, its data: a body as the route serializes
 * its 200 (the same bytes as a plain GET's) and an error with its status, each serialized once for every stream;
 * a batch's answer (a `quote` event) as its POST answers it, with the stream's own `items`.
 */
function toMessage(event: Exclude<LiveEvent, { type: "end" }>, reply: FastifyReply, items: readonly BatchItem[]): Message {
  if (event.type === "batch") return { event: "quote", data: batchJson(items, event.batch), id: event.blockNumber.toString() };
  let data = serialized.get(event);
  if (data === undefined) {
    data = event.type === "quote" ? String(reply.serialize(event.body)) : JSON.stringify(errorWithStatus(event.error));
    serialized.set(event, data);
  }
  return { event: event.type, data, ...(event.blockNumber === undefined ? {} : { id: event.blockNumber.toString() }) };
}
