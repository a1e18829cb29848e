/**
 * How far V8 lets the heap grow past what its last full collection kept before it starts the next
 * (`server.heapGrowingPercent`, V8's --heap-growing-percent). V8 picks that factor itself (1.1–4,
 * from how fast it collects against how fast JavaScript allocates); a setting above 0 fixes it at
 * 1 + percent / 100.
 *
 * Why it is set at all: large bodies. Each 1 MiB request moves ~3.5 MiB through the main thread
 * as buffers (the body's chunks, the body, the answer coming back from the pool), which V8 counts
 * against the same limit. With its own factor the main heap (~20 MB live, all plugins loaded) was
 * fully marked every 6 or so such requests, freeing almost nothing of the heap, at ~35 ms of
 * main-thread marking each; the pool's worker (~6 MB live) was collected after nearly every request.
 * See docs/decisions.md, "The heap grows five times its live size before a full collection".
 */
import { setFlagsFromString } from 'node:v8';

/** Sets V8's growing factor for the whole process (pool threads included); 0 gives V8 its own choice back. */
export function setHeapGrowingPercent(percent: number): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
