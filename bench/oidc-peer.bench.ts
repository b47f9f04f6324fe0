import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { syncPermissions } from "@hisob/core";
import { createOutbox, type Db } from "@hisob/db";
// The peer: panva's certified provider (a dev dependency of the server, used by its tests).
import Provider from "oidc-provider";
import pg from "pg";
import type { App } from "../apps/server/src/app";
import { composeServices } from "../apps/server/src/app-context";
import { buildServer } from "../apps/server/src/server";
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { type ConcurrentRun, median, medianRun, percentile, runConcurrent } from "./measure";
import type { Figure } from "./report";
import type { Bench, BenchResult, BenchTable } from "./run";
import { benchEnv, benchTenantAdmin } from "./users.bench";

/**
 * Our token endpoint and userinfo beside node-oidc-provider 9, both over HTTP on
 * 127.0.0.1 with the same load script in this process: 8 concurrent clients (`fetch`, keep-alive),
 * rounds in rotating order, medians, and each round's ratio for the spread. We run on PostgreSQL; the
 * peer runs twice: with everything in memory (the easy peer) and with a PostgreSQL adapter on its own
 * database of the same server and the same pool size (the fair peer). Same layout on both sides: a confidential client authenticating
 * with HTTP Basic, PKCE S256, opaque access and refresh tokens, refresh rotation, an RS256 ID token
 * (RSA-2048) on every grant, scope `openid profile email offline_access`.
 *  - code exchange: POST token with grant_type=authorization_code; the codes are issued before each
 *    round (ours through GET /oidc/authorize with a session cookie, the peer's through its
 *    AuthorizationCode model, since its login is interactive), 25 per client at a time because our
 *    codes live 60 s, so only the token requests are timed;
 *  - refresh grant: each client chaining its own rotated refresh tokens;
 *  - userinfo: GET with a bearer access token (one per client);
 *  - authorize with a session: GET authorize as a signed-in user whose grant covers the scope (ours:
 *    the session cookie, a first-party client; the peer: the session cookies it set when the user
 *    signed in through its interaction, finished here at once, with the grant), a code in the redirect.
 * Figures: ours ÷ peer throughput, and CPU of this process per operation (servers and load together).
 * `--iterations` is operations per client per round (default 150). Needs DATABASE_URL.
 */

const CLIENTS = 8;
const ROUNDS = 5;
const DEFAULT_ITERATIONS = 150;
const REDIRECT_URI = "https://rp.example/cb";
const SCOPE = "openid profile email offline_access";
const _PASSWORD = "Bench-Passw0rd!";
const FORM = "application/x-www-form-urlencoded";

type TokenBody = { access_token: string; refresh_token?: string; id_token?: string };
type Issued = { code: string; verifier: string };
/** One side of the comparison: how to get codes, and its endpoints. */
type Side = {
  name: string;
  issueCode(): Promise<Issued>;
  /** GET authorize with the signed-in user's session: a code comes back in the redirect. */
  authorize(): Promise<void>;
  tokenUrl: string;
  userinfoUrl: string;
  basic: string;
};

const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** The authorization request of the authorize workload (PKCE S256, state, nonce), fresh each time. */
const authorizeQuery = (clientId: string, scope: string) => {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope,
    state: randomBytes(8).toString("base64url"),
    nonce: randomBytes(8).toString("base64url"),
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  return { query, verifier };
};

/** The code in an authorization response (a redirect to REDIRECT_URI); throws on anything else. */
const codeOf = async (name: string, res: Response): Promise<string> => {
  const location = res.headers.get("location") ?? "";
  await res.arrayBuffer();
  const code =
    res.status >= 300 && res.status < 400 && location.startsWith(REDIRECT_URI)
      ? new URL(location).searchParams.get("code")
      : null;
  if (!code) throw new Error(`${name} authorize: HTTP ${res.status} ${location}`);
  return code;
};

/**
 * The authorize workload's scope on both sides: node-oidc-provider drops offline_access from an
 * authorization request without prompt=consent (OIDC Core §11), so it is left out on both.
 */
