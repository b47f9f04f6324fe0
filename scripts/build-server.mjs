// Builds the server into one ES module, apps/server/dist/main.mjs, which `npm start` runs.
//
// Why: running the TypeScript sources through tsx at start costs ~70–90 MiB of resident memory (the
// loader's worker thread, esbuild transforms and their source maps kept for every file); the bundle
// runs on plain Node. Only the workspace's own sources (@hisob/* and apps/server) are bundled; every
// package from node_modules stays an import of the installed file (resolved here, written relative
// to the bundle), so WebAssembly and data files (Prisma's query compiler, PGlite) load as installed.
//
//   node scripts/build-server.mjs             build
//   node scripts/build-server.mjs --if-stale  build only if a source the last build read (or
//                                             package-lock.json) is newer than the bundle, or it is missing
//
// `npm install` builds it (postinstall), `npm start` checks it first (prestart); `npm run dev` still
// runs the sources through tsx.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENTRY = path.join(ROOT, "apps/server/src/main.ts");
const OUTFILE = path.join(ROOT, "apps/server/dist/main.mjs");
const INPUTS = path.join(ROOT, "apps/server/dist/inputs.json");
const OUTDIR = path.dirname(OUTFILE);
const META = path.join(ROOT, "scripts/bundle-meta.mjs");
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Number.NaN;
  }
};

/** The bundle is stale when missing, or when a file it was built from (or the lockfile) changed since. */
const isStale = () => {
  const built = mtime(OUTFILE);
  if (Number.isNaN(built)) return true;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(INPUTS, "utf8"));
  } catch {
    return true;
  }
  for (const file of [...inputs, "package-lock.json", "scripts/build-server.mjs"]) {
    const changed = mtime(path.join(ROOT, file));
    if (Number.isNaN(changed) || changed > built) return true;
  }
  return false;
};

const toPosix = (file) => file.split(path.sep).join("/");
const relativeToBundle = (file) => {
  const relative = toPosix(path.relative(OUTDIR, file));
  return relative.startsWith(".") ? relative : `./${relative}`;
};

/** Keeps node_modules out of the bundle, and rebuilds `import.meta` of each bundled source from its own path. */
const workspaceOnly = {
  name: "hisob-workspace-only",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === "inner" || args.path.startsWith("node:") || args.path.startsWith("@hisob/")) {
        return undefined;
      }
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "inner",
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external || !resolved.path.includes(NODE_MODULES)) return undefined;
      return { path: relativeToBundle(resolved.path), external: true };
    });
    build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, async (args) => {
      if (args.path.includes(NODE_MODULES) || args.path === META) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const self = JSON.stringify(relativeToBundle(args.path));
      const contents = text
        .replaceAll("import.meta.dirname", `__hisobMeta.dirname(${self})`)
        .replaceAll("import.meta.filename", `__hisobMeta.filename(${self})`)
        .replaceAll("import.meta.url", `__hisobMeta.url(${self})`);
      return {
        contents: `import * as __hisobMeta from ${JSON.stringify(META)};\n${contents}`,
        loader: /\.m?ts$/.test(args.path) ? "ts" : "js",
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

export const buildServer = async () => {
  const esbuild = await import("esbuild");
  const started = Date.now();
  const result = await esbuild.build({
    entryPoints: { main: ENTRY },
    // Code behind a dynamic import() goes to a chunk of its own, loaded on first use (GraphQL: the
    // schema, yoga and graphql-ws load on the first GraphQL request, not at start). Chunks sit beside
    // the bundle, so the relative paths of the node_modules imports hold in them too.
    outdir: OUTDIR,
    splitting: true,
    entryNames: "[name]",
    chunkNames: "chunk-[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    // Written below, each file under a temporary name then renamed: two processes that build at once
    // (test workers starting servers) never run a half-written bundle.
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    absWorkingDir: ROOT,
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    plugins: [workspaceOnly],
  });
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.includes("node_modules/"));
  const atomically = (file, contents) => {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, contents);
    renameSync(temporary, file);
  };
  mkdirSync(OUTDIR, { recursive: true });
  atomically(INPUTS, `${JSON.stringify(inputs, null, 1)}\n`);
  // The bundle last: its time is what staleness is measured against. Chunks are named by their
  // content, so writing them never changes what an older bundle still running would load.
  for (const file of result.outputFiles.filter((output) => output.path !== OUTFILE))
    atomically(file.path, file.contents);
  atomically(OUTFILE, result.outputFiles.find((output) => output.path === OUTFILE).contents);
  // Chunks of earlier builds go once a day has passed: a server started from an older bundle may
  // still import its chunk on its first GraphQL request.
  const current = new Set(result.outputFiles.map((output) => path.basename(output.path)));
  for (const name of readdirSync(OUTDIR)) {
    if (!name.startsWith("chunk-") || current.has(name)) continue;
    const file = path.join(OUTDIR, name);
    if (Date.now() - mtime(file) > 24 * 3600_000) rmSync(file, { force: true });
  }
  return { ms: Date.now() - started, inputs: inputs.length };
};

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  if (process.argv.includes("--if-stale") && !isStale()) process.exit(0);
  const { ms, inputs } = await buildServer();
  console.log(`hisob: server built into ${path.relative(ROOT, OUTFILE)} (${inputs} sources, ${ms} ms)`);
}
