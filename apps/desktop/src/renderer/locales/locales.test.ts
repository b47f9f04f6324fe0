import { describe, expect, it } from "vitest";
import { en as uiEn } from "../../../../../packages/ui/src/locales/en";
import { ru as uiRu } from "../../../../../packages/ui/src/locales/ru";
import { uz as uiUz } from "../../../../../packages/ui/src/locales/uz";
import { en } from "./en";
import { ru } from "./ru";
import { uz } from "./uz";

/** Every key path of a message tree; plural forms (key_one, key_few…) count as their base key. */
const keys = (tree: object, prefix = ""): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string"
      ? [`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, "")}`]
      : keys(value as object, `${prefix}${key}.`),
  );
const keySet = (tree: object) => [...new Set(keys(tree))].sort();

describe("the apps' strings", () => {
  it("ru and uz have every key en has, and no other", () => {
    expect(keySet(ru)).toEqual(keySet(en));
    expect(keySet(uz)).toEqual(keySet(en));
    expect(keySet(uiRu)).toEqual(keySet(uiEn));
    expect(keySet(uiUz)).toEqual(keySet(uiEn));
  });

  it("Uzbek uses the modifier letter ʻ (U+02BB) in oʻ and gʻ, never an ASCII or typographic quote", () => {
    const text = JSON.stringify([uz, uiUz]);
    expect(text).not.toMatch(/[og]['‘’`]/i);
    expect(text).toContain("oʻ");
  });

  it("Russian plurals have the few and many forms", () => {
    expect(Object.keys(ru.accounts)).toEqual(
      expect.arrayContaining(["entries_one", "entries_few", "entries_many"]),
    );
  });
});
