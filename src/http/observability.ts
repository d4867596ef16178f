// Operability: a request id on every request and answer, one log line per answer (for a quote: chain, market,
// direction, candidates, RPC requests, time and outcome), Prometheus metrics, and the operational routes.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Metrics } from "../observability/metrics.ts";
import { newQuoteRecord, type QuoteRecord } from "../service/api.ts";
import { operationsRoutes, type OperationsOptions } from "./operations.ts";
import { HEALTH_PATH, LIQUIDITY_ROUTE, METRICS_PATH, POSITION_ROUTE, QUOTE_ROUTE, READY_PATH } from "./paths.ts";

// Tests label the quote route as the metrics do, from here.
export { QUOTE_ROUTE };

const OPERATIONAL_ROUTES = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);

const REQUEST_ID_HEADER = "x-request-id";
/** An incoming request id is kept when it looks like one (UUIDs, ULIDs, hex or base64url tokens); else a new UUID. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the caller's `x-request-id` when sane, else a random UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === "string" && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

const outcomes = new WeakMap<FastifyRequest, string>();

/** Notes what an error answer says (its `error`) where it is made, for the request's log line. */
export function noteOutcome(request: FastifyRequest, error: string): void {
  outcomes.set(request, error);
}

const quoteRecords = new WeakMap<FastifyRequest, QuoteRecord>();

/** The record a quote request's quote fills in, for its log line and metrics (made at the first ask). */
export function quoteRecordOf(request: FastifyRequest): QuoteRecord {
  let record = quoteRecords.get(request);
  if (record === undefined) {
    record = newQuoteRecord();
    quoteRecords.set(request, record);
  }
  return record;
}

const streams = new WeakMap<FastifyRequest, StreamSummary>();

/** What a live stream sent, and why it ended: its log line when it closes. */
export type StreamSummary = { readonly events: number; readonly endedBy: string };

/** Notes, as a live stream closes, what it did: its request then logs a stream line instead of a quote line. */
export function noteStream(request: FastifyRequest, summary: StreamSummary): void {
  streams.set(request, summary);
}

const QUOTE_ROUTES: ReadonlySet<string> = new Set([QUOTE_ROUTE, POSITION_ROUTE, LIQUIDITY_ROUTE]);

const isQuote = (request: FastifyRequest) =>
  QUOTE_ROUTES.has(request.routeOptions.url ?? "") && (request.method === "GET" || request.method === "HEAD");

/**
 * Not encapsulated (fastify-plugin), so that its hooks see every route of the app, 404s included; the
 * operational routes it registers are a child of their own.
 */
export const observabilityPlugin = fp(observability, { name: "observability" });

async function observability(app: FastifyInstance, options: OperationsOptions): Promise<void> {
  const { metrics } = options;

  app.addHook("onRequest", async (request) => {
    request.log.debug({ req: request }, "incoming request");
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    metrics.observeRequest({ method: request.method, route: request.routeOptions.url ?? "unmatched", status: reply.statusCode });
    const stream = streams.get(request);
    if (stream !== undefined) logStream(request, reply, stream);
    else if (isQuote(request)) logQuote(request, reply, metrics, quoteRecords.get(request));
    else logRequest(request, reply);
  });
  void app.register(operationsRoutes, options);
}

const millisecondsOf = (reply: FastifyReply) => Math.round(reply.elapsedTime * 10) / 10;

/** Any answer but a quote's: one line, at debug level for the operational routes that probes call all the time. */
function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const line = { method: request.method, url: request.url, statusCode: reply.statusCode, ms: millisecondsOf(reply) };
  if (OPERATIONAL_ROUTES.has(request.routeOptions.url ?? "unmatched")) request.log.debug(line, "request completed");
  else request.log.info(line, "request completed");
}

/** A live stream, once closed: how long it was open, the events it sent, what ended it. */
function logStream(request: FastifyRequest, reply: FastifyReply, { events, endedBy }: StreamSummary): void {
  const params = request.params as Record<string, unknown>;
  const id = params.positionId === undefined ? { marketId: String(params.marketId) } : { positionId: String(params.positionId) };
  const line = { chainId: String(params.chainId), market: String(params.marketAddress), ...id, events, endedBy, ms: millisecondsOf(reply) };
  request.log.info(line, "stream closed");
}

/** A quote's answer: its latency and candidates in the metrics, and one line with what the quote did. */
function logQuote(request: FastifyRequest, reply: FastifyReply, metrics: Metrics, stats: QuoteRecord | undefined): void {
  const status = reply.statusCode;
  const searched = !stats?.coalesced && !stats?.replica && stats?.cache !== "hit";
  metrics.observeQuote({ status, seconds: reply.elapsedTime / 1000, candidates: searched ? stats?.candidates : undefined, cache: stats?.cache });
  if (searched && stats?.searchGas !== undefined) metrics.observeSearchGas("quote", stats.searchGas);
  // Parsed values once the route validated them (a bigint id, a checksummed address), the raw text when it did
  // not: logged as text either way.
  const params = request.params as Record<string, unknown>;
  const text = (value: unknown) => (value === undefined ? undefined : String(value));
  request.log.info(
    {
      chainId: text(params.chainId),
      market: text(params.marketAddress),
      marketId: text(params.marketId),
      positionId: text(params.positionId),
      direction: stats?.direction ?? null,
      candidates: stats?.candidates ?? 0,
      rpcRequests: stats?.rpcRequests ?? 0,
      ...(stats?.blockNumber === undefined ? {} : { blockNumber: stats.blockNumber.toString() }),
      ...(stats?.coalesced ? { coalesced: true } : {}),
      ...(stats?.replica ? { replica: true } : {}),
      ...(stats?.cache === undefined ? {} : { cache: stats.cache }),
      ms: millisecondsOf(reply),
      status,
      outcome: status === 200 ? "ok" : (outcomes.get(request) ?? "unknown"),
    },
    "quote",
  );
}
