// The export files (key id | file) a key was sent this UTC day, whole or a byte range of: the first part of a
// file in a day counts toward the month, its other parts that day do not (README "Limits"). This is the
// in-memory record of one process: MemoryLimits keeps it (one instance), and RedisLimits keeps the shared
// record in Redis and this one only for when Redis is unreachable.

const DAY_MS = 86_400_000;
const MAX_FILES_SENT = 100_000; // bounded: past it the day starts over (parts then count again, never less)

export class FilesSent {
  private readonly sent = new Set<string>();
  private day = -1;

  /** Whether a part of `file` is the first part of it sent to the key this UTC day (a whole file, `whole`,
   *  always counts); records it, so the day's other parts of the file do not count. */
  firstOfDay(keyId: string, file: string, now: number, whole: boolean): boolean {
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day || this.sent.size >= MAX_FILES_SENT) { this.sent.clear(); this.day = day; }
    const id = `${keyId}|${file}`;
    const first = !this.sent.has(id);
    this.sent.add(id);
    return first || whole;
  }
}

/** The UTC day of a time (ms), as a number of days since 1970-01-01. */
export function utcDay(now: number): number {
  return Math.floor(now / DAY_MS);
}
