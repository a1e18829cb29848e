/**
 * Where the log's lines go: a file descriptor (stdout), through 64 KiB byte chunks written one at a
 * time, asynchronously, so a slow reader of stdout never blocks the event loop. Each line pino hands
 * over is copied into bytes at once, so its string dies young: keeping the strings until a batched
 * write (SonicBoom's way) made them survive scavenges, which `npm run bench` showed as CPU spent
 * on every request. Past `maxPendingBytes` waiting (a reader that stopped reading) lines are dropped
 * and counted instead of growing memory.
 */
import { write as writeFd, writeSync } from 'node:fs';

const CHUNK_BYTES = 64 * 1024;

export class LogDestination {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private writing = false;
  private readonly drained: (() => void)[] = [];
  /** Lines dropped because `maxPendingBytes` were already waiting. */
  dropped = 0;

  constructor(
    private readonly fd: number,
    private readonly maxPendingBytes = 16 * 1024 * 1024,
  ) {}

  /** Takes one line (pino's stream interface). */
  write(line: string): boolean {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (this.used + line.length * 3 > CHUNK_BYTES) this.seal();
    if (line.length * 3 > CHUNK_BYTES) this.enqueue(Buffer.from(line, 'utf8'));
    else this.used += this.chunk.write(line, this.used, 'utf8');
    return true;
  }

  /** Writes what is buffered; `done` runs once everything taken so far is written (pino's flush). */
  flush(done: () => void = () => undefined): void {
    this.seal();
    if (!this.writing && this.pending.length === 0) done();
    else this.drained.push(done);
  }

  /**
   * Writes everything taken so far before it returns: the last lines before the process exits, which
   * an asynchronous write might not finish first (it waits for a thread of the pool, and a busy
   * machine once made it wait past the exit). False when it cannot: a write is under way (its bytes
   * would be written twice) or the reader is full and not reading (EAGAIN); flush() is then the way.
   */
  flushSync(): boolean {
    // Nothing is waiting unless a write is under way (pump starts one whenever something waits).
    if (this.writing) return false;
    let rest = this.chunk.subarray(0, this.used);
    while (rest.length > 0) {
      try {
        rest = rest.subarray(writeSync(this.fd, rest));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          // What is left stays at the front of the chunk, for flush() to write.
          this.used = rest.copy(this.chunk, 0);
          return false;
        }
        rest = rest.subarray(rest.length); // stdout closed: given up, as flush() does
      }
    }
    this.used = 0;
    for (const done of this.drained.splice(0)) done();
    return true;
  }

  private seal(): void {
    if (this.used === 0) return;
    const filled = this.chunk.subarray(0, this.used);
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    this.enqueue(filled);
  }

  private enqueue(bytes: Buffer): void {
    if (this.pendingBytes + bytes.length > this.maxPendingBytes) {
      for (let index = bytes.indexOf(10); index !== -1; index = bytes.indexOf(10, index + 1)) this.dropped++;
      return;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.pump();
  }

  private pump(): void {
    if (this.writing) return;
    const next = this.pending[0];
    if (next === undefined) {
      for (const done of this.drained.splice(0)) done();
      return;
    }
    this.writing = true;
    writeFd(this.fd, next, 0, next.length, null, (error, written) => {
      this.writing = false;
      // A short write leaves the rest at the front; a failed one (stdout closed) is given up.
      const done = error ? next.length : written;
      this.pendingBytes -= done;
      if (done >= next.length) this.pending.shift();
      else this.pending[0] = next.subarray(done);
      this.pump();
    });
  }
}
