import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "./import-graph";

const ROOT = path.resolve(import.meta.dirname, "..");
const sourceFolders = ["apps", "packages"].flatMap((group) =>
  readdirSync(path.join(ROOT, group)).map((name) => `${group}/${name}/src`),
);

describe("import cycles", () => {
  it("finds none in the apps and packages (type-only imports included)", () => {
    const graph = importGraph(ROOT, sourceFolders);
    // The graph must see the code, else "no cycle" would prove nothing.
    expect(graph.size).toBeGreaterThan(500);
    const cycles = importCycles(graph).map((cycle) => cycle.map((file) => path.relative(ROOT, file)));
    expect(cycles).toEqual([]);
  }, 60_000); // reads every source file: slow on a loaded machine

  it("reports a two-file cycle and leaves the files outside it out", () => {
    const a = path.join(ROOT, "a.ts");
    const b = path.join(ROOT, "b.ts");
    const c = path.join(ROOT, "c.ts");
    const graph = new Map([
      [a, [b]],
      [b, [a, c]],
      [c, []],
    ]);
    expect(importCycles(graph)).toEqual([[a, b]]);
  });
});
