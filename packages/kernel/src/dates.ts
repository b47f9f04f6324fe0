import { z } from "zod";

/**
 * The dates our books hold. PostgreSQL has no year 0 (and zod's ISO date accepts 0000-01-01), and
 * reports turn a period into rows: one range for every date field and filter keeps them all sane.
 */
export const FIRST_DATE = "1900-01-01";
export const LAST_DATE = "9999-12-31";

/**
 * An ISO calendar date (YYYY-MM-DD, a real day from FIRST_DATE to LAST_DATE). It stays a string on
 * the wire and through validation (so the transport and the service may both parse it); `dateOf`
 * makes the Date at UTC midnight that PostgreSQL's `date` maps to.
 */
export const ZIsoDate = z.iso
  .date()
  .refine((date) => date >= FIRST_DATE && date <= LAST_DATE, {
    message: `must be a date from ${FIRST_DATE} to ${LAST_DATE}`,
  })
  .meta({ description: "Calendar date YYYY-MM-DD", example: "2026-11-22" });

export const dateOf = (isoDate: string): Date => new Date(`${isoDate}T00:00:00.000Z`);

export const toIsoDate = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * A refinement (spread into `.refine(...)`) that the date in `last` is not before the one in
 * `first` when both are given; ISO dates compare as strings. The issue names `last`.
 */
export const datesInOrder = <First extends string, Last extends string>(
  first: First,
  last: Last,
): [
  (query: Partial<Record<First | Last, string | undefined>>) => boolean,
  { message: string; path: string[] },
] => [
  (query) => {
    const from = query[first];
    const to = query[last];
    return !from || !to || from <= to;
  },
  { message: `must not be before ${first}`, path: [last] },
];

/** `from` … `to` filters of the lists. */
export const periodInOrder = datesInOrder("from", "to");
