import { createHash, generateKeyPair, randomBytes, randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { syncPermissions } from "@hisob/core";
import { createOutbox, type Db, type SystemQueries } from "@hisob/db";
import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import type { Response as InjectResponse } from "light-my-request";
import type { App } from "../apps/server/src/app";
import { composeServices } from "../apps/server/src/app-context";
import { buildServer } from "../apps/server/src/server";
// Not "@hisob/db/testing": its index needs vitest's inject. These helpers do not.
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { percentile, runConcurrent, seconds } from "./measure";
import type { Bench, BenchResult, BenchTable } from "./run";
import { benchEnv, benchTenantAdmin } from "./users.bench";

/**
 * The OpenID provider's hot endpoints through the whole HTTP stack (`app.inject`, rate limits off)
 * on a fresh PostgreSQL database, 8 concurrent workers, beside bare `jose` RS256 signing of a
 * comparable ID token with the same concurrency in the same process:
 *  - authorize alone (session cookie → 302 with a code);
 *  - code exchange: authorize + POST /oidc/token authorization_code with PKCE (S256);
 *  - refresh grant: POST /oidc/token refresh_token, each worker chaining its own rotated tokens;
 *  - userinfo: GET /oidc/userinfo with a bearer access token (one per worker).
 * Ratios are "× slower than a bare RS256 signature": baseline ops/s ÷ ours. `--iterations` is the
 * operations per worker (default 400). Needs DATABASE_URL (a PostgreSQL admin URL); skipped without.
 *
 * A second table shows where the time goes: database transactions per operation (counted by wrapping
 * the Db handed to the app) and time inside them (including the wait for a pooled connection), and
 * time inside the provider's signJwt (which runs inside the token endpoint's tenant transaction).
 */

const WORKERS = 8;
const DEFAULT_ITERATIONS = 400;
const ISSUER = "http://localhost:3000";
const REDIRECT_URI = "https://rp.example/cb";
const SCOPE = "openid profile email offline_access";
const _PASSWORD = "Bench-Passw0rd!";
const FORM = "application/x-www-form-urlencoded";
/** What createTestDbFromTemplate gives a PostgreSQL database (packages/db/src/testing/test-databases.ts). */
const TEMPLATE_POOL_SIZE = 4;

type TokenBody = {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  token_type: string;
  scope: string;
};

// ---- Where the time goes: transactions and signing, metered from outside the packages. ----

type Meter = { calls: number; ms: number };
const newMeter = (): Meter => ({ calls: 0, ms: 0 });
const metered = async <T>(meter: Meter, run: () => Promise<T>): Promise<T> => {
  const start = performance.now();
  meter.calls++;
  try {
    return await run();
  } finally {
    meter.ms += performance.now() - start;
  }
};

type Meters = { system: Meter; platform: Meter; tenant: Meter; sign: Meter };
const newMeters = (): Meters => ({
  system: newMeter(),
  platform: newMeter(),
  tenant: newMeter(),
  sign: newMeter(),
});

/** The same Db, counting and timing every transaction by kind (system lookups, platform, tenant). */
const meteredDb = (db: Db, meters: () => Meters): Db => {
  const system = Object.fromEntries(
    Object.entries(db.system).map(([name, query]) => [
      name,
      (...args: unknown[]) =>
        metered(meters().system, () => (query as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as SystemQueries;
  return {
    ...db,
    system,
    withTenant: (tenantId, fn) => metered(meters().tenant, () => db.withTenant(tenantId, fn)),
    withPlatform: (fn) => metered(meters().platform, () => db.withPlatform(fn)),
  };
};

// ---- Helpers for the OAuth requests. ----

const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

const expectStatus = (res: InjectResponse, status: number, what: string) => {
  if (res.statusCode !== status) throw new Error(`${what}: HTTP ${res.statusCode} ${res.body.slice(0, 300)}`);
};

const ms = (value: number) => value.toFixed(2);
const mean = (samples: readonly number[]) => samples.reduce((sum, x) => sum + x, 0) / samples.length;

export const oidcBench: Bench = {
  name: "oidc",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message =
        "oidc: skipped — set DATABASE_URL to a PostgreSQL admin URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/postgres); the spec asks for PostgreSQL.";
      console.log(message);
      return { name: message, rows: [] };
    }
    const perWorker = iterations ?? DEFAULT_ITERATIONS;
    const warmup = Math.max(5, Math.floor(perWorker / 10));

    let current = newMeters();
    const meters = () => current;
    let template: TestTemplate | undefined;
    let db: Db | undefined;
    let app: App | undefined;
    try {
      const setupStart = process.hrtime.bigint();
      template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
      const rawDb = await createTestDbFromTemplate(template);
      db = rawDb;
      const appDb = meteredDb(rawDb, meters);
      const outbox = createOutbox(appDb, { unhandled: "settle" }); // as the server's
      await syncPermissions(appDb);
      const env = benchEnv({ OIDC_ISSUER_URL: ISSUER, OIDC_RATE_LIMIT_ENABLED: "false" });
      if (env.rateLimit.enabled) throw new Error("rate limits must be off for this benchmark");
      const { services, oidc } = composeServices(appDb, outbox, env);
      await oidc.start();
      const signJwt = oidc.keys.signJwt;
      // The token endpoint calls signer.signJwt on this same object at request time.
      oidc.keys.signJwt = (claims, options) => metered(meters().sign, () => signJwt(claims, options));
      const server = await buildServer({ env, db: appDb, services, oidc, logger: false });
      app = server;
      await server.ready();

      const { user, token: sessionToken } = await benchTenantAdmin(
        appDb,
        outbox,
        services,
        "oidc-bench@example.com",
      );
      const { client, clientSecret } = await oidc.clients.create({
        name: "Bench RP",
        redirectUris: [REDIRECT_URI],
        // First-party: authorize answers with a code, no consent page (decision 0036).
        isFirstParty: true,
      });
      if (!clientSecret) throw new Error("expected a confidential client");
      const basic = `Basic ${Buffer.from(
        `${encodeURIComponent(client.clientId)}:${encodeURIComponent(clientSecret)}`,
      ).toString("base64")}`;
      const setupSeconds = seconds(setupStart);

      // ---- The operations. ----
      const authorize = async (): Promise<{ code: string; verifier: string }> => {
        const { verifier, challenge } = pkcePair();
        const query = new URLSearchParams({
          client_id: client.clientId,
          redirect_uri: REDIRECT_URI,
          response_type: "code",
          scope: SCOPE,
          state: randomBytes(8).toString("base64url"),
          nonce: randomBytes(8).toString("base64url"),
          code_challenge: challenge,
          code_challenge_method: "S256",
        });
        const res = await server.inject({
          method: "GET",
          url: `/oidc/authorize?${query}`,
          cookies: { session: sessionToken },
        });
        expectStatus(res, 302, "authorize");
        const code = new URL(String(res.headers.location)).searchParams.get("code");
        if (!code) throw new Error(`authorize gave no code: ${String(res.headers.location)}`);
        return { code, verifier };
      };
      const tokenRequest = async (form: Record<string, string>, what: string): Promise<TokenBody> => {
        const res = await server.inject({
          method: "POST",
          url: "/oidc/token",
          headers: { "content-type": FORM, authorization: basic },
          payload: new URLSearchParams(form).toString(),
        });
        expectStatus(res, 200, what);
        if (res.headers["x-ratelimit-limit"] !== undefined) throw new Error("rate limiting is on");
        const body = res.json<TokenBody>();
        if (!body.access_token || !body.refresh_token || !body.id_token)
          throw new Error(`${what}: incomplete token response ${res.body.slice(0, 300)}`);
        return body;
      };
      const exchangeCode = ({ code, verifier }: { code: string; verifier: string }) =>
        tokenRequest(
          { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
          "token (authorization_code)",
        );
      const refresh = (refreshToken: string) =>
        tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken }, "token (refresh_token)");
      const userinfo = async (accessToken: string) => {
        const res = await server.inject({
          method: "GET",
          url: "/oidc/userinfo",
          headers: { authorization: `Bearer ${accessToken}` },
        });
        expectStatus(res, 200, "userinfo");
        if (res.json<{ sub?: string }>().sub !== user.id) throw new Error("userinfo answered another sub");
      };

      // Sanity: the ID token verifies against the published keys (what the baseline is compared with).
      const first = await exchangeCode(await authorize());
      const verified = await jwtVerify(first.id_token ?? "", createLocalJWKSet(oidc.keys.jwks()), {
        issuer: ISSUER,
        audience: client.clientId,
      });
      const kid = verified.protectedHeader.kid ?? "bench-kid";

      // ---- Baseline: bare jose RS256 of a comparable ID token, same concurrency. ----
      const { privateKey } = await promisify(generateKeyPair)("rsa", {
        modulusLength: 2048,
        publicExponent: 65537,
      });
      const claims = {
        auth_time: Math.floor(Date.now() / 1000),
        nonce: randomBytes(8).toString("base64url"),
        at_hash: randomBytes(16).toString("base64url"),
        azp: client.clientId,
        sid: randomUUID(),
      };
      const sign = async () => {
        const iat = Math.floor(Date.now() / 1000);
        await new SignJWT({ ...claims })
          .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
          .setIssuer(ISSUER)
          .setSubject(user.id)
          .setAudience(client.clientId)
          .setIssuedAt(iat)
          .setExpirationTime(iat + 3600)
          .sign(privateKey);
      };

      /** Warm-up (same shape), then the measured run with fresh meters. */
      let measuring = false;
      const measure = async (op: (worker: number, i: number) => Promise<void>) => {
        await runConcurrent(WORKERS, warmup, op);
        const counted = newMeters();
        current = counted;
        measuring = true;
        try {
          const run = await runConcurrent(WORKERS, perWorker, op);
          return { run, meters: counted };
        } finally {
          // Later warm-ups and setup count elsewhere.
          measuring = false;
          current = newMeters();
        }
      };

      const baseline = await measure(() => sign());

      const authorizeOnly = await measure(async () => {
        await authorize();
      });

      // The code exchange, with its two steps timed apart (measured run only).
      const authorizeMs: number[] = [];
      const exchangeMs: number[] = [];
      const exchange = await measure(async () => {
        const t0 = performance.now();
        const issued = await authorize();
        const t1 = performance.now();
        await exchangeCode(issued);
        if (measuring) {
          authorizeMs.push(t1 - t0);
          exchangeMs.push(performance.now() - t1);
        }
      });

      // Each worker its own grant and chain of rotated refresh tokens.
      const chains = await Promise.all(
        Array.from(
          { length: WORKERS },
          async () => (await exchangeCode(await authorize())).refresh_token ?? "",
        ),
      );
      const refreshRun = await measure(async (worker) => {
        const body = await refresh(chains[worker] ?? "");
        chains[worker] = body.refresh_token ?? "";
      });

      const accessTokens = await Promise.all(
        Array.from({ length: WORKERS }, async () => (await exchangeCode(await authorize())).access_token),
      );
      const userinfoRun = await measure(async (worker) => {
        await userinfo(accessTokens[worker] ?? "");
      });

      // ---- Report. ----
      const base = baseline.run.opsPerSecond;
      const cases = [
        { label: "bare jose RS256 sign, ID-token payload, RSA-2048 (baseline)", ...baseline },
        { label: "GET /oidc/authorize only (session cookie → code)", ...authorizeOnly },
        { label: "code exchange: authorize + POST /oidc/token authorization_code (PKCE)", ...exchange },
        { label: "refresh grant: POST /oidc/token refresh_token (rotating)", ...refreshRun },
        { label: "GET /oidc/userinfo (bearer)", ...userinfoRun },
      ];
      const ops = WORKERS * perWorker;
      const latencyRows: BenchTable["rows"] = cases.map(({ label, run }) => ({
        case: label,
        "p50 ms": ms(percentile(run.latenciesMs, 50)),
        "p95 ms": ms(percentile(run.latenciesMs, 95)),
        "mean ms": ms(mean(run.latenciesMs)),
        "wall s": run.seconds.toFixed(2),
      }));
      latencyRows.push(
        {
          case: "  of the code exchange: the authorize step",
          "p50 ms": ms(percentile(authorizeMs, 50)),
          "p95 ms": ms(percentile(authorizeMs, 95)),
          "mean ms": ms(mean(authorizeMs)),
          "wall s": "",
        },
        {
          case: "  of the code exchange: the token step",
          "p50 ms": ms(percentile(exchangeMs, 50)),
          "p95 ms": ms(percentile(exchangeMs, 95)),
          "mean ms": ms(mean(exchangeMs)),
          "wall s": "",
        },
      );
      const whereRows: BenchTable["rows"] = cases.slice(1).map(({ label, run, meters: m }) => ({
        case: label,
        "tx/op (system+platform+tenant)": `${((m.system.calls + m.platform.calls + m.tenant.calls) / ops).toFixed(1)} (${(m.system.calls / ops).toFixed(1)}+${(m.platform.calls / ops).toFixed(1)}+${(m.tenant.calls / ops).toFixed(1)})`,
        "ms in tx/op": ms((m.system.ms + m.platform.ms + m.tenant.ms) / ops),
        "ms in signJwt/op": ms(m.sign.ms / ops),
        "signJwt/op": (m.sign.calls / ops).toFixed(1),
        "mean latency ms": ms(mean(run.latenciesMs)),
      }));

      return {
        name:
          `OpenID provider, ${WORKERS} concurrent workers × ${perWorker} operations (warm-up ${warmup} each), ` +
          `PostgreSQL ${new URL(adminUrl).host}, pool of ${TEMPLATE_POOL_SIZE} connections (createTestDbFromTemplate), ` +
          `rate limits off; setup ${setupSeconds.toFixed(1)} s. Ratio = baseline ops/s ÷ ours ("× slower than a bare RS256 signature")`,
        rows: cases.map(({ label, run }) => ({
          label,
          opsPerSecond: run.opsPerSecond,
          ratio: base / run.opsPerSecond,
        })),
        tables: [
          { title: `Latency per operation (${WORKERS} in flight)`, rows: latencyRows },
          {
            title:
              "Where the time goes (tx = Db transactions, timed including the wait for a pooled connection; " +
              "the token endpoint signs inside its tenant transaction, so signJwt time is also in 'ms in tx')",
            rows: whereRows,
          },
        ],
      };
    } finally {
      await app?.close().catch(() => {});
      await db?.close().catch(() => {});
      if (template) await dropTemplate(template);
    }
  },
};
