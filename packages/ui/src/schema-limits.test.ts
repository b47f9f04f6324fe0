import { ZLine, ZRequiredLine, ZText } from "@hisob/kernel/schema";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { maxLengthOf } from "./schema-limits";

describe("maxLengthOf: an input's maxLength from the server's schema", () => {
  it("finds the limit under defaults, optionals and nullables", () => {
    const form = z.object({ comment: ZText(1000).default(""), note: ZText(10).optional() }).strict();
    expect(maxLengthOf(form.shape.comment)).toBe(1000);
    expect(maxLengthOf(form.shape.note)).toBe(10);
    expect(maxLengthOf(ZRequiredLine(100))).toBe(100);
    expect(maxLengthOf(ZLine(64).nullable().optional())).toBe(64);
    expect(maxLengthOf(ZText(20).default(""))).toBe(20);
  });

  it("has none for an unlimited text or a non-text schema", () => {
    expect(maxLengthOf(z.string())).toBeUndefined();
    expect(maxLengthOf(z.number().max(5))).toBeUndefined();
    expect(maxLengthOf(undefined)).toBeUndefined();
  });
});
