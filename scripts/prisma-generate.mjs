// Runs `prisma generate` without the schema-engine binary (which cannot be downloaded
// on our machines). Generate only checks that the engine file exists, so we point it at
// /bin/true. Never use this trick for migrate/db/diff: they would silently do nothing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const prismaCli = require.resolve("prisma/build/index.js");
const dummyEngine = existsSync("/bin/true") ? "/bin/true" : process.execPath;
const result = spawnSync(process.execPath, [prismaCli, "generate"], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: dummyEngine, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
if (result.status !== 0) {
  console.error("prisma generate failed; see the output above.");
  process.exit(result.status ?? 1);
}
