import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { toFieldIssues } from "@hisob/kernel";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorMessage } from "./i18n";
import { issueMessage, matchIssue } from "./issues";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ["generated", "node_modules"].includes(entry.name) ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });

// Configuration checks at boot (env.ts) speak to the operator, in English, never to an API caller.
const OPERATOR_ONLY = /apps\/server\/src\/env\.ts$/;

/** Field-detail texts written in code: schema messages, service field errors, filter problems. */
const issueTextsInSource = (): string[] => {
  const found = new Set<string>();
  const patterns = [
    // { message: "must be …" } / { error: "…" } / problem: "…" / fieldError(field, reason, "…")
    /(?:message|error|problem):\s*(["`])((?:is|must|has|cannot|may|times|unknown)\b[^"`]*)\1/g,
    /fieldError\(\s*[^,()]+,\s*"[^"]+",\s*(["`])([^"`]+)\1/g,
  ];
  // Role permission problems are followed by the names they concern: "has unknown values: a, b".
  const namesAfter = /invalidPermissions\(\s*"[^"]+",\s*(["`])([^"`]+)\1/g;
  for (const area of ["packages", "apps"]) {
    for (const workspace of readdirSync(join(ROOT, area), { withFileTypes: true })) {
      if (!workspace.isDirectory()) continue;
      let files: string[] = [];
      try {
        files = sourceFiles(join(ROOT, area, workspace.name, "src"));
      } catch {
        continue;
      }
      for (const file of files.filter((path) => !OPERATOR_ONLY.test(path))) {
        const text = readFileSync(file, "utf8");
        for (const match of text.matchAll(namesAfter)) found.add(`${match[2]}: X1`);
        for (const pattern of patterns) {
          for (const match of text.matchAll(pattern)) {
            // A template's `${value}` stands for a value the catalogue carries over; a text constant of the file is read.
            const issue = (match[2] ?? "")
              .replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => {
                const constant = new RegExp(`const ${name} = \`([^\`]*)\``).exec(text);
                return constant?.[1] ?? whole;
              })
              .replace(/\$\{[^}]+\}/g, "X1");
            if (!issue.startsWith("validation error")) found.add(issue);
          }
        }
      }
    }
  }
  return [...found];
};

describe("field details in the caller's language", () => {
  it("every field detail written in code has a Russian and an Uzbek text", () => {
    const texts = issueTextsInSource();
    expect(texts.length).toBeGreaterThan(40);
    const missing = texts.filter((text) => matchIssue(text) === null);
    expect(missing, "add these to issues in packages/i18n/src/locales").toEqual([]);
  });

  it("zod's wording, as the kernel rewrites it, is translated; English stays exactly as produced", () => {
    const schema = z.strictObject({
      id: z.uuid(),
      name: z.string().max(3),
      code: z.string().length(3),
      tags: z.array(z.string()).min(2),
      limit: z.number().int().max(100),
      page: z.number().min(1),
      ratio: z.number().gt(0),
      kind: z.enum(["a", "b"]),
      at: z.iso.date(),
      email: z.email(),
      flag: z.boolean(),
      step: z.number().multipleOf(5),
      site: z.string().startsWith("https://"),
      missing: z.string(),
    });
    const result = schema.safeParse(
      {
        id: "x",
        name: "long",
        code: "ab",
        tags: ["one"],
        limit: 101,
        page: 0,
        ratio: 0,
        kind: "c",
        at: "2026-13-01",
        email: "nope",
        flag: "yes",
        step: 7,
        site: "http://",
        extra: 1,
      },
      { reportInput: true },
    );
    expect(result.success).toBe(false);
    const issues = toFieldIssues(result.error?.issues ?? []);
    expect(issues.length).toBeGreaterThanOrEqual(14);
    for (const { path, message } of issues) {
      expect(issueMessage("en", message)).toBe(message);
      for (const locale of ["ru", "uz"] as const) {
        const translated = issueMessage(locale, message);
        expect(translated, `${locale}: ${path} ${message}`).not.toBe(message);
        expect(translated).not.toMatch(/\{\{|must|is required|is not/);
      }
    }
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
    expect(issueMessage("ru", byPath.limit ?? "")).toBe("должно быть не больше 100");
    expect(issueMessage("uz", byPath.kind ?? "")).toBe("quyidagilardan biri boʻlishi kerak: a, b");
    expect(issueMessage("ru", byPath.missing ?? "")).toBe("обязательно для заполнения");
    expect(issueMessage("ru", byPath.extra ?? "")).toBe("не допускается");
  });
});

describe("a day a refusal carries as data", () => {
  const english = "must be after 2026-10-31: the books are closed through that day";
  const data = { lockDate: { isoDate: "2026-10-31" } };

  it("is written as each language writes dates, English's too; without it the text stays as produced", () => {
    expect(issueMessage("en", english, data)).toBe(
      "must be after Oct 31, 2026: the books are closed through that day",
    );
    expect(issueMessage("uz", english, data)).toBe(
      "31.10.2026 dan keyin boʻlishi kerak: hisob kitoblari shu kun bilan yopilgan",
    );
    expect(issueMessage("ru", english, data)).toMatch(/^должна быть позже 31 окт\. 2026 г\.: книги закрыты/);
    expect(issueMessage("en", english)).toBe(english);
    expect(issueMessage("ru", english)).toMatch(/^должна быть позже 2026-10-31:/);
  });

  it("formats the same way in a reason's message", () => {
    expect(errorMessage("en", "finance.period_closed", data)).toMatch(
      /^The books are closed through Oct 31, 2026:/,
    );
    expect(errorMessage("uz", "finance.period_closed", data)).toMatch(/31\.10\.2026/);
  });
});
