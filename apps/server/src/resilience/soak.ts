import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startCluster } from "./cluster";
import { compareHeapSnapshots } from "./heap-diff";
import { connectInspector } from "./inspector";

/*
 * `npm run soak`: does an instance's memory level off under a sustained mixed load, or keep growing?
 * The cluster of the resilience test (instances as `npm start` runs them, behind nginx, on PostgreSQL
 * through PgBouncer, with Redis), 8 clients signing in, refreshing tokens, asking GraphQL, posting
 * payments and reading reports for SOAK_SECONDS (default 240). Every 5 s: each instance's RSS
 * (/proc/<pid>/status) and V8 heap in use (the inspector). After the warm-up (SOAK_WARMUP_SECONDS,
 * default 60) and at the end: the heap after a full GC and (unless SOAK_SNAPSHOTS=0) a heap snapshot
 * of each instance, then what grew between the two and what holds it. SOAK_PLAIN_NODE=1 runs the
 * instances as plain `node main.mjs`, without npm start's allocator settings and flags, to compare. Needs DATABASE_URL (an administrator's URL), nginx,
 * redis-server and pgbouncer; writes .tmp/soak/report.txt (.tmp/$SOAK_OUT/) and the snapshots beside it.
 */

const adminUrl = process.env.DATABASE_URL ?? "";
if (!adminUrl.startsWith("postgres")) throw new Error("DATABASE_URL must name PostgreSQL (an administrator)");
const SECONDS = Number(process.env.SOAK_SECONDS ?? 240);
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 60);
const INSTANCES = Number(process.env.SOAK_INSTANCES ?? 3);
// A snapshot costs the instance a pause and RSS of its own (the serializer's): SOAK_SNAPSHOTS=0 for the RSS curve alone.
const SNAPSHOTS = process.env.SOAK_SNAPSHOTS !== "0";
const CLIENTS = 8;
const OUT = path.resolve(import.meta.dirname, "../../../../.tmp", process.env.SOAK_OUT ?? "soak");
const TODAY = "2026-11-22";
const PASSWORD = "Tenant-Passw0rd!";
const CALLBACK = "http://127.0.0.1/callback";

mkdirSync(OUT, { recursive: true });
const lines: string[] = [];
const say = (line: string) => {
  console.info(line);
  lines.push(line);
};

