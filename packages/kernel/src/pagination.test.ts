import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, ZPage, ZPagination } from "./pagination";

describe("ZPagination", () => {
  it("defaults to the first page of 20", () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(MAX_PAGE_SIZE).toBe(100);
    expect(ZPagination.parse({})).toEqual({ limit: 20, offset: 0 });
  });

  it("accepts query-string numbers and the bounds", () => {
    expect(ZPagination.parse({ limit: "50", offset: "40" })).toEqual({ limit: 50, offset: 40 });
    expect(ZPagination.parse({ limit: 1 })).toEqual({ limit: 1, offset: 0 });
    expect(ZPagination.parse({ limit: 100, offset: 1_000_000_000 })).toEqual({
      limit: 100,
      offset: 1_000_000_000,
    });
  });

  it.each([
    [{ limit: 101 }, "limit"],
    [{ limit: 0 }, "limit"],
    [{ limit: "abc" }, "limit"],
    [{ limit: 2.5 }, "limit"],
    [{ offset: -1 }, "offset"],
    [{ offset: 1_000_000_001 }, "offset"],
    [{ offset: "1.5" }, "offset"],
  ])("refuses %j", (input, field) => {
    const result = ZPagination.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([field]);
  });
});

describe("ZPage", () => {
  it("describes a page of items with its total, limit and offset", () => {
    const Page = ZPage(z.object({ id: z.string() }));
    const page = { items: [{ id: "a" }], total: 41, limit: 20, offset: 20 };
    expect(Page.parse(page)).toEqual(page);
    expect(Page.safeParse({ ...page, total: 1.5 }).success).toBe(false);
    expect(Page.safeParse({ ...page, items: [{}] }).success).toBe(false);
  });
});
