import { describe, expect, it } from "vitest";
import { newId, ZId } from "./ids";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The Unix milliseconds in the first 48 bits of a UUIDv7. */
const timeOf = (id: string) => Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);

describe("newId", () => {
  it("is a UUIDv7 (version 7, RFC 9562 variant)", () => {
    for (let i = 0; i < 100; i++) expect(newId()).toMatch(UUID_V7);
  });

  it("carries the current time", () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(after);
  });

  it("is unique and strictly increasing, even within one millisecond", () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // Many share a millisecond, so the order cannot come from the clock alone.
    expect(new Set(ids.map(timeOf)).size).toBeLessThan(ids.length);
  });
});

describe("ZId", () => {
  it("accepts UUIDs and refuses anything else with a readable message", () => {
    expect(ZId.parse(newId())).toMatch(UUID_V7);
    expect(ZId.safeParse("0190f5c2-0000-4000-8000-000000000001").success).toBe(true);
    for (const value of ["", "42", "not-a-uuid", "0190f5c2-0000-7000-8000-00000000000"]) {
      expect(ZId.safeParse(value).error?.issues[0]?.message, value).toBe("must be a UUID");
    }
  });
});
