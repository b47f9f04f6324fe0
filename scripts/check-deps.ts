// `npm run lint` runs this: every workspace (packages/*, apps/*) must declare in its package.json each
// package its code imports. Test files and test helpers may also use the root's devDependencies
// (vitest, jose, openid-client, playwright-core). Exits 1 listing each undeclared import.
// A small script rather than knip or dependency-cruiser: it needs no configuration of our tsconfig
// paths and no network, runs in a second, and this is the one rule we want from such a tool.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(["node_modules", "generated", "dist", ".tmp", ".data"]);
const BUILTINS = new Set(builtinModules);

/** Every bare module specifier a source file imports, re-exports, requires or loads dynamically. */
export const importsOf = (source: string): string[] => {
  // Comments could mention an import; strip them (roughly: block comments and whole-line // comments).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found = new Set<string>();
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*["']([^"']+)["']/g,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\bvi\.mock\(\s*["']([^"']+)["']/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) if (match[1]) found.add(match[1]);
  }
  return [...found];
};

/** The package a specifier names, or null for a relative path or a Node built-in. */
export const packageOf = (specifier: string): string | null => {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
  return BUILTINS.has(name) ? null : name;
};

/** Test files and test helpers (`*-test-kit.ts`, folders named testing) may use the root's devDependencies. */
export const isTestFile = (file: string): boolean =>
  /(\.(test|spec)|-test-kit)\.[cm]?[jt]sx?$/.test(file) || file.split(path.sep).includes("testing");

type Manifest = {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const declared = (manifest: Manifest) =>
  new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry)) return [];
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry) ? [full] : [];
  });

/** The undeclared imports of every workspace below `root`: `workspace: file imports package`. */
export const undeclaredImports = (root: string): string[] => {
  const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as Manifest;
  const forTests = declared(rootManifest);
  const problems: string[] = [];
  for (const group of ["packages", "apps"]) {
    const groupDir = path.join(root, group);
    for (const workspace of readdirSync(groupDir)) {
      const dir = path.join(groupDir, workspace);
      const manifestFile = path.join(dir, "package.json");
      if (!statSync(dir).isDirectory() || !statSync(manifestFile, { throwIfNoEntry: false })) continue;
      const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
      const own = declared(manifest);
      for (const file of sourceFiles(dir)) {
        for (const specifier of importsOf(readFileSync(file, "utf8"))) {
          const name = packageOf(specifier);
          if (!name || name === manifest.name || own.has(name)) continue;
          if (isTestFile(file) && forTests.has(name)) continue;
          problems.push(`${manifest.name ?? workspace}: ${path.relative(root, file)} imports ${name}`);
        }
      }
    }
  }
  return problems;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const problems = undeclaredImports(root);
  if (problems.length > 0) {
    console.error(`Undeclared imports (add each package to the workspace's package.json):`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log("check-deps: every workspace declares what it imports");
}