const PLAIN_NODE = process.env.SOAK_PLAIN_NODE === "1";
const cluster = await startCluster({
  instances: INSTANCES,
  adminUrl,
  pgbouncer: true,
  inspect: true,
  plainNode: PLAIN_NODE,
});
try {
  let token = "";
  const api = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${cluster.base}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const login = async (who: string, password: string) => {
    const res = await fetch(`${cluster.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: who, password }),
    });
    return {
      status: res.status,
      token: /session=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? "",
    };
  };

  token = (await login(ADMIN_EMAIL, ADMIN_PASSWORD)).token;
  const email = `owner-${randomUUID().slice(0, 8)}@soak.test`;
  const client = await api("POST", "/oidc-clients", {
    name: "Soak app",
    redirectUris: [CALLBACK],
    // Plays the accountant app (first-party: no consent page between authorize and the callback).
    isFirstParty: true,
    isPublic: true,
    requirePkce: true,
    applicationType: "native",
    scopes: ["openid", "offline_access"],
  });
  const clientId: string = client.body.client.clientId;
  await api("POST", "/tenants", {
    name: "Soak LLC",
    admin: { email, firstName: "Ona", lastName: "Karimova", password: PASSWORD },
  });
  token = (await login(email, PASSWORD)).token;
  await api("PUT", "/tenant/currencies", { codes: ["UZS"] });
  const accountId: string = (await api("POST", "/finance/accounts", { name: "Cash", currency: "UZS" })).body
    .id;

  /** A refresh token for the soak's app: the code flow with PKCE, through nginx. */
  const refreshTokenOf = async (): Promise<string> => {
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${cluster.base}/oidc/authorize`);
    for (const [name, value] of Object.entries({
      response_type: "code",
      client_id: clientId,
      redirect_uri: CALLBACK,
      scope: "openid offline_access",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      state: randomUUID(),
    }))
      authorize.searchParams.set(name, value);
    const redirect = await fetch(authorize, { headers: { cookie: `session=${token}` }, redirect: "manual" });
    const code = new URL(redirect.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const tokens = await fetch(`${cluster.base}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: CALLBACK,
        client_id: clientId,
        code_verifier: verifier,
      }),
    });
    return ((await tokens.json()) as { refresh_token: string }).refresh_token;
  };
  const chains = await Promise.all(Array.from({ length: CLIENTS }, refreshTokenOf));

  const inspectors = await Promise.all(
    cluster.instances.map((instance) => connectInspector(instance.inspectorPort ?? 0)),
  );
  const started = Date.now();
  const samples: Array<{ seconds: number; rss: number[]; heap: number[] }> = [];
  const sample = async () => {
    samples.push({
      seconds: Math.round((Date.now() - started) / 1000),
      rss: cluster.instances.map((instance) => cluster.rssMiB(instance)),
      heap: await Promise.all(inspectors.map((inspector) => inspector.heapUsedMiB())),
    });
  };
  await sample();
  const sampler = setInterval(() => void sample(), 5_000);

  const statuses = new Map<string, number>();
  const count = (kind: string, status: number) =>
    statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
  const until = started + SECONDS * 1000;
  let step = 0;
  const worker = async (index: number) => {
    while (Date.now() < until) {
      step += 1;
      const kind =
        step % 20 === 0
          ? "login"
          : step % 10 === 5
            ? "refresh"
            : ((["graphql", "posting", "report", "graphql"] as const)[step % 4] ?? "graphql");
      try {
        if (kind === "refresh") {
          const res = await fetch(`${cluster.base}/oidc/token`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "refresh_token",
              refresh_token: chains[index] ?? "",
              client_id: clientId,
            }),
          });
          chains[index] =
            ((await res.json()) as { refresh_token?: string }).refresh_token ?? chains[index] ?? "";
          count(kind, res.status);
        } else if (kind === "login") count(kind, (await login(email, PASSWORD)).status);
        else if (kind === "graphql")
          count(
            kind,
            (await api("POST", "/api/graphql", { query: "{ me { email } payments(limit: 5) { total } }" }))
              .status,
          );
        else if (kind === "posting")
          count(
            kind,
            (
              await api(
                "POST",
                "/finance/payments",
                { accountId, amount: "100", date: TODAY },
                { "idempotency-key": randomUUID() },
              )
            ).status,
          );
        else
          count(
            kind,
            (await api("GET", `/finance/reports/income-statement?startDate=${TODAY}&endDate=${TODAY}`))
              .status,
          );
      } catch {
        count(kind, 0);
      }
    }
  };

  // All instances at once: one after another, each pausing its instance for ~30 s under load, the
  // last "warm" snapshot fell near the end of the run.
  const snapshotAll = async (label: string) => {
    const taken = await Promise.all(
      inspectors.map(async (inspector, index) => {
        const afterGc = await inspector.heapAfterGcMiB();
        const file = path.join(OUT, `instance-${index + 1}-${label}.heapsnapshot`);
        if (SNAPSHOTS) await inspector.snapshot(file);
        return { afterGc, file };
      }),
    );
    const files = SNAPSHOTS ? taken.map((one) => one.file) : [];
    const afterGc = taken.map((one) => one.afterGc);
    say(
      `${label} (${Math.round((Date.now() - started) / 1000)} s): heap after a full GC ${afterGc.map((m) => m.toFixed(1)).join("/")} MiB, RSS ${cluster.instances.map((i) => cluster.rssMiB(i).toFixed(0)).join("/")} MiB`,
    );
    return { files, afterGc };
  };

  const load = Promise.all(Array.from({ length: CLIENTS }, (_, index) => worker(index)));
  await sleep(WARMUP_SECONDS * 1000);
  const warm = await snapshotAll("warm");
  await load;
  clearInterval(sampler);
  await sample();
  const end = await snapshotAll("end");

  say(
    `soak ${SECONDS} s, ${INSTANCES} instances${PLAIN_NODE ? " (plain node, without npm start's settings)" : ""}, ${CLIENTS} clients: ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(", ")}`,
  );
  say("seconds | RSS MiB per instance | heap in use MiB per instance");
  for (const s of samples)
    say(
      `${s.seconds} | ${s.rss.map((m) => m.toFixed(0)).join("/")} | ${s.heap.map((m) => m.toFixed(0)).join("/")}`,
    );
  const half = samples.filter((s) => s.seconds >= SECONDS / 2);
  const last = samples.at(-1);
  if (half[0] && last)
    say(
      `RSS growth over the second half (${half[0].seconds} → ${last.seconds} s): ${last.rss.map((m, i) => (m - (half[0]?.rss[i] ?? 0)).toFixed(0)).join("/")} MiB; heap after GC warm → end: ${end.afterGc.map((m, i) => `${(warm.afterGc[i] ?? 0).toFixed(1)} → ${m.toFixed(1)}`).join(", ")} MiB`,
    );
  for (const [index, file] of end.files.entries()) {
    say(`\ninstance ${index + 1}, what grew between the two snapshots:`);
    say(compareHeapSnapshots(warm.files[index] ?? "", file));
  }
  for (const inspector of inspectors) inspector.close();
} finally {
  writeFileSync(path.join(OUT, "report.txt"), `${lines.join("\n")}\n`);
  await cluster.stop();
}
