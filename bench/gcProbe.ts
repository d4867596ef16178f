// Preloaded into a service the bench measures (with --expose-gc: the memory run of `npm run bench`, `npm run soak`),
// never part of the service itself: nothing is served, the bench asks by a signal and reads the answer in the
// service's log. On SIGUSR2 it collects garbage until the heap stops shrinking (each full collection lowers V8's
// heap limit a step, so one is not enough) and prints one line, `bench-gc {…}`: process.memoryUsage() then, and
// since the last line: `heapFloor`, the least heapUsed read after a full collection (V8's own, observed, and the
// forced one), and `eventLoopMs`, the event loop's delay (perf_hooks' monitorEventLoopDelay, 10 ms resolution), read
// before the forced collections so that they count nowhere. Without it a resident-set reading lands anywhere on V8's
// saw-tooth of garbage and heap slack (±50 MiB here), which says nothing about what the service keeps.
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const collect = (globalThis as { gc?: () => void }).gc;
const MAX_COLLECTIONS = 8;
const NS_PER_MS = 1e6;

let heapFloor = Number.POSITIVE_INFINITY;
let majorCollections = 0;
const afterCollection = () => {
  heapFloor = Math.min(heapFloor, process.memoryUsage().heapUsed);
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if ((entry as { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
    majorCollections++;
    afterCollection();
  }
}).observe({ entryTypes: ["gc"] });

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

process.on("SIGUSR2", () => {
  const eventLoopMs = {
    p50: delay.percentile(50) / NS_PER_MS,
    p99: delay.percentile(99) / NS_PER_MS,
    max: delay.max / NS_PER_MS,
    mean: delay.mean / NS_PER_MS,
  };
  let collections = 0;
  let heapTotal = Number.POSITIVE_INFINITY;
  while (collect && collections < MAX_COLLECTIONS) {
    collect();
    collections++;
    const now = process.memoryUsage().heapTotal;
    if (now >= heapTotal * 0.99) break;
    heapTotal = now;
  }
  const usage = process.memoryUsage();
  if (collect) afterCollection();
  const report = { collected: collect !== undefined, collections, ...usage, heapFloor, majorCollections, eventLoopMs };
  heapFloor = Number.POSITIVE_INFINITY;
  majorCollections = 0;
  delay.reset();
  process.stderr.write(`bench-gc ${JSON.stringify(report)}\n`);
});
