/*
 * Statement periods: the presets an accountant picks from, as dates on a given day. Pure functions
 * (no React), so they are unit-tested on any day of the year.
 */

export type Period = { start: string | null; end: string | null };

export const PERIOD_PRESETS = [
  "allTime",
  "thisMonth",
  "lastMonth",
  "thisQuarter",
  "thisYear",
  "lastYear",
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

const iso = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);

/** The dates of a preset on `today` (an ISO date); all time has none. */
export const presetPeriod = (preset: PeriodPreset, today: string): Period => {
  const [year = 1970, month = 1] = today.split("-").map(Number);
  const m = month - 1;
  const quarter = Math.floor(m / 3) * 3;
  switch (preset) {
    case "allTime":
      return { start: null, end: null };
    case "thisMonth":
      return { start: iso(year, m, 1), end: iso(year, m + 1, 0) };
    case "lastMonth":
      return { start: iso(year, m - 1, 1), end: iso(year, m, 0) };
    case "thisQuarter":
      return { start: iso(year, quarter, 1), end: iso(year, quarter + 3, 0) };
    case "thisYear":
      return { start: iso(year, 0, 1), end: iso(year, 11, 31) };
    case "lastYear":
      return { start: iso(year - 1, 0, 1), end: iso(year - 1, 11, 31) };
  }
};

/** Which preset a period is on `today`, or "custom". */
export const presetOf = (period: Period, today: string): PeriodPreset | "custom" =>
  PERIOD_PRESETS.find((preset) => {
    const dates = presetPeriod(preset, today);
    return dates.start === period.start && dates.end === period.end;
  }) ?? "custom";
