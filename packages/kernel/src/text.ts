import { z } from "zod";

/*
 * Free text every module keeps (names, descriptions, notes). PostgreSQL cannot store a NUL character at all (the insert
 * fails), so text with one must be refused as input, not reach the database; other control
 * characters and lone UTF-16 surrogates have no business in a name or a note either. The schemas
 * only trim (idempotent), so the transport and the service may both parse the same value.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): invisible, they
 * make "invoice\u202Efdp.exe" read as "invoiceexe.pdf" ("Trojan Source"). Our languages never need them.
 */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** Removes bidirectional controls (names we keep but did not choose, such as an upload's file name). */
export const stripBidiControls = (value: string): string => value.replace(BIDI_CONTROLS, "");

const hasNoControls = (pattern: RegExp) => (value: string) =>
  !pattern.test(value) && !BIDI_CONTROL.test(value);

/** No lone UTF-16 surrogate (the driver would silently turn it into U+FFFD). */
const isWellFormed = (value: string): boolean => !/\p{Cs}/u.test(value);

/** One line of text (a name, a code, a phone number): trimmed, at most `max` characters, no control characters. */
export const ZLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(hasNoControls(CONTROL), { message: "must not contain control characters" })
    .refine(isWellFormed, { message: "must be valid Unicode text" });

/** A required line: as `ZLine`, and not empty after trimming. */
export const ZRequiredLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine(hasNoControls(CONTROL), { message: "must not contain control characters" })
    .refine(isWellFormed, { message: "must be valid Unicode text" });

/** Multi-line text (notes, descriptions, comments): line breaks and tabs allowed, other control characters not. */
export const ZText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(hasNoControls(CONTROL_EXCEPT_LINES), { message: "must not contain control characters" })
    .refine(isWellFormed, { message: "must be valid Unicode text" });
