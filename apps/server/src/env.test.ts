import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEV_CRYPTO_KEY_FILE,
  ENV_VARIABLES,
  EnvError,
  loadEnv,
  loadRuntimeEnv,
  resolveDevCryptoKey,
} from "./env";

const KEY = "k".repeat(32);
const PRODUCTION = {
  NODE_ENV: "production",
  OIDC_CRYPTO_KEY: KEY,
  OIDC_ISSUER_URL: "https://id.example.com",
};

/** The EnvError thrown for `source`; fails the test if parsing succeeds. */
const envError = (source: Record<string, string | undefined>): EnvError => {
  try {
    loadEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error("expected loadEnv to throw EnvError");
};

describe("loadEnv defaults", () => {
  it("gives the embedded development configuration for an empty environment", () => {
    const env = loadEnv({});
    expect(env).toEqual({
      nodeEnv: "development",
      isProduction: false,
      isDevelopment: true,
      isTest: false,
      server: { host: "127.0.0.1", port: 3000, trustProxy: false, shutdownDrainDelayMs: 0 },
      database: { url: undefined, isEmbedded: true, directUrl: undefined, poolSize: 10 },
      dataDir: path.resolve(".data"),
      uploads: { driver: "local", dir: path.resolve(".data/uploads") },
      redis: { url: undefined },
      log: { level: "info" },
      admin: undefined,
      oidc: {
        issuerUrl: "http://localhost:3000",
        cryptoKey: undefined,
        accessTokenLifetime: 3600,
        idTokenLifetime: 3600,
        refreshTokenLifetime: 2_592_000,
        keyPropagationSeconds: 120,
        allowedOrigins: [],
      },
      rateLimit: { enabled: true, windowSeconds: 900, authorize: 100, token: 50, userinfo: 200, keys: 500 },
      apiRateLimit: { limit: 1000, windowSeconds: 60 },
      graphql: {
        graphiql: true,
        rateLimit: 1000,
        rateLimitWindowSeconds: 60,
        introspection: "public",
        concurrencyPerCaller: 4,
        concurrencyPerTenant: 6,
        socketRecheckMs: 3_000,
      },
      warnings: [expect.stringContaining("OIDC_ISSUER_URL is not set")],
    });
  });

  it("turns GraphiQL off in production unless GRAPHIQL_ENABLED says otherwise", () => {
    expect(loadEnv(PRODUCTION).graphql.graphiql).toBe(false);
    expect(loadEnv({ ...PRODUCTION, GRAPHIQL_ENABLED: "true" }).graphql.graphiql).toBe(true);
    expect(loadEnv({ GRAPHIQL_ENABLED: "false" }).graphql.graphiql).toBe(false);
    expect(
      loadEnv({ GRAPHQL_RATE_LIMIT: "50", GRAPHQL_RATE_LIMIT_WINDOW_SECONDS: "900" }).graphql,
    ).toMatchObject({
      rateLimit: 50,
      rateLimitWindowSeconds: 900,
    });
  });

  it("asks for a signed-in caller to read the GraphQL schema in production unless GRAPHQL_INTROSPECTION says otherwise", () => {
    expect(loadEnv(PRODUCTION).graphql.introspection).toBe("signed-in");
    expect(loadEnv({ ...PRODUCTION, GRAPHQL_INTROSPECTION: "public" }).graphql.introspection).toBe("public");
    expect(loadEnv({ GRAPHQL_INTROSPECTION: "signed-in" }).graphql.introspection).toBe("signed-in");
    expect(() => loadEnv({ GRAPHQL_INTROSPECTION: "everyone" })).toThrow(
      /GRAPHQL_INTROSPECTION: must be one of public, signed-in/,
    );
  });

  it("bounds each caller's concurrent GraphQL service calls (GRAPHQL_CONCURRENCY_PER_CALLER)", () => {
    expect(loadEnv({ GRAPHQL_CONCURRENCY_PER_CALLER: "2" }).graphql.concurrencyPerCaller).toBe(2);
    for (const bad of ["0", "-1", "1.5", "1001", "many"]) {
      expect(() => loadEnv({ GRAPHQL_CONCURRENCY_PER_CALLER: bad })).toThrow(
        /GRAPHQL_CONCURRENCY_PER_CALLER/,
      );
    }
  });

  it("bounds each organization's concurrent GraphQL service calls (GRAPHQL_CONCURRENCY_PER_TENANT)", () => {
    expect(loadEnv({}).graphql.concurrencyPerTenant).toBe(6);
    expect(loadEnv({ GRAPHQL_CONCURRENCY_PER_TENANT: "3" }).graphql.concurrencyPerTenant).toBe(3);
    for (const bad of ["0", "-1", "1.5", "1001", "many"]) {
      expect(() => loadEnv({ GRAPHQL_CONCURRENCY_PER_TENANT: bad })).toThrow(
        /GRAPHQL_CONCURRENCY_PER_TENANT/,
      );
    }
  });

  it("drains for SHUTDOWN_DRAIN_DELAY_MS on SIGTERM: 5 s in production, none elsewhere", () => {
    expect(loadEnv({}).server.shutdownDrainDelayMs).toBe(0);
    expect(loadEnv({ NODE_ENV: "test" }).server.shutdownDrainDelayMs).toBe(0);
    expect(loadEnv(PRODUCTION).server.shutdownDrainDelayMs).toBe(5_000);
    expect(loadEnv({ SHUTDOWN_DRAIN_DELAY_MS: "250" }).server.shutdownDrainDelayMs).toBe(250);
    for (const bad of ["-1", "1.5", "600001", "soon"]) {
      expect(() => loadEnv({ SHUTDOWN_DRAIN_DELAY_MS: bad })).toThrow(/SHUTDOWN_DRAIN_DELAY_MS/);
    }
  });

  it("re-checks open sockets every GRAPHQL_SOCKET_RECHECK_MS (3 s by default)", () => {
    expect(loadEnv({}).graphql.socketRecheckMs).toBe(3_000);
    expect(loadEnv({ GRAPHQL_SOCKET_RECHECK_MS: "500" }).graphql.socketRecheckMs).toBe(500);
    for (const bad of ["0", "99", "60001", "often"]) {
      expect(() => loadEnv({ GRAPHQL_SOCKET_RECHECK_MS: bad })).toThrow(/GRAPHQL_SOCKET_RECHECK_MS/);
    }
  });

  it("reads the REST and tRPC rate limit; 0 turns it off", () => {
    expect(loadEnv({ API_RATE_LIMIT: "50", API_RATE_LIMIT_WINDOW_SECONDS: "10" }).apiRateLimit).toEqual({
      limit: 50,
      windowSeconds: 10,
    });
    expect(loadEnv({ API_RATE_LIMIT: "0" }).apiRateLimit.limit).toBe(0);
    expect(() => loadEnv({ API_RATE_LIMIT: "-1" })).toThrow(/API_RATE_LIMIT/);
    expect(() => loadEnv({ API_RATE_LIMIT_WINDOW_SECONDS: "0" })).toThrow(/API_RATE_LIMIT_WINDOW_SECONDS/);
  });

  it("derives the default issuer from PORT", () => {
    expect(loadEnv({ PORT: "8080" }).oidc.issuerUrl).toBe("http://localhost:8080");
  });

  it("listens on all interfaces in production", () => {
    const env = loadEnv(PRODUCTION);
    expect(env.isProduction).toBe(true);
    expect(env.server.host).toBe("0.0.0.0");
    expect(env.warnings).toEqual([]);
  });

  it("is silent under NODE_ENV=test unless LOG_LEVEL says otherwise", () => {
    expect(loadEnv({ NODE_ENV: "test" }).log.level).toBe("silent");
    expect(loadEnv({ NODE_ENV: "test", LOG_LEVEL: "debug" }).log.level).toBe("debug");
  });

  it("treats whitespace-only values as unset and trims the rest", () => {
    const env = loadEnv({ PORT: "   ", HOST: " \t", NODE_ENV: " test ", LOG_LEVEL: "warn\n" });
    expect(env.server.port).toBe(3000);
    expect(env.server.host).toBe("127.0.0.1");
    expect(env.nodeEnv).toBe("test");
    expect(env.log.level).toBe("warn");
  });

  it("keeps spaces inside ADMIN_PASSWORD", () => {
    expect(loadEnv({ ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: " pass word " }).admin).toEqual({
      email: "root@example.com",
      password: " pass word ",
    });
  });

  it("reads every variable", () => {
    const env = loadEnv({
      ...PRODUCTION,
      PORT: "8443",
      HOST: "10.0.0.1",
      TRUST_PROXY: "1",
      DATABASE_URL: "postgresql://app:secret@db:5432/hisob",
      DATA_DIR: "/var/lib/hisob",
      REDIS_URL: "rediss://cache:6380",
      LOG_LEVEL: "warn",
      OIDC_ACCESS_TOKEN_LIFETIME: "600",
      OIDC_ID_TOKEN_LIFETIME: "900",
      OIDC_REFRESH_TOKEN_LIFETIME: "86400",
      OIDC_RATE_LIMIT_ENABLED: "false",
      OIDC_RATE_LIMIT_AUTHORIZE: "10",
      OIDC_RATE_LIMIT_TOKEN: "20",
      OIDC_RATE_LIMIT_USERINFO: "30",
      OIDC_RATE_LIMIT_KEYS: "40",
      OIDC_RATE_LIMIT_WINDOW_SECONDS: "60",
    });
    expect(env.server).toEqual({ host: "10.0.0.1", port: 8443, trustProxy: 1, shutdownDrainDelayMs: 5_000 });
    expect(env.database).toEqual({
      url: "postgresql://app:secret@db:5432/hisob",
      isEmbedded: false,
      directUrl: undefined,
      poolSize: 10,
    });
    expect(env.dataDir).toBe("/var/lib/hisob");

    // Behind a transaction-pooling PgBouncer: DATABASE_URL is the pooler, DATABASE_DIRECT_URL PostgreSQL.
    const pooled = loadEnv({
      DATABASE_URL: "postgres://app@pgbouncer:6432/hisob",
      DATABASE_DIRECT_URL: "postgres://app@db:5432/hisob",
      OIDC_CRYPTO_KEY: "k".repeat(40),
      OIDC_ISSUER_URL: "https://id.example.com",
    });
    expect(pooled.database.directUrl).toBe("postgres://app@db:5432/hisob");
    expect(() => loadEnv({ DATABASE_DIRECT_URL: "postgres://app@db:5432/hisob" })).toThrow(
      /DATABASE_URL: is required when DATABASE_DIRECT_URL is set/,
    );
    expect(() => loadEnv({ DATABASE_URL: "postgres://p/h", DATABASE_DIRECT_URL: "mysql://db/h" })).toThrow(
      /DATABASE_DIRECT_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
    expect(env.redis.url).toBe("rediss://cache:6380");
    expect(env.log.level).toBe("warn");
    expect(env.oidc).toMatchObject({
      cryptoKey: KEY,
      accessTokenLifetime: 600,
      idTokenLifetime: 900,
      refreshTokenLifetime: 86400,
    });
    expect(env.rateLimit).toEqual({
      enabled: false,
      windowSeconds: 60,
      authorize: 10,
      token: 20,
      userinfo: 30,
      keys: 40,
    });
  });

  it("resolves a relative DATA_DIR against the working directory", () => {
    expect(loadEnv({ DATA_DIR: "tmp/data" }).uploads).toEqual({
      driver: "local",
      dir: path.resolve("tmp/data/uploads"),
    });
    expect(loadEnv({ UPLOADS_DIR: "/srv/files" }).uploads).toEqual({ driver: "local", dir: "/srv/files" });
    expect(loadEnv({ DATA_DIR: "tmp/data" }).dataDir).toBe(path.resolve("tmp/data"));
  });

  it.each([
    ["true", true],
    ["TRUE", true],
    ["1", true],
    ["false", false],
    ["0", false],
  ])("accepts %j as a boolean", (raw, expected) => {
    expect(loadEnv({ OIDC_RATE_LIMIT_ENABLED: raw })).toMatchObject({ rateLimit: { enabled: expected } });
  });

  it.each([
    ["false", false],
    ["0", false],
    ["true", 1],
    ["TRUE", 1],
    ["1", 1],
    ["2", 2],
    ["127.0.0.1", ["127.0.0.1"]],
    ["10.0.0.0/8, ::1 ,fd00::/8", ["10.0.0.0/8", "::1", "fd00::/8"]],
    ["loopback,uniquelocal", ["loopback", "uniquelocal"]],
  ])("reads TRUST_PROXY=%j as %j (true is one proxy, never every address)", (raw, expected) => {
    expect(loadEnv({ TRUST_PROXY: raw }).server.trustProxy).toEqual(expected);
  });

  it.each([
    "0.0.0.0/0",
    "::/0",
    "10.0.0.0/8,0.0.0.0/0",
    "127.0.0.1, ::/0",
    "0.0.0.0/00",
    "203.0.113.7/0",
    "0.0.0.0/1,128.0.0.0/1",
    "::ffff:0:0/96",
    "::ffff:0.0.0.0/96",
    "2000::/3",
  ])("refuses TRUST_PROXY=%s at start: it trusts every client, so any client could choose its address", (raw) => {
    expect(() => loadEnv({ TRUST_PROXY: raw })).toThrow(
      /TRUST_PROXY: trusts every client address as a proxy, so any client could name its own address/,
    );
  });

  it.each([
    "10.0.0.0/8",
    "0.0.0.0/1",
    "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7",
    "loopback,linklocal,uniquelocal",
  ])("accepts TRUST_PROXY=%s: it trusts some clients, not every one", (raw) => {
    expect(() => loadEnv({ TRUST_PROXY: raw })).not.toThrow();
  });

  it("normalises the issuer URL", () => {
    expect(loadEnv({ OIDC_ISSUER_URL: "https://ID.Example.com/" }).oidc.issuerUrl).toBe(
      "https://id.example.com",
    );
    expect(loadEnv({ OIDC_ISSUER_URL: "https://example.com/tenants//" }).oidc.issuerUrl).toBe(
      "https://example.com/tenants",
    );
  });

  it("warns about an http issuer in production", () => {
    const env = loadEnv({ ...PRODUCTION, OIDC_ISSUER_URL: "http://id.example.com" });
    expect(env.warnings).toEqual([expect.stringContaining("https")]);
  });

  it("parses, trims, normalises and de-duplicates allowed origins", () => {
    const env = loadEnv({
      OIDC_ALLOWED_ORIGINS: " https://app.example.com , http://localhost:5173,https://APP.example.com:443/,",
    });
    expect(env.oidc.allowedOrigins).toEqual(["https://app.example.com", "http://localhost:5173"]);
  });

  it("reads process.env when no source is given", () => {
    // Blank out the machine's own settings (a CI DATABASE_URL would otherwise demand the OIDC pair).
    for (const name of ENV_VARIABLES) vi.stubEnv(name, undefined);
    vi.stubEnv("PORT", "4321");
    try {
      expect(loadEnv().server.port).toBe(4321);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("loadEnv bad values", () => {
  it.each([
    ["NODE_ENV", "prod", 'must be one of development, test, production (got "prod")'],
    ["PORT", "abc", 'must be an integer between 1 and 65535 (got "abc")'],
    ["PORT", "0", 'must be an integer between 1 and 65535 (got "0")'],
    ["PORT", "65536", 'must be an integer between 1 and 65535 (got "65536")'],
    ["PORT", "80.5", 'must be an integer between 1 and 65535 (got "80.5")'],
    [
      "TRUST_PROXY",
      "yes",
      'must be false, true (one proxy), a number of proxy hops, or comma-separated proxy addresses or CIDRs (e.g. 10.0.0.0/8,::1) (got "yes")',
    ],
    ["TRUST_PROXY", "11", 'must be at most 10 proxy hops (got "11")'],
    [
      "TRUST_PROXY",
      "10.0.0.0/33",
      'must be false, true (one proxy), a number of proxy hops, or comma-separated proxy addresses or CIDRs (e.g. 10.0.0.0/8,::1) (got "10.0.0.0/33")',
    ],
    [
      "DATABASE_URL",
      "mysql://db/hisob",
      'must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@host:5432/hisob (got "mysql://db/hisob")',
    ],
    [
      "DATABASE_URL",
      "not a url",
      "must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@host:5432/hisob (got a value that is not a URL)",
    ],
    [
      "REDIS_URL",
      "http://cache:6379",
      'must be a redis:// or rediss:// URL, e.g. redis://localhost:6379 (got "http://cache:6379")',
    ],
    ["LOG_LEVEL", "verbose", 'must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")'],
    ["OIDC_CRYPTO_KEY", "too-short", "must be at least 32 characters (got 9)"],
    [
      "OIDC_ISSUER_URL",
      "ftp://id.example.com",
      'must be an http:// or https:// URL without query or fragment, e.g. https://id.example.com (got "ftp://id.example.com")',
    ],
    [
      "OIDC_ISSUER_URL",
      "https://id.example.com/?tenant=1",
      'must be an http:// or https:// URL without query or fragment, e.g. https://id.example.com (got "https://id.example.com/?tenant=1")',
    ],
    ["OIDC_ACCESS_TOKEN_LIFETIME", "-1", 'must be an integer between 1 and 2147483647 (got "-1")'],
    ["OIDC_ID_TOKEN_LIFETIME", "1h", 'must be an integer between 1 and 2147483647 (got "1h")'],
    ["OIDC_REFRESH_TOKEN_LIFETIME", "0", 'must be an integer between 1 and 2147483647 (got "0")'],
    ["DATABASE_POOL_SIZE", "0", 'must be an integer between 1 and 1000 (got "0")'],
    ["OIDC_KEY_PROPAGATION_SECONDS", "86401", 'must be an integer between 0 and 86400 (got "86401")'],
    ["OIDC_KEY_PROPAGATION_SECONDS", "2m", 'must be an integer between 0 and 86400 (got "2m")'],
    ["OIDC_RATE_LIMIT_ENABLED", "on", 'must be one of true, false, 1, 0 (got "on")'],
    ["OIDC_RATE_LIMIT_AUTHORIZE", "many", 'must be an integer between 1 and 2147483647 (got "many")'],
    ["OIDC_RATE_LIMIT_TOKEN", "9999999999", 'must be an integer between 1 and 2147483647 (got "9999999999")'],
    ["OIDC_RATE_LIMIT_USERINFO", "1e3", 'must be an integer between 1 and 2147483647 (got "1e3")'],
    ["OIDC_RATE_LIMIT_KEYS", "0x10", 'must be an integer between 1 and 2147483647 (got "0x10")'],
    ["OIDC_RATE_LIMIT_WINDOW_SECONDS", "15m", 'must be an integer between 1 and 2147483647 (got "15m")'],
    [
      "OIDC_ALLOWED_ORIGINS",
      "https://ok.example.com, app.example.com, https://example.com/path, *",
      'must be comma-separated origins like https://app.example.com (scheme://host[:port], no path); invalid: "app.example.com", "https://example.com/path", "*"',
    ],
  ])("%s=%j", (variable, value, message) => {
    // The OIDC pair is set so a bad DATABASE_URL reports only itself.
    const error = envError({
      OIDC_CRYPTO_KEY: KEY,
      OIDC_ISSUER_URL: "https://id.example.com",
      [variable]: value,
    });
    expect(error.issues).toEqual([{ variable, message }]);
    expect(error.message).toContain(`${variable}: ${message}`);
  });

  it("validates ADMIN_EMAIL", () => {
    expect(envError({ ADMIN_EMAIL: "root", ADMIN_PASSWORD: "secret-pass" }).issues).toEqual([
      { variable: "ADMIN_EMAIL", message: 'must be an email address (got "root")' },
    ]);
  });

  it("lists every bad variable at once, in schema order", () => {
    const error = envError({
      REDIS_URL: "nope",
      PORT: "abc",
      NODE_ENV: "staging",
      OIDC_RATE_LIMIT_TOKEN: "x",
    });
    expect(error.issues.map((issue) => issue.variable)).toEqual([
      "NODE_ENV",
      "PORT",
      "REDIS_URL",
      "OIDC_RATE_LIMIT_TOKEN",
    ]);
    expect(error.message.split("\n")).toEqual([
      "Invalid environment configuration:",
      '  NODE_ENV: must be one of development, test, production (got "staging")',
      '  PORT: must be an integer between 1 and 65535 (got "abc")',
      "  REDIS_URL: must be a redis:// or rediss:// URL, e.g. redis://localhost:6379 (got a value that is not a URL)",
      '  OIDC_RATE_LIMIT_TOKEN: must be an integer between 1 and 2147483647 (got "x")',
    ]);
  });

  it("never echoes secrets", () => {
    const secret = "hunter2-hunter2";
    const error = envError({
      OIDC_CRYPTO_KEY: secret,
      DATABASE_URL: `mysql://app:${secret}@db/hisob`,
      ADMIN_PASSWORD: secret,
    });
    expect(error.message).not.toContain(secret);
    expect(error.message).toContain('(got "mysql://app:***@db/hisob")');
  });

  it("shortens long values", () => {
    const error = envError({ PORT: "9".repeat(500) });
    expect(error.issues[0]?.message).toMatch(/\(got "9{77}\.\.\."\)$/);
  });
});

describe("loadEnv requirements", () => {
  it("requires OIDC_CRYPTO_KEY and OIDC_ISSUER_URL in production", () => {
    expect(envError({ NODE_ENV: "production" }).issues).toEqual([
      { variable: "OIDC_CRYPTO_KEY", message: "is required when NODE_ENV=production" },
      { variable: "OIDC_ISSUER_URL", message: "is required when NODE_ENV=production" },
    ]);
  });

  it("requires them when DATABASE_URL is set, whatever NODE_ENV", () => {
    for (const NODE_ENV of ["development", "test"]) {
      const error = envError({ NODE_ENV, DATABASE_URL: "postgres://localhost/hisob" });
      expect(error.issues).toEqual([
        { variable: "OIDC_CRYPTO_KEY", message: "is required when DATABASE_URL is set" },
        { variable: "OIDC_ISSUER_URL", message: "is required when DATABASE_URL is set" },
      ]);
    }
  });

  it("still reports the requirement when DATABASE_URL itself is invalid", () => {
    expect(envError({ DATABASE_URL: "mysql://db/hisob" }).issues.map((issue) => issue.variable)).toEqual([
      "DATABASE_URL",
      "OIDC_CRYPTO_KEY",
      "OIDC_ISSUER_URL",
    ]);
  });

  it("reports a whitespace-only requirement as missing", () => {
    expect(envError({ ...PRODUCTION, OIDC_CRYPTO_KEY: "   " }).issues).toEqual([
      { variable: "OIDC_CRYPTO_KEY", message: "is required when NODE_ENV=production" },
    ]);
  });

  it("accepts production with both set", () => {
    const env = loadEnv({ ...PRODUCTION, DATABASE_URL: "postgres://localhost/hisob" });
    expect(env.oidc.cryptoKey).toBe(KEY);
    expect(env.oidc.issuerUrl).toBe("https://id.example.com");
  });

  it("wants ADMIN_EMAIL and ADMIN_PASSWORD together or not at all", () => {
    expect(envError({ ADMIN_EMAIL: "root@example.com" }).issues).toEqual([
      { variable: "ADMIN_PASSWORD", message: "is required when ADMIN_EMAIL is set" },
    ]);
    expect(envError({ ADMIN_PASSWORD: "secret-pass" }).issues).toEqual([
      { variable: "ADMIN_EMAIL", message: "is required when ADMIN_PASSWORD is set" },
    ]);
    expect(loadEnv({}).admin).toBeUndefined();
  });
});

describe("resolveDevCryptoKey", () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), "hisob-env-")), "nested", "data");
  });
  afterEach(() => {
    rmSync(path.dirname(path.dirname(dataDir)), { recursive: true, force: true });
  });

  it("generates the key once, 0600, and reuses it", () => {
    const first = resolveDevCryptoKey(loadEnv({ DATA_DIR: dataDir }));
    const file = path.join(dataDir, DEV_CRYPTO_KEY_FILE);

    expect(first.oidc.cryptoKey).toMatch(/^[A-Za-z0-9_-]{64}$/); // 48 random bytes, base64url
    expect(readFileSync(file, "utf8").trim()).toBe(first.oidc.cryptoKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.warnings).toContainEqual(
      expect.stringMatching(/OIDC_CRYPTO_KEY is not set: generated .*oidc-crypto-key/),
    );

    const second = resolveDevCryptoKey(loadEnv({ DATA_DIR: dataDir }));
    expect(second.oidc.cryptoKey).toBe(first.oidc.cryptoKey);
    expect(second.warnings).toContainEqual(
      expect.stringMatching(/OIDC_CRYPTO_KEY is not set: using .*oidc-crypto-key/),
    );
  });

  it("leaves a configured key alone and writes nothing", () => {
    const env = loadEnv({ DATA_DIR: dataDir, OIDC_CRYPTO_KEY: KEY });
    const resolved = resolveDevCryptoKey(env);
    expect(resolved.oidc.cryptoKey).toBe(KEY);
    expect(resolved.warnings).toEqual(env.warnings);
    expect(() => statSync(dataDir)).toThrow();
  });

  it("refuses a key file that was truncated", () => {
    resolveDevCryptoKey(loadEnv({ DATA_DIR: dataDir }));
    writeFileSync(path.join(dataDir, DEV_CRYPTO_KEY_FILE), "short\n");
    expect(() => resolveDevCryptoKey(loadEnv({ DATA_DIR: dataDir }))).toThrow(EnvError);
  });

  it("is what loadRuntimeEnv does after parsing", () => {
    const env = loadRuntimeEnv({ DATA_DIR: dataDir, NODE_ENV: "test" });
    expect(env.oidc.cryptoKey).toBe(readFileSync(path.join(dataDir, DEV_CRYPTO_KEY_FILE), "utf8").trim());
  });
});

