// The import graph of our own source files, and the cycles in it. `npm run metrics` prints the cycles;
// scripts/import-cycles.test.ts fails on any. Built with the TypeScript compiler API (already a
// dependency) rather than madge or dependency-cruiser: it resolves `@hisob/*` through each workspace's
// `exports` with no configuration, and counts `import type` too (a type-only circle still ties files).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const SKIPPED_DIRS = new Set(["node_modules", "generated", "dist", ".tmp", ".data"]);
const SOURCE = /\.(ts|tsx)$/;

/** Every .ts/.tsx file under dir, skipping dependencies, generated code and build output. */
export const sourceFilesUnder = (dir: string): string[] => {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry)) return [];
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFilesUnder(full);
    return SOURCE.test(entry) && !entry.endsWith(".d.ts") ? [full] : [];
  });
};

/** Module specifiers of every import, re-export and dynamic import() in a file (type-only included). */
export const specifiersOf = (file: string): string[] =>
  // The compiler's pre-processor: a scan for module names, far quicker than a full parse.
  ts
    .preProcessFile(readFileSync(file, "utf8"), true, true)
    .importedFiles.map((entry) => entry.fileName);

type Workspace = { name: string; dir: string; exports: Record<string, string> };

const workspacesOf = (root: string): Workspace[] =>
  ["packages", "apps"].flatMap((group) => {
    const groupDir = path.join(root, group);
    if (!existsSync(groupDir)) return [];
    return readdirSync(groupDir).flatMap((entry) => {
      const manifestPath = path.join(groupDir, entry, "package.json");
      if (!existsSync(manifestPath)) return [];
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
        name: string;
        exports?: string | Record<string, string>;
      };
      const exports =
        typeof manifest.exports === "string" ? { ".": manifest.exports } : (manifest.exports ?? {});
      return [{ name: manifest.name, dir: path.join(groupDir, entry), exports }];
    });
  });

const withExtension = (base: string): string | null => {
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && SOURCE.test(candidate)) return candidate;
  }
  // `import "./x.js"` written for a .ts file.
  if (/\.js$/.test(base)) return withExtension(base.slice(0, -3));
  return null;
};

/** file → the files of ours it imports. Files are absolute paths. */
export const importGraph = (root: string, dirs: string[]): Map<string, string[]> => {
  const workspaces = workspacesOf(root);
  const resolve = (from: string, specifier: string): string | null => {
    if (specifier.startsWith(".")) return withExtension(path.resolve(path.dirname(from), specifier));
    const workspace = workspaces.find((w) => specifier === w.name || specifier.startsWith(`${w.name}/`));
    if (!workspace) return null;
    const subpath = `.${specifier.slice(workspace.name.length)}`;
    const target = workspace.exports[subpath];
    return target ? withExtension(path.resolve(workspace.dir, target)) : null;
  };
  const graph = new Map<string, string[]>();
  for (const dir of dirs) {
    for (const file of sourceFilesUnder(path.join(root, dir))) {
      const targets = specifiersOf(file)
        .map((specifier) => resolve(file, specifier))
        .filter((target): target is string => target !== null && target !== file);
      graph.set(file, [...new Set(targets)]);
    }
  }
  return graph;
};

/** Strongly connected components of more than one file (Tarjan): each is one import cycle. */
export const importCycles = (graph: Map<string, string[]>): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue; // outside the scanned folders
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles;
};
