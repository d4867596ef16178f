// Preloaded into the service of the memory run only (with --expose-gc): on SIGUSR2 it runs a full garbage
// collection and prints one line with process.memoryUsage(), which the bench reads from the service's log.
// Without it a resident-set reading lands anywhere on V8's saw-tooth of young garbage (±50 MiB here), which
// says nothing about what the service keeps.
const collect = (globalThis as { gc?: () => void }).gc;

process.on("SIGUSR2", () => {
  collect?.();
  process.stderr.write(`bench-gc ${JSON.stringify({ collected: collect !== undefined, ...process.memoryUsage() })}\n`);
});