describe("EXTERNAL_OIDC_* (sign-in through an upstream OpenID provider)", () => {
  const EXTERNAL = {
    EXTERNAL_OIDC_ISSUER_URL: "https://accounts.google.com/",
    EXTERNAL_OIDC_CLIENT_ID: "hisob-client",
    EXTERNAL_OIDC_CLIENT_SECRET: "upstream-secret",
  };

  it("is off when none is set", () => {
    expect(loadEnv({}).externalOidc).toBeUndefined();
  });

  it("needs issuer, client id and secret together; names Google's issuer Google; our callback is the redirect URI", () => {
    expect(loadEnv({ ...EXTERNAL, OIDC_ISSUER_URL: "https://id.example.com" }).externalOidc).toEqual({
      issuerUrl: "https://accounts.google.com",
      clientId: "hisob-client",
      clientSecret: "upstream-secret",
      name: "Google",
      redirectUri: "https://id.example.com/auth/external/callback",
    });
    expect(loadEnv({ ...EXTERNAL, EXTERNAL_OIDC_ISSUER_URL: "https://sso.firm.uz" }).externalOidc?.name).toBe(
      "sso.firm.uz",
    );
    expect(loadEnv({ ...EXTERNAL, EXTERNAL_OIDC_NAME: "Firm SSO" }).externalOidc?.name).toBe("Firm SSO");
  });

  it("refuses a half configuration, naming what is missing and never echoing the secret", () => {
    const error = envError({ EXTERNAL_OIDC_CLIENT_SECRET: "upstream-secret" });
    expect(error.issues).toEqual([
      {
        variable: "EXTERNAL_OIDC_ISSUER_URL",
        message: "is required when EXTERNAL_OIDC_CLIENT_SECRET is set",
      },
      { variable: "EXTERNAL_OIDC_CLIENT_ID", message: "is required when EXTERNAL_OIDC_CLIENT_SECRET is set" },
    ]);
    expect(error.message).not.toContain("upstream-secret");
    expect(envError({ EXTERNAL_OIDC_NAME: "SSO" }).issues.map((issue) => issue.variable)).toEqual([
      "EXTERNAL_OIDC_ISSUER_URL",
      "EXTERNAL_OIDC_CLIENT_ID",
      "EXTERNAL_OIDC_CLIENT_SECRET",
    ]);
  });

  it("refuses a malformed issuer, an http issuer in production and a label with control characters", () => {
    expect(
      envError({ ...EXTERNAL, EXTERNAL_OIDC_ISSUER_URL: "accounts.google.com" }).issues[0]?.variable,
    ).toBe("EXTERNAL_OIDC_ISSUER_URL");
    expect(
      envError({ ...PRODUCTION, ...EXTERNAL, EXTERNAL_OIDC_ISSUER_URL: "http://sso.firm.uz" }).issues,
    ).toEqual([
      { variable: "EXTERNAL_OIDC_ISSUER_URL", message: "must be an https:// URL when NODE_ENV=production" },
    ]);
    expect(envError({ ...EXTERNAL, EXTERNAL_OIDC_NAME: "a\u0007b" }).issues).toEqual([
      { variable: "EXTERNAL_OIDC_NAME", message: "must be at most 40 printable characters" },
    ]);
  });
});
