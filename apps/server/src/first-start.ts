import { fork } from "node:child_process";
import { openAppContext } from "./app-context";
import type { BootstrapResult } from "./bootstrap";
import { loadRuntimeEnv } from "./env";
import { describeStartupError, FirstStartError } from "./startup-errors";

/*
 * The server's first start, in a short-lived process of its own. Everything a first start writes —
 * the embedded database itself (initdb), the permission registry, the first signing key, the
 * accountant app's registration, the platform tenant with its admin role and administrator — goes
 * through Prisma, whose WebAssembly query compiler, once loaded, stays for the life of the process
 * (~60–90 MiB RSS idle, see README, "Memory"), and embedded, initdb's instance leaves hundreds of MiB
 * for the collector. So `npm start` runs those steps in a child (the same entry point, started again
 * with FIRST_START_ARG: the same code, the same bundle, the same flags), which exits when they are
 * done; the serving process then opens the database as every later start does, and finds nothing to
 * write. The generated administrator password comes back over the IPC channel and is printed once by
 * the server, as before; an error of the child is reported by the server as if it had been its own.
 */

/** The argument that makes the server's entry point (main.ts) run the first start and exit. */
export const FIRST_START_ARG = "--first-start";

type ChildMessage =
  | { kind: "done"; result: BootstrapResult | null }
  | { kind: "failed"; message: string; expected: boolean };

/**
 * Runs the first start in a child process: this process's entry point (`process.argv[1]`) with its
 * node flags (`process.execArgv`, so under tsx the loader too) and environment, plus FIRST_START_ARG.
 * Its output (e.g. the migrations it applies) goes to this process's stdout and stderr.
 */
export const runFirstStartInChild = (
  entry: string = process.argv[1] ?? "",
): Promise<BootstrapResult | null> =>
  new Promise((resolve, reject) => {
    const child = fork(entry, [FIRST_START_ARG], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let message: ChildMessage | undefined;
    child.on("message", (received) => {
      message = received as ChildMessage;
    });
    child.once("error", reject);
    // "close", not "exit": by then every message the child sent has arrived.
    child.once("close", (code, signal) => {
      if (message?.kind === "done" && code === 0) resolve(message.result);
      else if (message?.kind === "failed") reject(new FirstStartError(message.message, message.expected));
      else {
        const how = signal ? `was stopped by ${signal}` : `exited with code ${String(code)}`;
        reject(new FirstStartError(`the first start's setup process ${how} before it finished`, false));
      }
    });
  });

const send = (message: ChildMessage) =>
  new Promise<void>((resolve, reject) => {
    process.send?.(message, (error: Error | null) => (error ? reject(error) : resolve()));
  });

/**
 * The child's side: opens the application context with the first start's bootstrap (every setup
 * step of openAppContext), closes it, and reports the result (or the error, described) to the server.
 * Resolves with the exit code.
 */
export const runFirstStart = async (): Promise<number> => {
  // Without the server that started it, nobody would print the password it generates: stop (an
  // unfinished setup rolls back, and the next start runs it again).
  if (!process.send) {
    throw new FirstStartError(
      `${FIRST_START_ARG} is run by the server itself (npm start), not by hand`,
      true,
    );
  }
  process.once("disconnect", () => process.exit(1));
  if (!process.connected) return 1;
  try {
    const env = loadRuntimeEnv();
    const context = await openAppContext(env, {
      purpose: "the Hisob server (setting up its first start)",
      bootstrap: true,
      log: (message) => console.log(`hisob: ${message}`),
    });
    try {
      await send({ kind: "done", result: context.bootstrap });
    } finally {
      await context.closeExtras();
      await context.db.close();
    }
    return 0;
  } catch (error) {
    await send({ kind: "failed", ...describeStartupError(error) });
    return 1;
  }
};
