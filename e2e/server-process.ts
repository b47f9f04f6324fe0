import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

// Running the real server and CLI the README's way (tsx on the sources), for end-to-end tests.

export const ROOT = path.resolve(import.meta.dirname, "..");
// Node with tsx's loader, as `npm start` runs it: one process, so SIGTERM reaches the server itself
// (the tsx CLI relays signals with a 30 ms handshake and SIGKILLs a busy child).
const NODE = process.execPath;
const TSX_LOADER = ["--import", "tsx"];

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });

export type ProcessResult = { code: number | null; stdout: string; stderr: string };

export const collect = (child: ChildProcess): Promise<ProcessResult> =>
  new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });

/** An environment for a server on a fresh embedded database in `dataDir`. */
export const serverEnv = (dataDir: string, port: number): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    PORT: String(port),
  };
  for (const name of ["DATABASE_URL", "ADMIN_EMAIL", "ADMIN_PASSWORD", "OIDC_CRYPTO_KEY", "OIDC_ISSUER_URL"])
    delete env[name];
  env.OIDC_ISSUER_URL = `http://127.0.0.1:${port}`;
  return env;
};

export const runCli = (args: string[], env: NodeJS.ProcessEnv) =>
  collect(
    spawn(NODE, [...TSX_LOADER, path.join(ROOT, "apps/server/src/cli.ts"), ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );

/** Starts `apps/server/src/main.ts` and resolves once /healthz answers. */
export const startServer = async (env: NodeJS.ProcessEnv) => {
  const child = spawn(NODE, [...TSX_LOADER, path.join(ROOT, "apps/server/src/main.ts")], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const done = collect(child);
  const base = env.OIDC_ISSUER_URL ?? "";
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null || Date.now() > deadline) {
      const result = await done;
      throw new Error(`server did not start (exit ${result.code}): ${result.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    child,
    done,
    stop: async () => {
      child.kill("SIGTERM");
      return done;
    },
  };
};
