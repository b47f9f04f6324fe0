// `npm run metrics`: the figures a newcomer feels: README length, where test lines sit, import cycles,
// long files and long functions. Read-only; prints a report. The same numbers before and after a
// change show what it did to the layout.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { importCycles, importGraph, sourceFilesUnder } from "./import-graph.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const relative = (file: string) => path.relative(root, file);
const lineCount = (file: string) => readFileSync(file, "utf8").split("\n").length;

const LONG_FILE = 300;
const LONG_FUNCTION = 80;

/** Each function-like node (declarations, expressions, arrows, methods, accessors) with its line span. */
const functionsOf = (file: string): { name: string; lines: number }[] => {
  const text = readFileSync(file, "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: { name: string; lines: number }[] = [];
  const nameOf = (node: ts.Node): string => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) {
      return node.name.getText(source);
    }
    const parent = node.parent;
    if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
    if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
    return "(anonymous)";
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);

const codeDirs = ["apps", "packages", "scripts", "bench", "e2e"];
const files = codeDirs.flatMap((dir) => sourceFilesUnder(path.join(root, dir)));

// Tests beside their features: unit and integration tests outside apps/server (browser tests in e2e/
// test whole apps and are left out of both sides).
const tests = files.filter((file) => isTest(file) && !relative(file).startsWith(`e2e${path.sep}`));
const testLines = (list: string[]) => list.reduce((sum, file) => sum + lineCount(file), 0);
const serverPrefix = path.join("apps", "server") + path.sep;
const allTestLines = testLines(tests);
const besideLines = testLines(tests.filter((file) => !relative(file).startsWith(serverPrefix)));

const cycleDirs = [...workspaceSrcDirs("apps"), ...workspaceSrcDirs("packages")];
const cycles = importCycles(importGraph(root, cycleDirs));

const longFiles = files
  .map((file) => ({ file: relative(file), lines: lineCount(file) }))
  .filter((entry) => entry.lines > LONG_FILE)
  .sort((a, b) => b.lines - a.lines);

const longFunctions = files
  .flatMap((file) => functionsOf(file).map((fn) => ({ ...fn, file: relative(file) })))
  .filter((fn) => fn.lines > LONG_FUNCTION)
  .sort((a, b) => b.lines - a.lines);
const outsideBench = longFunctions.filter((fn) => !fn.file.startsWith(`bench${path.sep}`));
// A test file's describe() callback is one long function by nature: count code and tests apart.
const inCode = outsideBench.filter((fn) => !isTest(fn.file));

function workspaceSrcDirs(group: string): string[] {
  return sourceFilesUnder(path.join(root, group))
    .map((file) => relative(file).split(path.sep).slice(0, 3).join("/"))
    .filter((dir, i, all) => dir.endsWith("/src") && all.indexOf(dir) === i);
}

const percent = (part: number, whole: number) => (whole === 0 ? "0" : ((100 * part) / whole).toFixed(1));
const verbose = process.argv.includes("--verbose");

console.log(`README lines: ${lineCount(path.join(root, "README.md"))}`);
console.log(
  `Test lines beside their feature (not in apps/server): ${besideLines} of ${allTestLines} ` +
    `(${percent(besideLines, allTestLines)}%); in apps/server: ${allTestLines - besideLines}`,
);
console.log(`Import cycles (${cycleDirs.length} source folders of apps and packages): ${cycles.length}`);
cycles.forEach((cycle, i) => {
  console.log(`  cycle ${i + 1} (${cycle.length} files):`);
  for (const file of cycle) console.log(`    ${relative(file)}`);
});
console.log(`Files over ${LONG_FILE} lines: ${longFiles.length}`);
for (const entry of verbose ? longFiles : longFiles.slice(0, 10))
  console.log(`  ${entry.lines}  ${entry.file}`);
console.log(
  `Functions over ${LONG_FUNCTION} lines: ${longFunctions.length} (${outsideBench.length} outside bench/, ` +
    `${inCode.length} of them outside test files)`,
);
for (const fn of verbose ? longFunctions : longFunctions.slice(0, 10)) {
  console.log(`  ${fn.lines}  ${fn.name}  ${fn.file}`);
}
if (!verbose) console.log("(--verbose lists every long file and function)");
