import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { errorMessage } from "./i18n";
import { SUPPORTED_LOCALES } from "./locales";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

// Reasons built by helpers (passed as arguments) or by the kernel's defaults: the scan below cannot see them.
const INDIRECT_REASONS = [
  "validation.invalid",
  "auth.unauthenticated",
  "auth.forbidden",
  "not_found",
  "conflict",
  "business_rule",
  "rate_limited",
  "internal",
  "unavailable",
  "auth.unsupported_scheme",
  "user.unknown_role",
  "user.unknown_group",
  "role.unknown_permission",
  "role.platform_permission",
  "group.unknown_role",
  "group.unknown_user",
  "finance.payment_not_found",
  "finance.expense_not_found",
];

// `reason: "x"`, and the reason argument of the finance helpers `fieldError(field, "x", …)` / `notFound("x", …)`.
const REASON_IN_SOURCE = /\b(?:reason:\s*|fieldError\([^,()]*,\s*|notFound\(\s*)"([a-z0-9_.]+)"/g;

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "generated" || entry.name === "node_modules" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });

const BROWSER_WORKSPACES = ["ui", "accountant", "admin"];

const reasonsInSource = (): string[] => {
  const found = new Set<string>();
  for (const area of ["packages", "apps"]) {
    for (const workspace of readdirSync(join(ROOT, area), { withFileTypes: true })) {
      // The apps' own client-side reasons (network down, …) carry their own texts in the UI's catalogue.
      if (!workspace.isDirectory() || BROWSER_WORKSPACES.includes(workspace.name)) continue;
      const src = join(ROOT, area, workspace.name, "src");
      let files: string[];
      try {
        files = sourceFiles(src);
      } catch {
        continue; // a workspace without src/
      }
      for (const file of files) {
        for (const match of readFileSync(file, "utf8").matchAll(REASON_IN_SOURCE)) {
          if (match[1]) found.add(match[1]);
        }
      }
    }
  }
  return [...found];
};

describe("error reasons", () => {
  it("every reason the code raises has a message in every language", () => {
    const reasons = [...new Set([...reasonsInSource(), ...INDIRECT_REASONS])];
    expect(reasons.length).toBeGreaterThan(30);
    const missing = reasons.flatMap((reason) =>
      SUPPORTED_LOCALES.filter((locale) => errorMessage(locale, reason) === undefined).map(
        (locale) => `${locale}: errors.${reason}`,
      ),
    );
    expect(missing, "add these to packages/i18n/src/locales").toEqual([]);
  });
});
