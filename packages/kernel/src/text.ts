import { z } from "zod";

/*
 * Free text the finance records keep. PostgreSQL cannot store a NUL character at all (the insert
 * fails), so text with one must be refused as input, not reach the database; other control
 * characters and lone UTF-16 surrogates have no business in a name or a note either. The schemas
 * only trim (idempotent), so the transport and the service may both parse the same value.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** No lone UTF-16 surrogate (the driver would silently turn it into U+FFFD). */
const isWellFormed = (value: string): boolean => !/\p{Cs}/u.test(value);

/** One line of text (a name, a code, a phone number): trimmed, at most `max` characters, no control characters. */
export const ZLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !CONTROL.test(value), { message: "must not contain control characters" })
    .refine(isWellFormed, { message: "must be valid Unicode text" });

/** A required line: as `ZLine`, and not empty after trimming. */
export const ZRequiredLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !CONTROL.test(value), { message: "must not contain control characters" })
    .refine(isWellFormed, { message: "must be valid Unicode text" });

/** Multi-line text (notes, descriptions, comments): line breaks and tabs allowed, other control characters not. */
export const ZText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !CONTROL_EXCEPT_LINES.test(value), { message: "must not contain control characters" })
    .refine(isWellFormed, { message: "must be valid Unicode text" });
