// @fastify/rate-limit's own in-memory store (store/LocalStore.js), which its types do not declare: the counts of
// this process in an LRU of `cache` keys (toad-cache), each count starting again once its window has passed.
declare module "@fastify/rate-limit/store/LocalStore.js" {
  type Counted = { current: number; ttl: number };
  export default class LocalStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    incr(key: string, told: (error: Error | null, counted: Counted) => void, timeWindow: number, max?: number): void;
    read(key: string, told: (error: Error | null, counted: Counted) => void, timeWindow: number, max?: number): void;
  }
}
