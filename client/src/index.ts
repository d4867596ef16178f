// @quoter/client: a typed client of the quoter's HTTP API for browsers and Node 22 or 24 (fetch, ReadableStream,
// TextDecoder and AbortSignal; eventsource-parser reads the live streams).
export { createQuoterClient, type QuoterClient, type QuoterClientOptions } from "./client.js";
export { QuoterError, QuoterNetworkError } from "./errors.js";
export { exact, type Decimal, type Exact } from "./exact.js";
export type {
  BatchAnswer,
  BatchItem,
  BatchRequest,
  CallOptions,
  DepthAnswer,
  DepthRequest,
  ErrorBody,
  ErrorDetail,
  LiquidityAnswer,
  LiquidityRequest,
  LiveError,
  LiveEvent,
  PositionAnswer,
  PositionRequest,
  QuoteAnswer,
  QuoteRequest,
  RetryOptions,
  Trade,
  TradeCall,
  TradeSimulation,
  WatchOptions,
} from "./types.js";
export type { paths, operations } from "./openapi.js";
