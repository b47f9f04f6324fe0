import { z } from "zod";

/** Default and maximum page size for every list (REST, GraphQL, tRPC). Documented in the README. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** At most this many rows per exported file; a list export without `limit` takes every matching row up to it. */
export const EXPORT_MAX_ROWS = 1_000_000;

export const ZPagination = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});
export type TPagination = z.infer<typeof ZPagination>;

export type Page<T> = { items: T[]; total: number; limit: number; offset: number };

export const ZPage = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });

/** A boolean in a query string: `true`/`false` (or a real boolean from a non-HTTP caller). */
export const ZQueryBoolean = z.union([
  z.boolean(),
  z.enum(["true", "false"]).transform((value) => value === "true"),
]);
