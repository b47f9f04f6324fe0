import { keyReloadIntervalMs } from "@hisob/oidc";
import { type AppContext, openAppContext } from "./app-context";
import { createDrain, drainAndClose } from "./drain";
import { loadRuntimeEnv } from "./env";
import { FIRST_START_ARG, runFirstStart, runFirstStartInChild } from "./first-start";
import { buildServer } from "./server";
import { describeStartupError } from "./startup-errors";

// The process entry point: `npm start`. Everything else is built by functions tests can call.

/** How long closing may take once the drain delay is over (in-flight requests, exports, the database). */
const SHUTDOWN_TIMEOUT_MS = 10_000;

const fail = (error: unknown): never => {
  const { message, expected } = describeStartupError(error);
  console.error(expected ? `hisob: ${message}` : `hisob: unexpected error during start\n${message}`);
  process.exit(1);
};

const printBootstrap = (context: AppContext, baseUrl: string) => {
  const result = context.bootstrap;
  if (!result) return;
  const lines = [
    "",
    "  Hisob is set up: platform tenant and administrator created.",
    `  Open the accountant app at ${baseUrl}/app and sign in as ${result.email}`,
    result.generatedPassword
      ? `  Password (shown only this once; change it after signing in): ${result.generatedPassword}`
      : "  Password: the ADMIN_PASSWORD you set",
    "",
  ];
  console.log(lines.join("\n"));
};

const main = async () => {
  const env = loadRuntimeEnv();
  const context = await openAppContext(env, {
    purpose: "the Hisob server",
    bootstrap: true,
    shareAttemptBudgets: true,
    unhandledEvents: "settle",
    log: (message) => console.log(`hisob: ${message}`),
    // A first start's writes load Prisma's query compiler for good: they run in a process of their own.
    firstStartElsewhere: () => runFirstStartInChild(),
  });
  const drain = createDrain();
  const app = await buildServer({
    env,
    drain,
    db: context.db,
    services: context.services,
    oidc: context.oidc,
    events: context.outbox,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const delayMs = env.server.shutdownDrainDelayMs;
    app.log.info({ signal, drainDelayMs: delayMs }, "shutting down: draining");
    const force = setTimeout(() => {
      console.error("hisob: shutdown took too long; exiting");
      process.exit(1);
    }, delayMs + SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      // /readyz 503 at once; after the delay: stops accepting, lets in-flight requests finish (drain.ts).
      await drainAndClose(app, drain, delayMs);
      await context.outbox.stop();
      await context.closeExtras();
      await context.db.close(); // flushes the embedded database and releases its lock
      process.exit(0);
    } catch (error) {
      console.error("hisob: error while shutting down", error);
      process.exit(1);
    }
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  try {
    await app.listen({ host: env.server.host, port: env.server.port });
  } catch (error) {
    await context.db.close().catch(() => {});
    throw error;
  }
  context.outbox.start();
  // Start-up garbage goes now, not whenever the next allocation asks for it: an idle server allocates
  // next to nothing. (PGlite's initdb, whose instance and copies of the new data directory left
  // hundreds of MiB for a full GC to free, now runs in the first start's own process.)
  // `npm start` passes --expose-gc for this one call; without it (npm run dev, tests) nothing happens.
  (globalThis as { gc?: () => void }).gc?.();
  /** Housekeeping that removes what is no longer needed: at start, then every hour; logged when it removed something. */
  const hourly = (what: string, sweep: () => Promise<number>) => {
    const run = () =>
      sweep()
        .then((removed) => {
          if (removed > 0) app.log.info({ removed }, `removed ${what}`);
        })
        .catch((error: unknown) => app.log.warn({ err: error }, `removing ${what} failed`));
    void run();
    setInterval(run, 60 * 60_000).unref();
  };
  // Partial files of uploads cut short by a crash.
  hourly("stale partial uploads", () => context.services.uploads.sweepStalePartials());
  // Expired idempotency keys (docs/decisions/0018-one-posting-per-intent.md).
  hourly("expired idempotency keys", () => context.db.system.deleteExpiredIdempotencyKeys());
  // Keys rotated by another instance (or the CLI, on PostgreSQL) are published here well within their
  // propagation delay, before any instance signs with them (docs/decisions/0079-oidc-key-rotation.md).
  const keyRefresh = setInterval(() => {
    context.oidc.keys
      .load()
      .catch((error: unknown) => app.log.error({ err: error }, "reloading signing keys failed"));
  }, keyReloadIntervalMs(env.oidc.keyPropagationSeconds));
  keyRefresh.unref();
  for (const warning of env.warnings) app.log.warn(warning);
  const baseUrl = env.oidc.issuerUrl;
  app.log.info(
    { database: context.db.kind, url: baseUrl },
    `Hisob is listening; the app at ${baseUrl}/app, API reference at ${baseUrl}/docs, health at ${baseUrl}/healthz`,
  );
  printBootstrap(context, baseUrl);
};

if (process.argv.includes(FIRST_START_ARG)) {
  // The first start's setup, started by the server itself (first-start.ts).
  runFirstStart().then((code) => process.exit(code), fail);
} else {
  main().catch(fail);
}
