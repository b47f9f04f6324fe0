// What each screen of the browser build downloads (gzip), from Vite's manifest:
// `npm run build:web -w @hisob/accountant && node apps/accountant/scripts/bundle-sizes.mjs`.
// The entry only signs in; the app shell and each screen (a lazy route) follow.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dir = process.argv[2] ?? new URL("../dist/web", import.meta.url).pathname;
const m = JSON.parse(readFileSync(`${dir}/.vite/manifest.json`, "utf8"));
const size = (f) => gzipSync(readFileSync(`${dir}/${f}`)).length;
const closure = (keys, seen = new Set()) => {
  for (const k of keys) {
    if (seen.has(k)) continue;
    seen.add(k);
    closure(m[k].imports ?? [], seen);
  }
  return seen;
};
const sum = (set) => [...set].reduce((a, k) => a + size(m[k].file), 0);
const kb = (n) => (n / 1024).toFixed(1);
const entry = Object.keys(m).find((k) => m[k].isEntry);
const boot = closure([entry]);
console.log("entry (sign-in redirect):", kb(sum(boot)), "kB gz");
const mount = Object.keys(m).find((k) => k.endsWith("mount.tsx"));
const shell = mount ? closure([mount], new Set(boot)) : boot;
const shellAll = new Set([...boot, ...shell]);
console.log("entry + app shell:", kb(sum(shellAll)), "kB gz");
for (const k of Object.keys(m).filter((k) => k.includes("screens/") || k.includes("month-chart"))) {
  const all = closure([k], new Set(shellAll));
  console.log(`  + ${k}: first screen total ${kb(sum(all))} kB gz`);
}
const total = Object.values(m)
  .filter((c) => c.file.endsWith(".js"))
  .reduce((a, c) => a + size(c.file), 0);
console.log("all js:", kb(total), "kB gz");
