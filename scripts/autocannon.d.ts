// autocannon ships no type declarations; the bench uses this much of it.
declare module 'autocannon' {
  interface Histogram { average: number; mean: number; p50: number; p90: number; p99: number; max: number }
  interface Result { requests: Histogram & { total: number }; latency: Histogram; throughput: Histogram; errors: number; timeouts: number; non2xx: number; '2xx': number }
  interface Options { url: string; connections?: number; duration?: number; amount?: number; overallRate?: number; headers?: Record<string, string>; method?: string; body?: string; pipelining?: number; requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string }[] }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
