import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  AUDIT_ENTITY_LABELS,
  AUDIT_FIELD_LABELS,
  auditActionLabel,
  auditEntityLabel,
  auditFieldLabel,
  auditValue,
} from "./audit-labels";

const LANGUAGES = ["en", "ru", "uz"] as const;

/** Every `audit(tx, who, "entity", id, "action"` the server's packages write, read from their source. */
const writtenPairs = (): { entity: string; action: string }[] => {
  const root = join(import.meta.dirname, "../../../packages");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === "node_modules" || name === "generated") continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) files.push(path);
    }
  };
  walk(root);
  const pairs: { entity: string; action: string }[] = [];
  const call = /audit\(\s*tx,\s*[^,]+(?:\([^)]*\))?,\s*(`[^`]+`|"[a-z_]+"),\s*[^,]+,\s*"([a-z_]+)"/g;
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(call)) {
      const entity = match[1] ?? "";
      const action = match[2] ?? "";
      // `${kind.name}_category` stands for both kinds of category.
      const entities = entity.startsWith("`")
        ? ["payment", "expense"].map((kind) => entity.slice(1, -1).replace(/\$\{[^}]+\}/, kind))
        : [entity.slice(1, -1)];
      for (const one of entities) pairs.push({ entity: one, action });
    }
    // A record of the records building block names its entity; the block writes create, update, delete.
    for (const match of readFileSync(file, "utf8").matchAll(/auditEntity: "([a-z_]+)"/g)) {
      for (const action of ["create", "update", "delete"]) pairs.push({ entity: match[1] ?? "", action });
    }
  }
  return pairs;
};

describe("audit labels", () => {
  it("every language labels the same entities, actions and fields", () => {
    for (const language of LANGUAGES) {
      expect(Object.keys(AUDIT_ENTITY_LABELS[language]).sort()).toEqual([...AUDIT_ENTITIES].sort());
      expect(Object.keys(AUDIT_ACTION_LABELS[language]).sort()).toEqual([...AUDIT_ACTIONS].sort());
      expect(Object.keys(AUDIT_FIELD_LABELS[language]).sort()).toEqual(
        Object.keys(AUDIT_FIELD_LABELS.en).sort(),
      );
      for (const text of Object.values(AUDIT_FIELD_LABELS[language])) expect(text.trim()).not.toBe("");
    }
  });

  it("knows every entity and action the services write (a new one needs its words)", () => {
    const pairs = writtenPairs();
    expect(pairs.length).toBeGreaterThan(30);
    const entities: readonly string[] = AUDIT_ENTITIES;
    const actions: readonly string[] = AUDIT_ACTIONS;
    expect(pairs.filter((pair) => !entities.includes(pair.entity))).toEqual([]);
    expect(pairs.filter((pair) => !actions.includes(pair.action))).toEqual([]);
  });

  it("translates identifiers and falls back to the identifier for one it does not know", () => {
    expect(auditEntityLabel("ru", "user_group")).toBe("Группы пользователя");
    expect(auditActionLabel("uz", "sign_in_failed")).toBe("muvaffaqiyatsiz kirish");
    expect(auditFieldLabel("en", "passwordChanged")).toBe("Password changed");
    expect(auditFieldLabel("ru", "someNewField")).toBe("someNewField");
    expect(auditEntityLabel("uz", "crm_thing")).toBe("crm_thing");
  });
});

describe("audit values", () => {
  it("shows true and false as words in each language", () => {
    expect([auditValue("en", true), auditValue("en", false)]).toEqual(["Yes", "No"]);
    expect([auditValue("ru", true), auditValue("ru", false)]).toEqual(["Да", "Нет"]);
    expect([auditValue("uz", true), auditValue("uz", false)]).toEqual(["Ha", "Yoʻq"]);
    expect(auditValue("ru", [true, false])).toBe("Да, Нет");
  });

  it("shows nothing as a dash, lists by name, times in the user's format, numbers as recorded", () => {
    expect(auditValue("en", null)).toBe("—");
    expect(auditValue("en", "")).toBe("—");
    expect(auditValue("en", [])).toBe("—");
    expect(
      auditValue("uz", [
        { id: "r1", name: "accountant" },
        { id: "r2", name: "viewer" },
      ]),
    ).toBe("accountant, viewer");
    expect(auditValue("ru", "2026-03-05T14:07:00.000Z")).toMatch(/^05\.03\.2026, \d{2}:07$/);
    expect(auditValue("en", 2)).toBe("2");
    expect(auditValue("en", "true")).toBe("true");
  });
});
