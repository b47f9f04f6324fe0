import { describe, expect, it } from "vitest";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./password";
import { checkPasswordStrength, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rule";

describe("hashPassword / verifyPassword", () => {
  it("round-trips, with argon2id and a fresh salt per hash", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword(hash, "correct horse battery staple")).toBe(true);
    expect(await hashPassword("correct horse battery staple")).not.toBe(hash);
  });

  it("is false for a wrong password, however close", async () => {
    const hash = await hashPassword("Secret-Passw0rd");
    for (const wrong of ["secret-passw0rd", "Secret-Passw0rd ", "Secret-Passw0r", ""]) {
      expect(await verifyPassword(hash, wrong), wrong).toBe(false);
    }
  });

  it("handles non-ASCII passwords", async () => {
    const hash = await hashPassword("парол-Ўзбек-✓");
    expect(await verifyPassword(hash, "парол-Ўзбек-✓")).toBe(true);
    expect(await verifyPassword(hash, "парол-Узбек-✓")).toBe(false);
  });

  it("is false (never a throw) for a malformed stored hash", async () => {
    const hash = await hashPassword("Secret-Passw0rd");
    for (const stored of [
      "",
      "not-a-hash",
      "$argon2id$v=19$m=19456,t=2,p=1$broken",
      hash.slice(0, -5),
      "$2b$10$abc",
    ]) {
      await expect(verifyPassword(stored, "Secret-Passw0rd"), stored).resolves.toBe(false);
    }
  });

  it("verifyAgainstDummy is always false", async () => {
    expect(await verifyAgainstDummy("dummy-password-for-timing")).toBe(false);
    expect(await verifyAgainstDummy("anything")).toBe(false);
  });
});

describe("checkPasswordStrength", () => {
  it("accepts 10–256 characters mixing two classes", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(10);
    expect(PASSWORD_MAX_LENGTH).toBe(256);
    for (const password of ["abcdefghi1", "ABCDEFGHIj", "abcdefghi!", "1234567890-", `${"a".repeat(255)}1`]) {
      expect(checkPasswordStrength(password), password).toBeNull();
    }
  });

  it("refuses too short, too long, and one-class passwords", () => {
    expect(checkPasswordStrength("abcdefgh1")).toBe("must be at least 10 characters");
    expect(checkPasswordStrength("")).toBe("must be at least 10 characters");
    expect(checkPasswordStrength(`${"a".repeat(256)}1`)).toBe("must be at most 256 characters");
    const oneClass = "must mix at least two of: lower case, upper case, digits, symbols";
    for (const password of ["abcdefghijkl", "ABCDEFGHIJKL", "123456789012", "!@#$%^&*()_+"]) {
      expect(checkPasswordStrength(password), password).toBe(oneClass);
    }
  });
});
