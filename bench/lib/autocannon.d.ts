/** Minimal types for the parts of autocannon the benchmarks use (the package ships none). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    onResponse?: (status: number, body: string, context: unknown) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }
  interface Result {
    requests: { average: number; total: number };
    latency: Record<string, number>;
    non2xx: number;
    errors: number;
  }
  interface Instance extends EventEmitter, PromiseLike<Result> {}
  function autocannon(options: Options): Instance;
  export default autocannon;
}
