import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Every relative link of the README, docs/ and bench/ points at a file that exists, and at a heading that
// exists when it names one; and no document cites an issue number (readers of the repository have no
// issues: a document cites a decision).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const markdownUnder = (dir: string, deep: boolean): string[] =>
  readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(root, relative)).isDirectory()) return deep ? markdownUnder(relative, deep) : [];
    return name.endsWith(".md") ? [relative] : [];
  });

const documents = ["README.md", ...markdownUnder("docs", true), ...markdownUnder("bench", false)];

/** The prose of a document: fenced code blocks left out (their brackets are code, not links). */
const prose = (file: string): string =>
  readFileSync(path.join(root, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");

const anchorsOf = (file: string): Set<string> =>
  new Set([...prose(file).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? "")));

describe("the documentation's links", () => {
  it("finds the documents", () => {
    expect(documents).toContain("docs/decisions/README.md");
    expect(documents).toContain("bench/HISTORY.md");
  });

  for (const file of documents) {
    it(`${file}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const match of prose(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? "";
        if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith("<")) continue;
        const [pathPart = "", fragment] = target.split("#");
        const resolved = pathPart === "" ? file : path.join(path.dirname(file), decodeURI(pathPart));
        if (!existsSync(path.join(root, resolved))) {
          broken.push(`${target} (no ${resolved})`);
          continue;
        }
        if (fragment && resolved.endsWith(".md") && !anchorsOf(resolved).has(fragment)) {
          broken.push(`${target} (no heading #${fragment} in ${resolved})`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it("cite decisions, never issue numbers", () => {
    const citing = documents.flatMap((file) =>
      prose(file)
        .split("\n")
        .filter((line) => /\bissues? #?\d+/i.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(citing).toEqual([]);
  });
});
