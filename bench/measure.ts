/** Runs `fn` `iterations` times after a warm-up and returns operations per second. */
export const opsPerSecond = async (
  iterations: number,
  fn: (i: number) => Promise<unknown>,
): Promise<number> => {
  for (let i = 0; i < Math.min(100, iterations); i++) await fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return iterations / seconds;
};
