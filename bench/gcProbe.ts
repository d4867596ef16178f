// Preloaded into the service of the memory run only (with --expose-gc): on SIGUSR2 it collects garbage until
// the heap stops shrinking (each full collection lowers V8's heap limit a step, so one is not enough) and prints
// one line with process.memoryUsage(), which the bench reads from the service's log. Without it a resident-set
// reading lands anywhere on V8's saw-tooth of garbage and heap slack (±50 MiB here), which says nothing about
// what the service keeps.
const collect = (globalThis as { gc?: () => void }).gc;
const MAX_COLLECTIONS = 8;

process.on("SIGUSR2", () => {
  let collections = 0;
  let heapTotal = Number.POSITIVE_INFINITY;
  while (collect && collections < MAX_COLLECTIONS) {
    collect();
    collections++;
    const now = process.memoryUsage().heapTotal;
    if (now >= heapTotal * 0.99) break;
    heapTotal = now;
  }
  process.stderr.write(`bench-gc ${JSON.stringify({ collected: collect !== undefined, collections, ...process.memoryUsage() })}\n`);
});
