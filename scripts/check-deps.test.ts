import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { importsOf, isTestFile, packageOf, undeclaredImports } from "./check-deps";

describe("check-deps", () => {
  it("finds static, type-only, side-effect, re-exported and dynamic imports, not comments", () => {
    const source = [
      'import { z } from "zod";',
      'import type { Db } from "@hisob/db";',
      'import "./local";',
      'export { x } from "@hisob/kernel/schema";',
      'const m = await import("exceljs");',
      "import {",
      "  a,",
      "  b,",
      '} from "@trpc/server/adapters/fastify";',
      '// import { nope } from "commented-out";',
      '/* import "also-not" */',
      'spawn(process.execPath, ["--import", "tsx"]);',
    ].join("\n");
    expect(importsOf(source).sort()).toEqual(
      [
        "./local",
        "@hisob/db",
        "@hisob/kernel/schema",
        "@trpc/server/adapters/fastify",
        "exceljs",
        "zod",
      ].sort(),
    );
  });

  it("names the package of a specifier; relative paths and Node built-ins are none", () => {
    expect(packageOf("@trpc/server/adapters/fastify")).toBe("@trpc/server");
    expect(packageOf("zod/v4")).toBe("zod");
    expect(packageOf("./x")).toBeNull();
    expect(packageOf("node:fs")).toBeNull();
    expect(packageOf("fs/promises")).toBeNull();
    expect(isTestFile(path.join("a", "b.int.test.ts"))).toBe(true);
    expect(isTestFile(path.join("src", "testing", "kit.ts"))).toBe(true);
    expect(isTestFile(path.join("src", "oidc", "oidc-test-kit.ts"))).toBe(true);
    expect(isTestFile(path.join("src", "server.ts"))).toBe(false);
  });

  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("fails a workspace that imports what it does not declare; tests may use the root's devDependencies", () => {
    root = mkdtempSync(path.join(tmpdir(), "check-deps-"));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write("package.json", JSON.stringify({ devDependencies: { vitest: "1" } }));
    write("apps/.keep", "");
    write("packages/a/package.json", JSON.stringify({ name: "@x/a", dependencies: { zod: "4" } }));
    write(
      "packages/a/src/a.ts",
      'import { z } from "zod";\nimport { b } from "@x/b";\nimport "@x/a/schema";',
    );
    write("packages/a/src/a.test.ts", 'import { it } from "vitest";');
    write("packages/a/src/b.ts", 'import { it } from "vitest";');
    expect(undeclaredImports(root)).toEqual([
      `@x/a: ${path.join("packages", "a", "src", "a.ts")} imports @x/b`,
      `@x/a: ${path.join("packages", "a", "src", "b.ts")} imports vitest`,
    ]);
  });
});
