import { z } from "zod";

/**
 * An ISO calendar date (YYYY-MM-DD, a real day). It stays a string on the wire and through
 * validation (so the transport and the service may both parse it); `dateOf` makes the Date
 * at UTC midnight that PostgreSQL's `date` maps to.
 */
export const ZIsoDate = z.iso.date().meta({ description: "Calendar date YYYY-MM-DD", example: "2026-11-22" });

export const dateOf = (isoDate: string): Date => new Date(`${isoDate}T00:00:00.000Z`);

export const toIsoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** A period whose end is not before its start (ISO dates compare as strings). */
export const periodInOrder: [
  (query: { from?: string | undefined; to?: string | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  (query) => !query.from || !query.to || query.from <= query.to,
  { message: "must not be before from", path: ["to"] },
];
