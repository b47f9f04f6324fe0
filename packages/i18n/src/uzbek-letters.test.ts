import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * Uzbek Latin has two letters written with an apostrophe-like mark, and one mark for each: the
 * modifier letter turned comma ʻ (U+02BB) in oʻ and gʻ, and the modifier letter apostrophe ʼ (U+02BC)
 * for the tutuq belgisi (maʼlumot, aʼzo). Quotation marks (‘ ’ U+2018/U+2019), the ASCII apostrophe
 * and the backtick only look alike: a reader sees two spellings of one word, and search, sorting and
 * fonts treat them as punctuation. This reads the Uzbek texts of the server and of both apps as
 * source text, so a mark typed into any of them is caught here, whatever the file's shape.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Files that are all Uzbek. */
const UZBEK_FILES = [
  "packages/i18n/src/locales/uz.ts",
  "packages/ui/src/locales/uz.ts",
  "apps/accountant/src/renderer/locales/uz.ts",
];
/** Files holding every language: their `uz` blocks (`uz: {…}`, `const uz… = {…}`, `uz: "…"`) are read. */
const MIXED_FILES = [
  "apps/admin/src/i18n.ts",
  "apps/admin/src/audit-labels.ts",
  "packages/i18n/src/locales.ts",
  "packages/ui/src/i18n.tsx",
];

/** The text of each `uz` object literal in `source` (by matching its braces), and each `uz: "…"`. */
const uzbekBlocks = (source: string): string[] => {
  const blocks = [...source.matchAll(/\buz:\s*"(?:[^"\\\n]|\\.)*"/g)].map((match) => match[0]);
  for (const start of source.matchAll(/\buz(?::\s*\w+)?\s*[:=]\s*\{/g)) {
    let depth = 0;
    for (let i = (start.index ?? 0) + start[0].length - 1; i < source.length; i += 1) {
      if (source[i] === "{") depth += 1;
      if (source[i] === "}") depth -= 1;
      if (depth === 0) {
        blocks.push(source.slice(start.index, i + 1));
        break;
      }
    }
  }
  return blocks;
};

/** Each string literal ("…") of a block: the texts, not the code around them. */
const stringsOf = (block: string): string[] =>
  [...block.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)].map((match) => match[1] ?? "");

const texts = (): { file: string; text: string }[] => [
  ...UZBEK_FILES.flatMap((file) =>
    stringsOf(readFileSync(`${ROOT}${file}`, "utf8")).map((text) => ({ file, text })),
  ),
  ...MIXED_FILES.flatMap((file) =>
    uzbekBlocks(readFileSync(`${ROOT}${file}`, "utf8")).flatMap((block) =>
      stringsOf(block).map((text) => ({ file, text })),
    ),
  ),
];

/** What each kind of wrong mark looks like, where it stands for a letter. */
const WRONG: [string, RegExp][] = [
  ["oʻ/gʻ written with ‘ (U+2018)", /[oOgG]\u2018/],
  ["oʻ/gʻ written with ’ (U+2019)", /[oOgG]\u2019/],
  ["oʻ/gʻ written with an ASCII ' or `", /[oOgG]['`]/],
  ["oʻ/gʻ written with the tutuq ʼ (U+02BC)", /[oOgG]\u02bc/],
  ["a tutuq written with ’ (U+2019), ‘ (U+2018), ' or `", /[A-Za-z][\u2018\u2019'`][a-z]/],
  ["ʻ (U+02BB) after a letter other than o or g", /[^oOgG]\u02bb/],
];

describe("Uzbek letters", () => {
  it("every Uzbek file and block is found (a moved file fails here, not silently)", () => {
    for (const file of MIXED_FILES)
      expect(uzbekBlocks(readFileSync(`${ROOT}${file}`, "utf8")), file).not.toEqual([]);
    const all = texts();
    expect(all.length).toBeGreaterThan(500);
    expect(all.some(({ text }) => text.includes("oʻ"))).toBe(true);
    expect(all.some(({ text }) => text.includes("maʼlumot"))).toBe(true);
  });

  it("oʻ and gʻ use ʻ (U+02BB) and the tutuq ʼ (U+02BC) in the server's and both apps' Uzbek", () => {
    const offending = texts().flatMap(({ file, text }) =>
      WRONG.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${file}: ${what}: ${text}`),
    );
    expect(offending).toEqual([]);
  });

  it("catches each wrong mark (the check itself)", () => {
    for (const sample of ["yo‘q", "yo’q", "yo'q", "yo`q", "yoʼq", "ma’lumot", "ma'lumot", "maʻlumot"]) {
      expect(
        WRONG.some(([, pattern]) => pattern.test(sample)),
        sample,
      ).toBe(true);
    }
    for (const sample of ["yoʻq", "bogʻ", "maʼlumot", "aʼzo", "Oʻzbekcha"]) {
      expect(
        WRONG.some(([, pattern]) => pattern.test(sample)),
        sample,
      ).toBe(false);
    }
  });
});
