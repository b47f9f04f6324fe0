import { describe, expect, it } from "vitest";
import { en as serverEn } from "../../../../../packages/i18n/src/locales/en";
import { ru as serverRu } from "../../../../../packages/i18n/src/locales/ru";
import { uz as serverUz } from "../../../../../packages/i18n/src/locales/uz";
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

/*
 * The .xlsx files the server writes and the screens they come from read the same words: a column of
 * the payments list is called what its header on screen is called, in every language.
 */
const SAME_WORDS: [string, string][] = [
  ["documents.date", "columns.date"],
  ["documents.account", "columns.account"],
  ["documents.amount", "columns.amount"],
  ["documents.counterparty", "columns.counterparty"],
  ["documents.category", "columns.category"],
  ["documents.comment", "columns.comment"],
  ["accounts.name", "columns.name"],
  ["accounts.number", "columns.number"],
  ["accounts.currency", "columns.currency"],
  ["accounts.balance", "columns.balance"],
  ["accounts.description", "columns.description"],
  ["accounts.type", "columns.type"],
  ["accounts.change", "columns.change"],
  ["accounts.runningBalance", "columns.runningBalance"],
  ["accounts.opening", "rows.opening"],
  ["accounts.closing", "rows.closing"],
  ["accounts.title", "sheets.accounts"],
  ["accounts.statement", "sheets.accountStatement"],
  ["accounts.transactions", "sheets.transactions"],
  ["documents.payments", "sheets.payments"],
  ["documents.expenses", "sheets.expenses"],
  ["picker.noCategory", "rows.uncategorized"],
  ["accounts.periods.allTime", "rows.allTime"],
  ["transfers.reversedTag", "rows.reversed"],
  ["transfers.reversalTag", "rows.reversal"],
  ["types.income", "types.income"],
  ["types.expense", "types.expense"],
  ["types.transfer", "types.transfer"],
  ["types.exchange", "types.exchange"],
  ["types.opening_balance", "types.opening_balance"],
];

const at = (tree: object, path: string): unknown =>
  path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], tree);

describe("the app and its .xlsx files", () => {
  it("read the same words in every language (the Uzbek category is Modda, never Toifa)", () => {
    const app = { en, ru, uz };
    const server = { en: serverEn, ru: serverRu, uz: serverUz };
    const differing = (["en", "ru", "uz"] as const).flatMap((locale) =>
      SAME_WORDS.flatMap(([screen, file]) => {
        const onScreen = at(app[locale], screen);
        const inFile = at(server[locale].export.finance, file);
        expect(onScreen, `${locale} ${screen}`).toEqual(expect.any(String));
        return onScreen === inFile ? [] : [`${locale}: ${screen} "${onScreen}" ≠ ${file} "${inFile}"`];
      }),
    );
    expect(differing).toEqual([]);
    expect(JSON.stringify(serverUz)).not.toMatch(/toifa/i);
    expect(JSON.stringify(uz)).not.toMatch(/toifa/i);
  });
});
