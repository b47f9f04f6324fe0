import { describe, expect, it } from "vitest";
import { toParentOptions, toTree } from "./tree";

const category = (id: string, name: string, parentId: string | null) => ({
  id,
  name,
  parentId,
  description: "",
  createdAt: "2026-11-01T00:00:00.000Z",
  updatedAt: "2026-11-01T00:00:00.000Z",
});

describe("categories as a tree", () => {
  it("nests children under their parents, each level by name; an unknown parent makes a root", () => {
    const tree = toTree([
      category("c", "Consulting", "b"),
      category("b", "Services", "a"),
      category("a", "Income", null),
      category("d", "Audit", "b"),
      category("e", "Orphan", "gone"),
    ]);
    expect(tree.map((node) => node.name)).toEqual(["Income", "Orphan"]);
    const services = tree[0]?.children?.[0];
    expect(services?.name).toBe("Services");
    expect(services?.children?.map((node) => node.name)).toEqual(["Audit", "Consulting"]);
    expect(toParentOptions(tree)[0]).toEqual({
      value: "a",
      title: "Income",
      children: [
        {
          value: "b",
          title: "Services",
          children: [
            { value: "d", title: "Audit" },
            { value: "c", title: "Consulting" },
          ],
        },
      ],
    });
  });
});
