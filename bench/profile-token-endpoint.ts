import { createHash, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { syncPermissions } from "@hisob/core";
import { createOutbox } from "@hisob/db";
import pg from "pg";
import { composeServices } from "../apps/server/src/app-context";
import { buildServer } from "../apps/server/src/server";
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
} from "../packages/db/src/testing/test-databases";
import { runConcurrent } from "./measure";
import { benchEnv, benchTenantAdmin } from "./users.bench";

/*
 * Where a token grant's CPU goes: our server over HTTP on a fresh PostgreSQL database, as
 * in oidc-peer.bench.ts, under the refresh or the code-exchange load, with two figures per run —
 * this process's CPU per grant (server and load generator) and the CPU of the database's backends
 * serving the pool (from /proc, so PostgreSQL must run on this machine) — and, with PROFILE=<dir>,
 * a V8 CPU profile of the measured run only (open it in Chrome DevTools or analyse the JSON).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     [LOAD=refresh|code] [CLIENTS=8] [N=300] [PROFILE=.tmp] npx tsx bench/profile-token-endpoint.ts
 *
 * Not a benchmark (no baseline): compare its figures between versions on a quiet machine, or read
 * the profile. N is grants per client; code exchanges are timed in chunks of 25 per client (our codes
 * live 60 s), the authorize requests that issue them untimed.
 */

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error("Set DATABASE_URL to a PostgreSQL admin URL");
const LOAD = process.env.LOAD === "code" ? "code" : "refresh";
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const N = Number(process.env.N ?? 300);
const PROFILE = process.env.PROFILE;
const CODE_CHUNK = 25;
const REDIRECT_URI = "https://rp.example/cb";
const SCOPE = "openid profile email offline_access";
const _PASSWORD = "Bench-Passw0rd!";

/** CPU milliseconds (user + system) the given processes have used so far. */
const processCpuMs = (pids: readonly number[]): number => {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The backend ended: its time is lost to this figure.
    }
  }
  return ticks * 10; // USER_HZ 100
};

const template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
const db = await createTestDbFromTemplate(template, { poolSize: CLIENTS + 2 });
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
try {
  const outbox = createOutbox(db, { unhandled: "settle" });
  await syncPermissions(db);
  const env = benchEnv({ OIDC_RATE_LIMIT_ENABLED: "false" });
  const { services, oidc } = composeServices(db, outbox, env);
  await oidc.start();
  const server = await buildServer({ env, db, services, oidc, logger: false });
  await server.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
  try {
    const { token: session } = await benchTenantAdmin(db, outbox, services, "profile@example.com");
    const { client, clientSecret } = await oidc.clients.create({
      name: "RP",
      redirectUris: [REDIRECT_URI],
      isFirstParty: true, // no consent page between authorize and the code
    });
    const basic = `Basic ${Buffer.from(`${client.clientId}:${clientSecret}`).toString("base64")}`;
    const [{ name: database } = { name: "" }] = await db.rawTx.withPlatform((tx) =>
      tx.query<{ name: string }>("SELECT current_database() AS name"),
    );

    const issue = async () => {
      const verifier = randomBytes(32).toString("base64url");
      const query = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: REDIRECT_URI,
        response_type: "code",
        scope: SCOPE,
        state: "s",
        nonce: "n",
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
      });
      const res = await fetch(`${base}/oidc/authorize?${query}`, {
        headers: { cookie: `session=${session}` },
        redirect: "manual",
      });
      await res.arrayBuffer();
      const code = new URL(res.headers.get("location") ?? "").searchParams.get("code");
      if (!code) throw new Error(`authorize: HTTP ${res.status}`);
      return { code, verifier };
    };
    const token = async (form: Record<string, string>) => {
      const res = await fetch(`${base}/oidc/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
        body: new URLSearchParams(form).toString(),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`token: HTTP ${res.status} ${text.slice(0, 200)}`);
      return JSON.parse(text) as { refresh_token: string };
    };
    const exchange = (issued: { code: string; verifier: string }) =>
      token({
        grant_type: "authorization_code",
        code: issued.code,
        redirect_uri: REDIRECT_URI,
        code_verifier: issued.verifier,
      });
    const chains = await Promise.all(
      Array.from({ length: CLIENTS }, async () => (await exchange(await issue())).refresh_token),
    );
    const refresh = async (c: number) => {
      chains[c] = (
        await token({ grant_type: "refresh_token", refresh_token: chains[c] ?? "" })
      ).refresh_token;
    };

    const inspector = new Session();
    inspector.connect();
    /** One timed stretch of `perClient` grants per client: wall seconds, our CPU, the backends' CPU. */
    const timed = async (perClient: number, op: (c: number, i: number) => Promise<void>) => {
      const pids = (
        await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database])
      ).rows.map((row) => row.pid);
      const cpu = process.cpuUsage();
      const pgStart = processCpuMs(pids);
      const run = await runConcurrent(CLIENTS, perClient, op);
      const used = process.cpuUsage(cpu);
      return {
        seconds: run.seconds,
        ownMs: (used.user + used.system) / 1000,
        pgMs: processCpuMs(pids) - pgStart,
      };
    };
    const round = async (profile: boolean) => {
      if (profile) {
        await inspector.post("Profiler.enable");
        await inspector.post("Profiler.setSamplingInterval", { interval: 100 });
        await inspector.post("Profiler.start");
      }
      const total = { seconds: 0, ownMs: 0, pgMs: 0 };
      const add = (part: typeof total) => {
        total.seconds += part.seconds;
        total.ownMs += part.ownMs;
        total.pgMs += part.pgMs;
      };
      if (LOAD === "refresh") add(await timed(N, refresh));
      else {
        for (let done = 0; done < N; done += CODE_CHUNK) {
          const size = Math.min(CODE_CHUNK, N - done);
          if (profile) await inspector.post("Profiler.stop"); // the authorize requests stay out
          const codes = await Promise.all(
            Array.from({ length: CLIENTS }, async () => {
              const issued = [];
              for (let i = 0; i < size; i++) issued.push(await issue());
              return issued;
            }),
          );
          if (profile) await inspector.post("Profiler.start");
          add(
            await timed(size, async (c, i) => {
              const issued = codes[c]?.[i];
              if (!issued) throw new Error("no code");
              await exchange(issued);
            }),
          );
        }
      }
      if (profile) {
        const { profile: cpuProfile } = await inspector.post("Profiler.stop");
        const file = path.join(PROFILE ?? ".", `token-${LOAD}-${Date.now()}.cpuprofile`);
        writeFileSync(file, JSON.stringify(cpuProfile));
        console.log(`profile: ${file}`);
      }
      return total;
    };
    await round(false); // warm-up
    const measured = await round(PROFILE !== undefined);
    const grants = CLIENTS * N;
    console.log(
      `${LOAD}: ${CLIENTS} clients × ${N}: ${Math.round(grants / measured.seconds)}/s; ` +
        `CPU per grant: this process ${(measured.ownMs / grants).toFixed(2)} ms, ` +
        `PostgreSQL backends ${(measured.pgMs / grants).toFixed(2)} ms`,
    );
    inspector.disconnect();
  } finally {
    await server.close();
  }
} finally {
  await admin.end();
  await db.close();
  await dropTemplate(template);
}
