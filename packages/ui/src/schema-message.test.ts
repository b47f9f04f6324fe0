import { ZRequiredLine } from "@hisob/kernel/schema";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldName, schemaMessage } from "./schema-message";

// As @hisob/core's ZEmail words it (this package does not depend on core).
const ZEmail = z
  .string()
  .trim()
  .pipe(z.email({ message: "must be a valid email address" }));

describe("schemaMessage: the server's wording of a zod issue, in the user's language", () => {
  it("says what is wrong with a malformed email in en, ru and uz", () => {
    expect(schemaMessage(ZEmail, "not-an-email", "en")).toBe("Must be a valid email address");
    expect(schemaMessage(ZEmail, "not-an-email", "ru")).toBe(
      "Должно быть действительным адресом электронной почты",
    );
    expect(schemaMessage(ZEmail, "not-an-email", "uz")).toBe(
      "Toʻgʻri elektron pochta manzili boʻlishi kerak",
    );
  });

  it("tells a missing value from an empty one, and passes a good one", () => {
    const name = ZRequiredLine(100);
    expect(schemaMessage(name, undefined, "ru")).toBe("Обязательно для заполнения");
    expect(schemaMessage(name, "   ", "uz")).toBe("Boʻsh boʻlmasligi kerak");
    expect(schemaMessage(name, "Dilnoza", "ru")).toBeNull();
    expect(schemaMessage(ZEmail, "owner@firm.uz", "en")).toBeNull();
  });

  it("carries a limit over into the translation", () => {
    expect(schemaMessage(z.string().max(3), "abcd", "ru")).toBe(
      "Количество символов должно быть не больше 3",
    );
  });
});

describe("fieldName", () => {
  it("names the form field an issue's path points at", () => {
    expect(fieldName("admin.email")).toEqual(["admin", "email"]);
    expect(fieldName("roleIds.2")).toEqual(["roleIds"]);
    expect(fieldName("name")).toEqual(["name"]);
  });
});
