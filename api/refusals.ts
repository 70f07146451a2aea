// Fairness toward everyone else when a caller ignores its 429s (README "Limits"). A refusal costs the server
// almost the work of an answer, so a client that keeps calling in a loop after 429 (ten connections firing
// test events, a retry loop without back-off) takes a share of the cores from every other key. Its first
// 429 is sent at once; a 429 to the same caller before the Retry-After of its previous one has run out is
// held for `holdMs` before it is sent. Its connections then wait instead of asking again, so its request
// rate falls to about (connections / hold) while other keys are served as before. Nothing else changes:
// the answer, its headers and its count are the same, only later. Per instance, like per-address limits.

const MAX_CALLERS = 100_000; // a stream of distinct callers cannot grow the table past this (expired ones are swept)

export class RepeatRefusals {
  /** caller -> the time (ms) until which its last 429's Retry-After runs. */
  private readonly until = new Map<string, number>();
  private readonly held = new Map<NodeJS.Timeout, () => void>();

  /** `holdMs`: how long a repeated refusal waits; 0 sends every refusal at once. */
  constructor(private readonly holdMs: number) {}

  /** Sends a 429 to `caller` (a key id, or the client address of a call without a valid key): at once, or
   *  after the hold when the caller was refused before and its Retry-After (seconds) has not run out. */
  refuse(caller: string, retryAfterS: number, t: number, send: () => void): void {
    const prior = this.until.get(caller) ?? 0;
    const repeated = t < prior;
    if (this.until.size >= MAX_CALLERS) this.sweep(t);
    this.until.set(caller, Math.max(prior, t + Math.max(1, retryAfterS) * 1000));
    if (!repeated || this.holdMs === 0) { send(); return; }
    const timer = setTimeout(() => { this.held.delete(timer); send(); }, this.holdMs);
    this.held.set(timer, send);
  }

  /** Sends every held refusal now (the server is stopping: they must not hold up its drain). */
  release(): void {
    for (const [timer, send] of this.held) { clearTimeout(timer); send(); }
    this.held.clear();
  }

  private sweep(t: number): void {
    for (const [caller, until] of this.until) if (until <= t) this.until.delete(caller);
    if (this.until.size >= MAX_CALLERS) this.until.clear();
  }
}
