import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locale } from "@hisob/kernel";
import { describe, expect, it } from "vitest";
import { formatMoney } from "./format";
import { RESOURCES, type TranslationParams, t } from "./i18n";
import { SUPPORTED_LOCALES } from "./locales";
import type { MessageKey } from "./messages";

/*
 * Money people read: a message that names an amount shows it in major units in the language's
 * money format with the currency's code ("USD 5,000.00", "5 000,00 USD"), never as a count of minor units.
 */

// "minor unit(s)" in each language, and the bare "<digits> UZS in minor units" form the messages used to have.
const MINOR_UNIT_WORDING = [/minor units?/i, /минимальн\S* единиц/i, /eng kichik birlik/i];

// Input-format descriptions, not amounts: the wire form of an amount *is* minor units, and saying so is the point.
const FORMAT_DESCRIPTIONS = new Set<string>([
  "issues.minor_amount",
  "issues.no_minor_units",
  // "a rate in minor units is easily entered the wrong way round": the old rate form, not an amount.
  "errors.finance.exchange_rate_unconfirmed",
]);

const leaves = (node: unknown, prefix = ""): Array<[string, string]> =>
  typeof node === "string"
    ? [[prefix, node]]
    : Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
        leaves(value, prefix ? `${prefix}.${key}` : key),
      );

/** The exchange guard's other values: the rate read both ways, what lands, the margin, the last rate. */
const RATE_PARAMS: TranslationParams = {
  reading: { base: "USD", quote: "UZS", rate: "12650" },
  swapped: { base: "UZS", quote: "USD", rate: "12650" },
  last: { base: "USD", quote: "UZS", rate: "12700" },
  typical: { base: "USD", quote: "UZS", rate: "12600" },
  received: { minor: "39", currency: "UZS", minorUnits: 2 },
  margin: 10,
  factor: 3,
};

/** Messages that name an amount, the placeholder that carries it, and any other values they need. */
const AMOUNT_MESSAGES: Array<[MessageKey, string, TranslationParams?]> = [
  ["errors.finance.insufficient_balance", "available"],
  ["errors.finance.debt_amount_below_settled", "settled"],
  ["errors.finance.debt_over_settlement", "outstanding"],
  ["errors.finance.exchange_rate_unconfirmed", "amount", RATE_PARAMS],
  ["errors.finance.exchange_rate_implausible", "amount", RATE_PARAMS],
  ["errors.finance.exchange_rate_inverted", "amount", RATE_PARAMS],
  ["errors.finance.exchange_rate_unusual", "amount", RATE_PARAMS],
];

describe("amounts in messages", () => {
  it("no message in any language counts money in minor units", () => {
    const offending = SUPPORTED_LOCALES.flatMap((locale) =>
      leaves(RESOURCES[locale])
        .filter(([key]) => !FORMAT_DESCRIPTIONS.has(key))
        .filter(([, text]) => MINOR_UNIT_WORDING.some((pattern) => pattern.test(text)))
        .map(([key, text]) => `${locale}: ${key} = ${text}`),
    );
    expect(offending).toEqual([]);
  });

  it("every message that names an amount renders it in major units, in each language's format", () => {
    const cases: Array<[Locale, string]> = [
      ["en", "USD\u00a05,000.00"],
      ["ru", "5\u00a0000,00\u00a0USD"],
      ["uz", "5\u00a0000,00\u00a0USD"],
    ];
    for (const [key, placeholder, others] of AMOUNT_MESSAGES) {
      for (const [locale, expected] of cases) {
        expect(formatMoney(500000n, "USD", 2, locale)).toBe(expected);
        const text = t(locale, key, {
          ...others,
          account: "Cash",
          [placeholder]: { minor: "500000", currency: "USD", minorUnits: 2 },
        });
        expect(text, `${locale}: ${key}`).toContain(expected);
        expect(text).not.toContain("500000");
        expect(text).not.toContain("{{");
      }
    }
    // A currency without minor units, and a large UZS amount (the case that used to read "2000000000 UZS").
    expect(
      t("ru", "errors.finance.debt_over_settlement", {
        outstanding: { minor: "2000000000", currency: "UZS", minorUnits: 2 },
      }),
    ).toContain("20\u00a0000\u00a0000,00\u00a0UZS");
    expect(
      t("en", "errors.finance.debt_over_settlement", {
        outstanding: { minor: "1500", currency: "JPY", minorUnits: 0 },
      }),
    ).toContain("JPY\u00a01,500");
  });

  it("every catalogue message with an amount placeholder is listed above (so it is checked)", () => {
    const listed = new Set(AMOUNT_MESSAGES.map(([key]) => key));
    const withAmount = leaves(RESOURCES.en)
      .filter(([, text]) => /\{\{(available|settled|outstanding|amount|balance)\}\}/.test(text))
      .map(([key]) => key);
    expect(withAmount.filter((key) => !listed.has(key as MessageKey))).toEqual([]);
  });
});

// The English messages are written in code: sweep the sources for amounts said in minor units.
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ["generated", "node_modules"].includes(entry.name) ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });

describe("amounts in the English messages written in code", () => {
  it("no thrown message says an amount in minor units", () => {
    const offending: string[] = [];
    for (const area of ["packages", "apps"]) {
      for (const workspace of readdirSync(join(ROOT, area), { withFileTypes: true })) {
        if (!workspace.isDirectory()) continue;
        let files: string[] = [];
        try {
          files = sourceFiles(join(ROOT, area, workspace.name, "src"));
        } catch {
          continue;
        }
        for (const file of files) {
          readFileSync(file, "utf8")
            .split("\n")
            .forEach((line, index) => {
              // `${amount} in minor units` or `(… in minor units)`: an amount shown as a count of minor units.
              if (/\$\{[^}]+\}[^"`]*in minor units|message:.*\d.*in minor units/.test(line)) {
                offending.push(`${file.slice(ROOT.length)}:${index + 1}: ${line.trim()}`);
              }
            });
        }
      }
    }
    expect(offending).toEqual([]);
  });
});
