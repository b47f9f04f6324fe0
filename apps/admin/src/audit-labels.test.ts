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
  auditFieldValue,
  auditNames,
  auditValue,
  formatMinorAmount,
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

describe("audit entries read as words", () => {
  it("labels the fields entries record in every language (no raw identifiers)", () => {
    for (const field of [
      "accountId",
      "createdBy",
      "expiresAt",
      "userAgent",
      "counterpartyId",
      "categoryId",
    ]) {
      expect(auditFieldLabel("en", field)).not.toBe(field);
      expect(auditFieldLabel("ru", field)).not.toBe(field);
      expect(auditFieldLabel("uz", field)).not.toBe(field);
    }
    expect(auditFieldLabel("uz", "accountId")).toBe("Hisob");
    expect(auditFieldLabel("ru", "userAgent")).toBe("Браузер");
    expect(auditFieldLabel("en", "expiresAt")).toBe("Expires");
  });

  it("shows amounts in major units with their currency, exactly, beyond 2^53", () => {
    const record = { amount: "9007199254740993", currency: "UZS" };
    expect(auditFieldValue("en", "amount", record.amount, record)).toBe("90,071,992,547,409.93 UZS");
    expect(auditFieldValue("ru", "amount", record.amount, record)).toMatch(/^90\s071\s992\s547\s409,93 UZS$/);
    expect(auditFieldValue("uz", "amount", record.amount, record)).toMatch(/^90\s071\s992\s547\s409,93 UZS$/);
    // Decimals are the currency's: none for JPY, three for KWD; a negative keeps its sign.
    expect(formatMinorAmount("en", "1500", "JPY")).toBe("1,500 JPY");
    expect(formatMinorAmount("en", "1500", "KWD")).toBe("1.500 KWD");
    expect(formatMinorAmount("en", "-5", "USD")).toBe("−0.05 USD");
    // A salary's currency is its own field.
    expect(auditFieldValue("en", "salary", "1234500", { salary: "1234500", salaryCurrency: "USD" })).toBe(
      "12,345.00 USD",
    );
    // Without a currency the value stays as recorded (never a guessed unit).
    expect(auditFieldValue("en", "amount", "100", { amount: "100" })).toBe("100");
  });

  it("never shows JSON: references by name or email, other objects as labelled fields", () => {
    expect(auditValue("en", { id: "7f0c", email: "root@hisob.uz" })).toBe("root@hisob.uz");
    expect(auditValue("en", { id: "7f0c", firstName: "Aziz", lastName: "Karimov" })).toBe("Aziz Karimov");
    expect(auditValue("en", { id: "7f0c" })).toBe("7f0c");
    const other = auditValue("ru", { ip: "10.0.0.1", userAgent: "Firefox" });
    expect(other).toBe("IP-адрес: 10.0.0.1; Браузер: Firefox");
    for (const language of LANGUAGES) {
      for (const value of [{ admin: { id: "1" } }, { a: [{ b: 1 }] }, { id: "x", nested: { deep: true } }]) {
        expect(auditValue(language, value)).not.toMatch(/[{}"]/);
      }
    }
  });
});

describe("sign-out and OIDC grant entries", () => {
  it("read as words in every language", () => {
    for (const language of LANGUAGES) {
      for (const action of ["sign_out", "issue", "refresh", "revoke_replay"])
        expect(auditActionLabel(language, action)).not.toBe(action);
      expect(auditEntityLabel(language, "oidc_grant")).not.toBe("oidc_grant");
      const record = { reason: "refresh_reused" };
      expect(auditFieldValue(language, "reason", "refresh_reused", record)).not.toContain("_");
      expect(auditFieldLabel(language, "clientName")).not.toBe("clientName");
    }
    expect(auditActionLabel("ru", "sign_out")).toBe("выход");
  });
});

describe("references by name", () => {
  it("names the server resolved win, so a target off this page still shows by name", () => {
    const names = auditNames([
      {
        userId: "u1",
        userEmail: null,
        entityId: "r1",
        before: null,
        after: { name: "old" },
        names: { r1: "Cashiers", u2: "b@firm.uz" },
      },
    ]);
    expect(names).toMatchObject({ r1: "Cashiers", u2: "b@firm.uz" });
    expect(auditFieldValue("en", "userId", "u2", {}, names)).toBe("b@firm.uz");
  });

  it("shows an account and a user by the name and email the log knows, other ids as recorded", () => {
    const names = auditNames([
      { userId: "u1", userEmail: "owner@firm.uz", entityId: "s1", before: null, after: null },
      {
        userId: "u1",
        userEmail: "owner@firm.uz",
        entityId: "a1",
        before: null,
        after: { name: "Main till" },
      },
    ]);
    const record = { accountId: "a1", createdBy: "u1", amount: "100", currency: "USD" };
    expect(auditFieldValue("en", "accountId", "a1", record, names)).toBe("Main till");
    expect(auditFieldValue("ru", "createdBy", "u1", record, names)).toBe("owner@firm.uz");
    expect(auditFieldValue("en", "categoryId", "c9", record, names)).toBe("c9");
    // An entry's own id stays the id.
    expect(auditFieldValue("en", "id", "a1", record, names)).toBe("a1");
  });
});
