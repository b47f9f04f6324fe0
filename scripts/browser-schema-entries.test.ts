import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/*
 * The apps import the server's zod schemas from each package's `./schema` entry. Bundling that entry
 * for the browser proves it reaches nothing but our own schema files and the browser-safe libraries
 * below: no Node built-in, Prisma, argon2, exceljs or service code can sneak in through an import.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const ENTRIES = ["kernel", "core", "finance", "oidc", "crm", "warehouse", "projects", "hrm"];
const ALLOWED_PACKAGES = ["zod", "uuid"];

const packageOf = (input: string): string | undefined => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return match?.[1];
};

describe("browser-safe ./schema entries", () => {
  it.each(ENTRIES)("@hisob/%s/schema bundles for the browser with only zod and uuid", async (pkg) => {
    const result = await build({
      entryPoints: [path.join(ROOT, "packages", pkg, "src/schema.ts")],
      bundle: true,
      write: false,
      metafile: true,
      platform: "browser",
      format: "esm",
      logLevel: "silent",
      // Workspace packages resolve through node_modules symlinks to packages/*/src.
      absWorkingDir: ROOT,
    });
    const inputs = Object.keys(result.metafile.inputs);
    const foreign = inputs.filter((input) => {
      const external = packageOf(input);
      if (external) return !ALLOWED_PACKAGES.includes(external);
      return !input.startsWith("packages/");
    });
    expect(foreign).toEqual([]);
    // Schema files only: a service, repository or exporter in the bundle means an import went astray.
    const ours = inputs.filter((input) => input.startsWith("packages/"));
    expect(ours.filter((input) => /\.(service|repository|export|routes)\.ts$/.test(input))).toEqual([]);
    expect(ours.length).toBeGreaterThan(1);
  });
});
