declare module 'autocannon' {
  namespace autocannon {
    interface Result {
      requests: { average: number };
      latency: { p99: number; average: number };
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }
  }
  function autocannon(
    opts: Record<string, unknown>,
    cb: (err: Error | null, result: autocannon.Result) => void,
  ): unknown;
  export default autocannon;
}
