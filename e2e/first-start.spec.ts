import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { collect, freePort, postgresForProcessTests, serverEnv, spawnServer } from "./server-process";

/*
 * The first start as `npm start` runs it: its setup — which writes through Prisma and so
 * loads Prisma's WebAssembly query compiler for good — runs in a short-lived process of its own, so
 * the serving process starts as a restarted one does, with no compiler loaded until a request needs
 * Prisma. The generated administrator password is still printed once and signs in; a setup that fails
 * is reported by the server as its own error, once; a database left without a platform tenant is set up
 * by the next start. On the embedded database and, when reachable, on a fresh PostgreSQL database.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const scratch = mkdtempSync(path.join(tmpdir(), "hisob-first-start-"));
cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Loaded into every process (NODE_OPTIONS, so the setup process too): appends the process's pid to
 * `compilerLog` when Prisma's query compiler is compiled (a WebAssembly module importing its glue).
 */
const compilerLog = path.join(scratch, "compiler-loaded-by.txt");
const preload = path.join(scratch, "record-prisma-compiler.mjs");
writeFileSync(
  preload,
  `import { appendFileSync } from "node:fs";
const Module = WebAssembly.Module;
WebAssembly.Module = new Proxy(Module, {
  construct(target, args, newTarget) {
    const module = Reflect.construct(target, args, newTarget);
    if (Module.imports(module).some((entry) => entry.module.includes("query_compiler"))) {
      appendFileSync(${JSON.stringify(compilerLog)}, process.pid + "\\n");
    }
    return module;
  },
});
`,
);
const compilerLoadedBy = (): number[] =>
  existsSync(compilerLog)
    ? readFileSync(compilerLog, "utf8").trim().split("\n").filter(Boolean).map(Number)
    : [];

const PASSWORD_LINE =
  /sign in as (\S+)\n\s+Password \(shown only this once; change it after signing in\): (\S+)/;

/** Starts the server as `npm start` does; its output so far is `stdout()` (collect() resolves at exit). */
const start = (env: NodeJS.ProcessEnv) => {
  const child = spawnServer(env);
  let text = "";
  child.stdout?.on("data", (chunk) => {
    text += chunk;
  });
  const done = collect(child);
  return {
    child,
    done,
    base: env.OIDC_ISSUER_URL ?? "",
    stdout: () => text,
    stop: () => {
      child.kill("SIGTERM");
      return done;
    },
  };
};

const waitFor = async <T>(
  what: string,
  server: ReturnType<typeof start>,
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> => {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (server.child.exitCode !== null || Date.now() > deadline) {
      const result = await (server.child.exitCode !== null ? server.done : server.stop());
      throw new Error(`waiting for ${what}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const signIn = (base: string, email: string, password: string) =>
  fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  }).then((res) => res.status);

const ready = (base: string) =>
  fetch(`${base}/readyz`).then(
    (res) => (res.status === 200 ? true : undefined),
    () => undefined,
  );

const firstStartScenario = async (env: NodeJS.ProcessEnv) => {
  const withPreload = { ...env, NODE_OPTIONS: `--import ${preload}` };
  rmSync(compilerLog, { force: true });

  // A setup that fails (a weak ADMIN_PASSWORD) stops the server with the setup's message, once.
  const refused = await collect(
    spawnServer({ ...withPreload, ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: "short" }),
  );
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^hisob: VALIDATION_ERROR: /m);
  expect(refused.stderr.match(/VALIDATION_ERROR/g)).toHaveLength(1);
  expect(refused.stderr).not.toMatch(/unexpected error|\n\s+at /);

  // The next start (the database now exists, migrated, with no platform tenant) sets it up.
  rmSync(compilerLog, { force: true });
  const first = start(withPreload);
  await waitFor("/readyz", first, () => ready(first.base));
  const [, email = "", password = ""] = await waitFor("the administrator's password", first, () =>
    PASSWORD_LINE.exec(first.stdout())?.slice(0),
  );
  const serverPid = first.child.pid as number;
  // Prisma's compiler was loaded, by the setup process only: the server has not loaded it.
  expect(compilerLoadedBy().length).toBeGreaterThan(0);
  expect(compilerLoadedBy()).not.toContain(serverPid);
  expect(await signIn(first.base, email, "wrong-password")).toBe(401);
  expect(await signIn(first.base, email, password)).toBe(200);
  const stopped = await first.stop();
  expect(stopped.code, stopped.stderr.slice(-2000)).toBe(0);
  expect(stopped.stdout.match(/Password \(shown only this once/g)).toHaveLength(1);

  // Started again: no setup process, nothing printed, the same administrator.
  rmSync(compilerLog, { force: true });
  const again = start(withPreload);
  await waitFor("/readyz", again, () => ready(again.base));
  expect(compilerLoadedBy()).toEqual([]);
  expect(await signIn(again.base, email, password)).toBe(200);
  const restarted = await again.stop();
  expect(restarted.code, restarted.stderr.slice(-2000)).toBe(0);
  expect(restarted.stdout).not.toMatch(/Password/);
};

const postgres = await postgresForProcessTests("first-start");

describe("npm start's first start", () => {
  it("on the embedded database: set up by a process of its own, the password printed once and signing in", async () => {
    const dataDir = path.join(scratch, "embedded");
    await firstStartScenario(serverEnv(dataDir, await freePort()));
  });

  it.runIf(postgres.reachable)(
    "on PostgreSQL: set up by a process of its own, the password printed once and signing in",
    async () => {
      const database = await postgres.freshDatabase("hisob_first");
      cleanups.push(database.drop);
      await firstStartScenario({
        ...serverEnv(path.join(scratch, "postgres"), await freePort()),
        DATABASE_URL: database.url,
        OIDC_CRYPTO_KEY: "f".repeat(40),
      });
    },
  );
});
