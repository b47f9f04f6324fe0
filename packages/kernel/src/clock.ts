/** Injectable time source: services read time only through it, tests drive it. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export type ManualClock = Clock & { set(at: Date): void; advance(ms: number): void };

export const createManualClock = (start: Date = new Date("2026-01-01T00:00:00Z")): ManualClock => {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = at.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
};