const AUTHORIZE_SCOPE = "openid profile email";

const basicOf = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;

const postToken = async (side: Side, form: Record<string, string>): Promise<TokenBody> => {
  const res = await fetch(side.tokenUrl, {
    method: "POST",
    headers: { "content-type": FORM, authorization: side.basic },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${side.name} token: HTTP ${res.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as TokenBody;
  if (!body.access_token || !body.refresh_token || !body.id_token)
    throw new Error(`${side.name}: incomplete token response ${text.slice(0, 300)}`);
  return body;
};

const exchange = (side: Side, issued: Issued) =>
  postToken(side, {
    grant_type: "authorization_code",
    code: issued.code,
    redirect_uri: REDIRECT_URI,
    code_verifier: issued.verifier,
  });

const userinfo = async (side: Side, accessToken: string) => {
  const res = await fetch(side.userinfoUrl, { headers: { authorization: `Bearer ${accessToken}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${side.name} userinfo: HTTP ${res.status} ${text.slice(0, 300)}`);
  if (!(JSON.parse(text) as { email?: string }).email) throw new Error(`${side.name} userinfo: no email`);
};

type Round = ConcurrentRun & { cpuMsPerOp: number };
const timed = async (perClient: number, op: (client: number, i: number) => Promise<void>): Promise<Round> => {
  const cpu = process.cpuUsage();
  const run = await runConcurrent(CLIENTS, perClient, op);
  const used = process.cpuUsage(cpu);
  return { ...run, cpuMsPerOp: (used.user + used.system) / 1000 / (CLIENTS * perClient) };
};

/**
 * The peer's storage: a plain in-memory Map per model. Its built-in development adapter is an LRU of
 * 1,000 entries, which evicts grants while a round's codes are issued; this one keeps everything.
 */
const stores = new Map<string, Map<string, Record<string, unknown>>>();
class MapAdapter {
  private readonly store: Map<string, Record<string, unknown>>;
  constructor(private readonly name: string) {
    const existing = stores.get(name) ?? new Map<string, Record<string, unknown>>();
    stores.set(name, existing);
    this.store = existing;
  }
  async upsert(id: string, payload: Record<string, unknown>) {
    this.store.set(id, payload);
    const grantId = payload.grantId;
    if (typeof grantId === "string") {
      const grants = stores.get("GrantIndex") ?? new Map<string, Record<string, unknown>>();
      stores.set("GrantIndex", grants);
      const ids = (grants.get(grantId)?.ids as string[] | undefined) ?? [];
      ids.push(`${this.name}:${id}`);
      grants.set(grantId, { ids });
    }
  }
  async find(id: string) {
    return this.store.get(id);
  }
  async findByUserCode(userCode: string) {
    for (const payload of this.store.values()) if (payload.userCode === userCode) return payload;
    return undefined;
  }
  async findByUid(uid: string) {
    for (const payload of this.store.values()) if (payload.uid === uid) return payload;
    return undefined;
  }
  async consume(id: string) {
    const payload = this.store.get(id);
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    this.store.delete(id);
  }
  async revokeByGrantId(grantId: string) {
    const ids = (stores.get("GrantIndex")?.get(grantId)?.ids as string[] | undefined) ?? [];
    for (const key of ids) {
      const [name, id] = key.split(":");
      if (name && id) stores.get(name)?.delete(id);
    }
    stores.get("GrantIndex")?.delete(grantId);
  }
}

/**
 * The fair peer's storage: node-oidc-provider on PostgreSQL, the same server we use, in the shape of
 * its documented adapter examples: one table of JSON payloads keyed by model and id, with the grant
 * id, user code and uid as indexed columns for the lookups the provider makes.
 */
const PEER_TABLE = "oidc_peer_payloads";
export const createPeerTable = async (pool: pg.Pool) => {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS ${PEER_TABLE} (
      model text NOT NULL, id text NOT NULL, payload jsonb NOT NULL,
      grant_id text, user_code text, uid text,
      expires_at timestamptz, consumed_at timestamptz,
      PRIMARY KEY (model, id));
    CREATE INDEX IF NOT EXISTS ${PEER_TABLE}_grant ON ${PEER_TABLE} (grant_id);
    CREATE INDEX IF NOT EXISTS ${PEER_TABLE}_user_code ON ${PEER_TABLE} (user_code);
    CREATE INDEX IF NOT EXISTS ${PEER_TABLE}_uid ON ${PEER_TABLE} (uid);`);
};
const pgAdapter = (pool: pg.Pool) =>
  class PgAdapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      await pool.query(
        `INSERT INTO ${PEER_TABLE} (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
           user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
        [
          this.model,
          id,
          payload,
          payload.grantId ?? null,
          payload.userCode ?? null,
          payload.uid ?? null,
          expiresIn ?? null,
        ],
      );
    }
    private async one(where: string, value: string) {
      const { rows } = await pool.query<{ payload: Record<string, unknown>; consumed: number | null }>(
        `SELECT payload, extract(epoch FROM consumed_at)::int AS consumed FROM ${PEER_TABLE}
         WHERE model = $1 AND ${where} = $2 AND (expires_at IS NULL OR expires_at > now())`,
        [this.model, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed === null ? row.payload : { ...row.payload, consumed: row.consumed };
    }
    find(id: string) {
      return this.one("id", id);
    }
    findByUserCode(userCode: string) {
      return this.one("user_code", userCode);
    }
    findByUid(uid: string) {
      return this.one("uid", uid);
    }
    async consume(id: string) {
      await pool.query(`UPDATE ${PEER_TABLE} SET consumed_at = now() WHERE model = $1 AND id = $2`, [
        this.model,
        id,
      ]);
    }
    async destroy(id: string) {
      await pool.query(`DELETE FROM ${PEER_TABLE} WHERE model = $1 AND id = $2`, [this.model, id]);
    }
    async revokeByGrantId(grantId: string) {
      await pool.query(`DELETE FROM ${PEER_TABLE} WHERE grant_id = $1`, [grantId]);
    }
  };

export const startPeer = async (email: string, storage: { name: string; pool?: pg.Pool }) => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "peer-key", use: "sig", alg: "RS256" };
  const clientId = "peer-bench-client";
  const clientSecret = randomBytes(24).toString("base64url");
  // The issuer needs the port before listening: listen on an ephemeral port via node:http first.
  const { createServer } = await import("node:http");
  let handler: ((req: unknown, res: unknown) => void) | undefined;
  const server: Server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    adapter: storage.pool ? pgAdapter(storage.pool) : MapAdapter,
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [jwk as never] },
    claims: {
      openid: ["sub"],
      profile: ["name", "given_name", "family_name", "updated_at"],
      email: ["email", "email_verified"],
    },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async () => true,
    cookies: { keys: ["peer-bench-cookie-key-0123456789"] },
    ttl: { AuthorizationCode: 600, AccessToken: 3600, IdToken: 3600, RefreshToken: 86400, Grant: 86400 },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({
        sub: id,
        name: "Bench User",
        given_name: "Bench",
        family_name: "User",
        updated_at: Math.floor(Date.now() / 1000),
        email,
        email_verified: false,
      }),
    }),
  });
  // The peer's reason for a refused grant (its response only says "grant request is invalid").
  provider.on("grant.error", (_ctx, error: { error_detail?: string }) => {
    console.error(`node-oidc-provider grant error: ${error.error_detail ?? String(error)}`);
  });
  const accountId = "peer-account";
  const callback = provider.callback() as (req: unknown, res: unknown) => void;
  // Its login and consent are pages of the host: here the interaction is finished at once, signed in
  // as the account with a grant of the authorize workload's scope (as a user who signed in and allowed it).
  handler = (req, res) => {
    const url = (req as { url?: string }).url ?? "";
    if (!url.startsWith("/interaction/")) return callback(req, res);
    void (async () => {
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope(AUTHORIZE_SCOPE);
      const grantId = await grant.save();
      await provider.interactionFinished(
        req as never,
        res as never,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      console.error("peer interaction failed", error);
      (res as { statusCode: number; end(): void }).statusCode = 500;
      (res as { end(): void }).end();
    });
  };
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error("peer: client not found");
  const issueCode = async (): Promise<Issued> => {
    const { verifier, challenge } = pkcePair();
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    const code = new provider.AuthorizationCode({
      accountId,
      client,
      grantId,
      redirectUri: REDIRECT_URI,
      scope: SCOPE,
      nonce: randomBytes(8).toString("base64url"),
      authTime: Math.floor(Date.now() / 1000),
      codeChallenge: challenge,
      codeChallengeMethod: "S256",
      expiresWithSession: false,
      gty: "authorization_code",
    });
    return { code: await code.save(), verifier };
  };
  // Sign in once through its authorization endpoint (the interaction finished above): the session
  // cookies it sets are what every authorize request of the workload then sends.
  const cookies = new Map<string, string>();
  const follow = async (url: string): Promise<Response> => {
    const res = await fetch(new URL(url, issuer), {
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
      redirect: "manual",
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  let res = await follow(`/auth?${authorizeQuery(clientId, AUTHORIZE_SCOPE).query}`);
  for (let hops = 0; hops < 5 && !(res.headers.get("location") ?? "").startsWith(REDIRECT_URI); hops++) {
    const location = res.headers.get("location");
    await res.arrayBuffer();
    if (!location) throw new Error(`peer sign-in: HTTP ${res.status} without a redirect`);
    res = await follow(location);
  }
  await codeOf("peer sign-in", res);
  const sessionCookie = [...cookies]
    .filter(([name]) => name.startsWith("_session"))
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
  if (!sessionCookie) throw new Error("peer sign-in: no session cookie");
  const authorize = async () => {
    const { query } = authorizeQuery(clientId, AUTHORIZE_SCOPE);
    await codeOf(
      `node-oidc-provider (${storage.name})`,
      await fetch(`${issuer}/auth?${query}`, { headers: { cookie: sessionCookie }, redirect: "manual" }),
    );
  };
  const side: Side = {
    name: `node-oidc-provider (${storage.name})`,
    issueCode,
    authorize,
    tokenUrl: `${issuer}/token`,
    userinfoUrl: `${issuer}/me`,
    basic: basicOf(clientId, clientSecret),
  };
  return {
    side,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export const oidcPeerBench: Bench = {
  name: "oidc-peer",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message = "oidc-peer: skipped — set DATABASE_URL to a PostgreSQL admin URL.";
      console.log(message);
      return { name: message, rows: [] };
    }
    const perClient = iterations ?? DEFAULT_ITERATIONS;
    const warmup = Math.max(10, Math.floor(perClient / 5));
    let template: TestTemplate | undefined;
    let db: Db | undefined;
    let app: App | undefined;
    let peer: Awaited<ReturnType<typeof startPeer>> | undefined;
    let peerPg: Awaited<ReturnType<typeof startPeer>> | undefined;
    let peerPool: pg.Pool | undefined;
    let peerDatabase: string | undefined;
    try {
      template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
      db = await createTestDbFromTemplate(template, { poolSize: CLIENTS + 2 });
      const appDb = db;
      const outbox = createOutbox(appDb, { unhandled: "settle" }); // as the server's
      await syncPermissions(appDb);
      const env = benchEnv({ OIDC_RATE_LIMIT_ENABLED: "false" });
      const { services, oidc } = composeServices(appDb, outbox, env);
      await oidc.start();
      const server = await buildServer({ env, db: appDb, services, oidc, logger: false });
      app = server;
      await server.listen({ port: 0, host: "127.0.0.1" });
      const ours = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;

      const { email, token: sessionToken } = await benchTenantAdmin(
        appDb,
        outbox,
        services,
        "oidc-peer-bench@example.com",
      );
      const { client, clientSecret } = await oidc.clients.create({
        name: "Bench RP",
        redirectUris: [REDIRECT_URI],
        // First-party: authorize answers with a code, no consent page (the peer's grants are made directly too).
        isFirstParty: true,
      });
      if (!clientSecret) throw new Error("expected a confidential client");
      const oursSide: Side = {
        name: "ours",
        tokenUrl: `${ours}/oidc/token`,
        userinfoUrl: `${ours}/oidc/userinfo`,
        basic: basicOf(client.clientId, clientSecret),
        issueCode: async () => {
          const { query, verifier } = authorizeQuery(client.clientId, SCOPE);
          const res = await fetch(`${ours}/oidc/authorize?${query}`, {
            headers: { cookie: `session=${sessionToken}` },
            redirect: "manual",
          });
          return { code: await codeOf("ours", res), verifier };
        },
        authorize: async () => {
          const { query } = authorizeQuery(client.clientId, AUTHORIZE_SCOPE);
          const res = await fetch(`${ours}/oidc/authorize?${query}`, {
            headers: { cookie: `session=${sessionToken}` },
            redirect: "manual",
          });
          await codeOf("ours", res);
        },
      };
      peer = await startPeer(email, { name: "in memory" });
      // The fair peer: node-oidc-provider on its own database of the same PostgreSQL server, same pool size.
      peerDatabase = `oidc_peer_${randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${peerDatabase}`);
      await admin.end();
      const peerUrl = new URL(adminUrl);
      peerUrl.pathname = `/${peerDatabase}`;
      peerPool = new pg.Pool({ connectionString: peerUrl.toString(), max: CLIENTS + 2 });
      // An idle connection's error (the database dropped at the end) must not end the process.
      peerPool.on("error", () => {});
      await createPeerTable(peerPool);
      peerPg = await startPeer(email, { name: "PostgreSQL", pool: peerPool });
      const peers = [peer.side, peerPg.side];
      const sides = [oursSide, ...peers];

      /** Codes for a round, issued before it (untimed): `count` per client. */
      const issueCodes = async (side: Side, count: number) =>
        Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            const codes: Issued[] = [];
            for (let i = 0; i < count; i++) codes.push(await side.issueCode());
            return codes;
          }),
        );
      // Codes live 60 s on our side: a round issues and exchanges them in chunks, timing only the exchanges.
      const CODE_CHUNK = 25;
      const codeRound = async (side: Side, count: number): Promise<Round> => {
        const parts: Round[] = [];
        for (let done = 0; done < count; done += CODE_CHUNK) {
          const size = Math.min(CODE_CHUNK, count - done);
          const codes = await issueCodes(side, size);
          parts.push(
            await timed(size, async (c, i) => {
              const issued = codes[c]?.[i];
              if (!issued) throw new Error("no code");
              await exchange(side, issued);
            }),
          );
        }
        const ops = CLIENTS * count;
        const secondsTotal = parts.reduce((sum, part) => sum + part.seconds, 0);
        return {
          opsPerSecond: ops / secondsTotal,
          seconds: secondsTotal,
          latenciesMs: parts.flatMap((part) => part.latenciesMs),
          cpuMsPerOp: parts.reduce((sum, part) => sum + part.cpuMsPerOp * part.latenciesMs.length, 0) / ops,
        };
      };
      const chains = new Map<Side, string[]>();
      const accessTokens = new Map<Side, string[]>();
      for (const side of sides) {
        const codes = await issueCodes(side, 2);
        const first = await Promise.all(codes.map((pair) => exchange(side, pair[0] as Issued)));
        chains.set(
          side,
          first.map((body) => body.refresh_token ?? ""),
        );
        const second = await Promise.all(codes.map((pair) => exchange(side, pair[1] as Issued)));
        accessTokens.set(
          side,
          second.map((body) => body.access_token),
        );
      }
      const refreshRound = (side: Side, count: number) =>
        timed(count, async (c) => {
          const chain = chains.get(side) ?? [];
          const body = await postToken(side, { grant_type: "refresh_token", refresh_token: chain[c] ?? "" });
          chain[c] = body.refresh_token ?? "";
        });
      const userinfoRound = (side: Side, count: number) =>
        timed(count, async (c) => {
          await userinfo(side, accessTokens.get(side)?.[c] ?? "");
        });

      const authorizeRound = (side: Side, count: number) => timed(count, () => side.authorize());

      // BENCH_WORKLOADS=authorize,refresh (names below) runs only those, for a short run on a busy machine.
      const chosen = (process.env.BENCH_WORKLOADS ?? "").split(",").filter(Boolean);
      const workloads = [
        { name: "code", label: "code exchange (POST token, authorization_code + PKCE)", round: codeRound },
        {
          name: "refresh",
          label: "refresh grant (POST token, refresh_token, rotating)",
          round: refreshRound,
        },
        { name: "userinfo", label: "userinfo (GET, bearer)", round: userinfoRound },
        {
          name: "authorize",
          label: "authorize with a session (GET, first-party, code issued; PKCE, state, nonce)",
          round: authorizeRound,
        },
      ].filter((workload) => chosen.length === 0 || chosen.includes(workload.name));
      const figures: Figure[] = [];
      const detail: BenchTable["rows"] = [];
      for (const workload of workloads) {
        for (const side of sides) await workload.round(side, warmup);
        const runs = new Map<Side, Round[]>(sides.map((side) => [side, []]));
        for (let index = 0; index < ROUNDS; index++) {
          // Rotating order: no side always runs first (warm caches) or last (a tired machine).
          const order = sides.map((_, k) => sides[(k + index) % sides.length] as Side);
          for (const side of order) runs.get(side)?.push(await workload.round(side, perClient));
        }
        const summary = (side: Side) => {
          const sideRuns = runs.get(side) ?? [];
          const run = medianRun(sideRuns);
          return { run, cpu: median(sideRuns.map((r) => r.cpuMsPerOp)), rounds: sideRuns };
        };
        const o = summary(oursSide);
        for (const peerSide of peers) {
          const p = summary(peerSide);
          // Each round's own ratio: the target counts as met when the lowest of them meets it.
          const perRound = o.rounds.map(
            (round, k) => round.opsPerSecond / (p.rounds[k]?.opsPerSecond ?? Number.NaN),
          );
          figures.push(
            {
              case: `${workload.label}: ours (PostgreSQL) vs ${peerSide.name}`,
              ours: `${Math.round(o.run.opsPerSecond)}/s`,
              baseline: `${Math.round(p.run.opsPerSecond)}/s`,
              ratio: o.run.opsPerSecond / p.run.opsPerSecond,
              spread: [Math.min(...perRound), Math.max(...perRound)],
              better: "higher",
            },
            {
              case: `${workload.label}: CPU ms per operation (this process, load included) vs ${peerSide.name}`,
              ours: o.cpu.toFixed(2),
              baseline: p.cpu.toFixed(2),
              ratio: o.cpu / p.cpu,
              better: "lower",
            },
          );
        }
        for (const side of sides) {
          const s = summary(side);
          detail.push({
            workload: workload.label,
            side: side.name,
            "ops/s (median round)": Math.round(s.run.opsPerSecond),
            "p50 ms": percentile(s.run.latenciesMs, 50).toFixed(2),
            "p99 ms": percentile(s.run.latenciesMs, 99).toFixed(2),
            "CPU ms/op": s.cpu.toFixed(2),
          });
        }
      }
      return {
        name: `OpenID provider vs node-oidc-provider 9 (in memory and on PostgreSQL) over HTTP, ${CLIENTS} clients × ${perClient} per round, ${ROUNDS} rounds in rotating order (ours on PostgreSQL ${new URL(adminUrl).host}, pool ${CLIENTS + 2}; rate limits off)`,
        rows: [],
        figures,
        tables: [{ title: "Per side (median round)", rows: detail }],
      };
    } finally {
      await peer?.close().catch(() => {});
      await peerPg?.close().catch(() => {});
      await peerPool?.end().catch(() => {});
      if (peerDatabase) {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${peerDatabase} WITH (FORCE)`).catch(() => {});
        await admin.end();
      }
      await app?.close().catch(() => {});
      await db?.close().catch(() => {});
      if (template) await dropTemplate(template);
    }
  },
};
