import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import type { UploadStorageConfig } from "@hisob/core";
import { DEFAULT_KEY_PROPAGATION_SECONDS } from "@hisob/oidc";
import { Address4, Address6 } from "ip-address";
import { z } from "zod";

/*
 * The one reader of process.env. `loadEnv` is pure (no I/O besides resolving DATA_DIR against the cwd);
 * `resolveDevCryptoKey` does the file work for the embedded development default.
 */

export const NODE_ENVS = ["development", "test", "production"] as const;
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEV_CRYPTO_KEY_FILE = "oidc-crypto-key";
const MAX_INT = 2_147_483_647;

export type Env = {
  nodeEnv: NodeEnv;
  isProduction: boolean;
  isDevelopment: boolean;
  isTest: boolean;
  server: {
    host: string;
    port: number;
    /**
     * Which `X-Forwarded-*` to believe (Fastify's `trustProxy`): false (none), a number of proxy hops in
     * front of the server, or the addresses/CIDRs of the trusted proxies. `TRUST_PROXY=true` means 1 hop.
     * See docs/decisions/0002-client-address-behind-proxies.md.
     */
    trustProxy: TrustProxy;
    /**
     * On SIGTERM, how long /readyz answers 503 ("draining") before the server stops accepting, so the
     * load balancer stops sending first (docs/decisions/0027-graceful-drain.md).
     */
    shutdownDrainDelayMs: number;
  };
  /** `url` unset means embedded PGlite under `dataDir`. */
  database: {
    url: string | undefined;
    isEmbedded: boolean;
    /** Set when `url` is a transaction-pooling PgBouncer: PostgreSQL itself, for migrations. */
    directUrl: string | undefined;
    /** Connections this instance opens at most (PostgreSQL). */
    poolSize: number;
  };
  /** Absolute path. */
  dataDir: string;
  /** Where uploaded files live: UPLOADS_STORAGE (local disk by default, in `<DATA_DIR>/uploads`). */
  uploads: UploadStorageConfig;
  redis: { url: string | undefined };
  log: { level: LogLevel };
  /** Bootstrap administrator; set only when both ADMIN_EMAIL and ADMIN_PASSWORD are. */
  admin: { email: string; password: string } | undefined;
  oidc: {
    /** No trailing slash. */
    issuerUrl: string;
    /** Undefined only on the embedded development default; see `resolveDevCryptoKey`. */
    cryptoKey: string | undefined;
    accessTokenLifetime: number;
    idTokenLifetime: number;
    refreshTokenLifetime: number;
    /** Seconds a rotated signing key is published before it signs (every instance reloads within half). */
    keyPropagationSeconds: number;
    /** Normalised origins (`scheme://host[:port]`). */
    allowedOrigins: string[];
  };
  rateLimit: {
    enabled: boolean;
    windowSeconds: number;
    authorize: number;
    token: number;
    userinfo: number;
    keys: number;
  };
  /**
   * Sign-in through an upstream OpenID provider (`googleAuthenticate`, the login page's button); undefined
   * when EXTERNAL_OIDC_* is not set.
   */
  externalOidc:
    | {
        /** The upstream issuer, no trailing slash (e.g. https://accounts.google.com). */
        issuerUrl: string;
        clientId: string;
        clientSecret: string;
        /** Shown on the button: "Sign in with <name>". */
        name: string;
        /** Ours, registered at the upstream: `<OIDC_ISSUER_URL>/auth/external/callback`. */
        redirectUri: string;
      }
    | undefined;
  /** REST and tRPC requests per caller (user, else client network) per window; 0 turns the limit off. */
  apiRateLimit: { limit: number; windowSeconds: number };
  graphql: {
    /** Serve the GraphiQL IDE at /graphql (default: on except in production). */
    graphiql: boolean;
    /** GraphQL operations per caller (user, else IP) per window. */
    rateLimit: number;
    rateLimitWindowSeconds: number;
    /** Who may read the schema: anyone, or signed-in callers only (the default in production). */
    introspection: "public" | "signed-in";
    /** Service calls (database work) one caller's operations run at once; more wait their turn. */
    concurrencyPerCaller: number;
    /** The same for all of one organization's callers and sockets together, on top of each caller's. */
    concurrencyPerTenant: number;
    /** How often an instance re-checks the credentials of all its open sockets (one statement). */
    socketRecheckMs: number;
  };
  /** Things main should log loudly at boot (development defaults in use, risky settings). */
  warnings: string[];
};

/** An Env whose OIDC crypto key is known (set, or the development key file). */
export type ResolvedEnv = Env & { oidc: Env["oidc"] & { cryptoKey: string } };

export type TrustProxy = false | number | string[];

export type EnvIssue = { variable: string; message: string };

export class EnvError extends Error {
  readonly issues: EnvIssue[];

  constructor(issues: EnvIssue[]) {
    const lines = issues.map((issue) => `  ${issue.variable}: ${issue.message}`);
    super(`Invalid environment configuration:\n${lines.join("\n")}`);
    this.name = "EnvError";
    this.issues = issues;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Field parsers. Each builds its own message so it can decide what of the value may be echoed.

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(message: string): Parsed<T> => ({ ok: false, message });

/** Quotes a value for an error message, shortened so a pasted blob doesn't flood the log. */
const got = (raw: string): string => {
  const shown = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw;
  return `(got ${JSON.stringify(shown)})`;
};

/** Like `got`, but never shows URL credentials. */
const gotUrl = (raw: string): string => {
  if (!URL.canParse(raw)) return "(got a value that is not a URL)";
  const url = new URL(raw);
  if (!url.password) return got(raw);
  url.password = "***";
  return got(url.toString());
};

/** A variable: unset stays undefined (defaults are applied later, some depend on other variables). */
const variable = <T>(parse: (raw: string) => Parsed<T>) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): T | undefined => {
      if (raw === undefined) return undefined;
      const result = parse(raw);
      if (result.ok) return result.value;
      ctx.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    });

const oneOf = <const T extends readonly string[]>(values: T) =>
  variable((raw): Parsed<T[number]> => {
    const found = values.find((value) => value === raw);
    return found === undefined ? bad(`must be one of ${values.join(", ")} ${got(raw)}`) : ok(found);
  });

const integer = (min: number, max: number) =>
  variable((raw): Parsed<number> => {
    const value = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
    return Number.isInteger(value) && value >= min && value <= max
      ? ok(value)
      : bad(`must be an integer between ${min} and ${max} ${got(raw)}`);
  });

const positiveInteger = () => integer(1, MAX_INT);

const boolean = () =>
  variable((raw): Parsed<boolean> => {
    const value = raw.toLowerCase();
    if (value === "true" || value === "1") return ok(true);
    if (value === "false" || value === "0") return ok(false);
    return bad(`must be one of true, false, 1, 0 ${got(raw)}`);
  });

const urlWithProtocols = (protocols: readonly string[], example: string) =>
  variable((raw) => {
    const expected = `must be a ${protocols.map((p) => `${p}//`).join(" or ")} URL, e.g. ${example}`;
    if (!URL.canParse(raw)) return bad<string>(`${expected} ${gotUrl(raw)}`);
    const url = new URL(raw);
    if (!protocols.includes(url.protocol) || url.hostname === "")
      return bad<string>(`${expected} ${gotUrl(raw)}`);
    return ok(raw);
  });

const nonEmpty = () => variable((raw) => ok(raw));

/** proxy-addr's names for address ranges (Fastify's trustProxy understands them in a list). */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const MAX_PROXY_HOPS = 10;

const isAddressOrCidr = (entry: string): boolean => {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
};

type Range = { start: bigint; end: bigint };

/** The addresses an entry trusts, as proxy-addr reads it: IPv4-mapped IPv6 ranges count as IPv4. */
const rangeOf = (entry: string): { family: 4 | 6; range: Range } | null => {
  if (PROXY_RANGE_NAMES.has(entry)) return null;
  const [address = "", prefix] = entry.split("/");
  if (isIP(address) === 4) {
    const cidr = new Address4(`${address}/${prefix === undefined ? 32 : Number(prefix)}`);
    return { family: 4, range: { start: cidr.startAddress().bigInt(), end: cidr.endAddress().bigInt() } };
  }
  const bits = prefix === undefined ? 128 : Number(prefix);
  const cidr = new Address6(`${address}/${bits}`);
  if (cidr.isMapped4() && bits >= 96) {
    const v4 = new Address4(`${cidr.to4().correctForm()}/${bits - 96}`);
    return { family: 4, range: { start: v4.startAddress().bigInt(), end: v4.endAddress().bigInt() } };
  }
  return { family: 6, range: { start: cidr.startAddress().bigInt(), end: cidr.endAddress().bigInt() } };
};

/** Whether the ranges together contain every address of `whole`. */
const covers = (ranges: Range[], whole: Range): boolean => {
  let next = whole.start;
  for (const range of [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    if (range.start > next) break;
    if (range.end >= next) next = range.end + 1n;
    if (next > whole.end) return true;
  }
  return false;
};

const EVERY_IPV4: Range = { start: 0n, end: 2n ** 32n - 1n };
/** 2000::/3, every global unicast IPv6 address: trusting it is trusting every IPv6 client. */
const EVERY_PUBLIC_IPV6: Range = { start: 2n ** 125n, end: 2n ** 126n - 1n };

/**
 * Whether a list of proxies trusts every client of a family (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`,
 * `0.0.0.0/1,128.0.0.0/1`, `2000::/3`): then any client names its own address in X-Forwarded-For.
 */
export const trustsEveryClient = (entries: readonly string[]): boolean => {
  const ranges = entries.map(rangeOf).filter((range) => range !== null);
  const family = (version: 4 | 6) => ranges.filter((r) => r.family === version).map((r) => r.range);
  // proxy-addr matches IPv4 clients against IPv6 ranges through their mapped form (::ffff:a.b.c.d).
  const ipv6AsMapped = family(6).flatMap((range) => {
    const start = range.start > 0xffff00000000n ? range.start : 0xffff00000000n;
    const end = range.end < 0xffffffffffffn ? range.end : 0xffffffffffffn;
    return start <= end ? [{ start: start - 0xffff00000000n, end: end - 0xffff00000000n }] : [];
  });
  return covers([...family(4), ...ipv6AsMapped], EVERY_IPV4) || covers(family(6), EVERY_PUBLIC_IPV6);
};

/**
 * `false`/`0`: trust no proxy (the default). `true`: one proxy in front (the address it saw, i.e. the
 * right-most X-Forwarded-For entry). A number: that many proxies. A comma-separated list: the proxies'
 * addresses or CIDRs (or loopback, linklocal, uniquelocal). Never "trust everyone": the left-most
 * X-Forwarded-For entry is whatever the client wrote.
 */
const trustProxy = () =>
  variable((raw): Parsed<TrustProxy> => {
    const value = raw.toLowerCase();
    if (value === "false" || value === "0") return ok(false);
    if (value === "true") return ok(1);
    if (/^\d{1,2}$/.test(value)) {
      const hops = Number(value);
      return hops <= MAX_PROXY_HOPS
        ? ok(hops)
        : bad(`must be at most ${MAX_PROXY_HOPS} proxy hops ${got(raw)}`);
    }
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
    if (entries.length === 0 || invalid.length > 0) {
      return bad(
        `must be false, true (one proxy), a number of proxy hops, or comma-separated proxy addresses or CIDRs (e.g. 10.0.0.0/8,::1) ${got(raw)}`,
      );
    }
    if (trustsEveryClient(entries)) {
      return bad(
        `trusts every client address as a proxy, so any client could name its own address in X-Forwarded-For: list your proxies' addresses or give their number ${got(raw)}`,
      );
    }
    return ok([...new Set(entries)]);
  });

const email = () =>
  variable((raw) =>
    z.email().safeParse(raw).success ? ok(raw) : bad<string>(`must be an email address ${got(raw)}`),
  );

/** A secret: the message gives its length, never its content. */
const secret = (minLength: number) =>
  variable((raw) =>
    raw.length >= minLength
      ? ok(raw)
      : bad<string>(`must be at least ${minLength} characters (got ${raw.length})`),
  );

const issuerUrl = () =>
  variable((raw) => {
    const expected =
      "must be an http:// or https:// URL without query or fragment, e.g. https://id.example.com";
    if (!URL.canParse(raw)) return bad<string>(`${expected} ${got(raw)}`);
    const url = new URL(raw);
    if (
      (url.protocol !== "http:" && url.protocol !== "https:") ||
      url.search ||
      url.hash ||
      url.username ||
      url.password
    ) {
      return bad<string>(`${expected} ${got(raw)}`);
    }
    // Issuers are compared as strings (OIDC Discovery §4.3), so keep one canonical form: no trailing slash.
    return ok(url.toString().replace(/\/+$/, ""));
  });

/** `scheme://host[:port]`, normalised the way browsers send the Origin header. */
const toOrigin = (raw: string): string | undefined => {
  if (!URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  const isOriginOnly = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !isOriginOnly) return undefined;
  return url.origin;
};

const originList = () =>
  variable((raw) => {
    const entries = raw
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    const invalid = entries.filter((entry) => toOrigin(entry) === undefined);
    if (invalid.length > 0) {
      const list = invalid.map((entry) => JSON.stringify(entry)).join(", ");
      return bad<string[]>(
        `must be comma-separated origins like https://app.example.com (scheme://host[:port], no path); invalid: ${list}`,
      );
    }
    return ok([...new Set(entries.map((entry) => toOrigin(entry) ?? entry))]);
  });

// ---------------------------------------------------------------------------------------------------------
// The schema

const shape = {
  NODE_ENV: oneOf(NODE_ENVS),
  PORT: integer(1, 65535),
  HOST: nonEmpty(),
  TRUST_PROXY: trustProxy(),
  DATABASE_URL: urlWithProtocols(["postgres:", "postgresql:"], "postgres://user:password@host:5432/hisob"),
  DATABASE_POOL_SIZE: integer(1, 1000),
  DATABASE_DIRECT_URL: urlWithProtocols(
    ["postgres:", "postgresql:"],
    "postgres://user:password@db:5432/hisob",
  ),
  DATA_DIR: nonEmpty(),
  UPLOADS_DIR: nonEmpty(),
  REDIS_URL: urlWithProtocols(["redis:", "rediss:"], "redis://localhost:6379"),
  LOG_LEVEL: oneOf(LOG_LEVELS),
  ADMIN_EMAIL: email(),
  ADMIN_PASSWORD: nonEmpty(),
  OIDC_CRYPTO_KEY: secret(32),
  OIDC_ISSUER_URL: issuerUrl(),
  OIDC_ACCESS_TOKEN_LIFETIME: positiveInteger(),
  OIDC_ID_TOKEN_LIFETIME: positiveInteger(),
  OIDC_REFRESH_TOKEN_LIFETIME: positiveInteger(),
  // Up to a day: a rotated key that waits longer to sign is a mistake, not a policy.
  OIDC_KEY_PROPAGATION_SECONDS: integer(0, 86_400),
  OIDC_RATE_LIMIT_ENABLED: boolean(),
  OIDC_RATE_LIMIT_AUTHORIZE: positiveInteger(),
  OIDC_RATE_LIMIT_TOKEN: positiveInteger(),
  OIDC_RATE_LIMIT_USERINFO: positiveInteger(),
  OIDC_RATE_LIMIT_KEYS: positiveInteger(),
  OIDC_RATE_LIMIT_WINDOW_SECONDS: positiveInteger(),
  OIDC_ALLOWED_ORIGINS: originList(),
  EXTERNAL_OIDC_ISSUER_URL: issuerUrl(),
  EXTERNAL_OIDC_CLIENT_ID: nonEmpty(),
  EXTERNAL_OIDC_CLIENT_SECRET: nonEmpty(),
  EXTERNAL_OIDC_NAME: variable((raw) =>
    raw.length <= 40 && !/\p{Cc}/u.test(raw)
      ? ok(raw)
      : bad<string>("must be at most 40 printable characters"),
  ),
  API_RATE_LIMIT: integer(0, MAX_INT),
  API_RATE_LIMIT_WINDOW_SECONDS: positiveInteger(),
  GRAPHIQL_ENABLED: boolean(),
  GRAPHQL_RATE_LIMIT: positiveInteger(),
  GRAPHQL_RATE_LIMIT_WINDOW_SECONDS: positiveInteger(),
  GRAPHQL_INTROSPECTION: oneOf(["public", "signed-in"] as const),
  GRAPHQL_CONCURRENCY_PER_CALLER: integer(1, 1000),
  GRAPHQL_CONCURRENCY_PER_TENANT: integer(1, 1000),
  SHUTDOWN_DRAIN_DELAY_MS: integer(0, 600_000),
  GRAPHQL_SOCKET_RECHECK_MS: integer(100, 60_000),
  UPLOADS_STORAGE: oneOf(["local", "database", "s3"] as const),
  S3_BUCKET: variable((raw) =>
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(raw)
      ? ok(raw)
      : bad<string>("must be a bucket name: 3–63 lowercase letters, digits, dots and hyphens"),
  ),
  S3_PREFIX: variable((raw) =>
    raw.length <= 200 && /^[\w./-]*$/.test(raw) && !raw.startsWith("/")
      ? ok(raw.endsWith("/") ? raw : `${raw}/`)
      : bad<string>("must be at most 200 letters, digits, '_', '.', '-' and '/', not starting with '/'"),
  ),
  S3_REGION: variable((raw) =>
    /^[a-z0-9-]{1,50}$/.test(raw) ? ok(raw) : bad<string>("must be a region name such as eu-central-1"),
  ),
  S3_ENDPOINT: urlWithProtocols(["http:", "https:"], "https://s3.example.com"),
  S3_FORCE_PATH_STYLE: boolean(),
  S3_ACCESS_KEY_ID: nonEmpty(),
  S3_SECRET_ACCESS_KEY: nonEmpty(),
};

type VariableName = keyof typeof shape;
/** Every variable the server reads, in schema order. */
export const ENV_VARIABLES = Object.keys(shape) as readonly VariableName[];

/** Passwords may legitimately start or end with spaces; everything else is trimmed. */
const UNTRIMMED: ReadonlySet<VariableName> = new Set(["ADMIN_PASSWORD"]);

/** Keeps only our variables; whitespace-only counts as unset. */
const normalizeSource = (input: unknown): Partial<Record<VariableName, string>> => {
  const source = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const result: Partial<Record<VariableName, string>> = {};
  for (const name of ENV_VARIABLES) {
    const value = source[name];
    if (typeof value !== "string" || value.trim() === "") continue;
    result[name] = UNTRIMMED.has(name) ? value : value.trim();
  }
  return result;
};

const ZEnvObject = z.object(shape);
type TEnvVariables = z.output<typeof ZEnvObject>;

const ZEnv = z
  .preprocess(
    normalizeSource,
    ZEnvObject.superRefine(
      (vars, ctx) => {
        // Presence checks only: a variable that failed its own parse still counts as set here.
        const requireVariable = (name: VariableName, because: string) => {
          if (vars[name] === undefined)
            ctx.addIssue({ code: "custom", path: [name], message: `is required ${because}` });
        };
        const reason =
          vars.NODE_ENV === "production"
            ? "when NODE_ENV=production"
            : vars.DATABASE_URL !== undefined
              ? "when DATABASE_URL is set"
              : undefined;
        if (reason) {
          requireVariable("OIDC_CRYPTO_KEY", reason);
          requireVariable("OIDC_ISSUER_URL", reason);
        }
        if (vars.ADMIN_PASSWORD !== undefined) requireVariable("ADMIN_EMAIL", "when ADMIN_PASSWORD is set");
        if (vars.ADMIN_EMAIL !== undefined) requireVariable("ADMIN_PASSWORD", "when ADMIN_EMAIL is set");
        // The external sign-in is all or nothing: a half-configured provider is a typo, not a choice.
        const external = [
          "EXTERNAL_OIDC_ISSUER_URL",
          "EXTERNAL_OIDC_CLIENT_ID",
          "EXTERNAL_OIDC_CLIENT_SECRET",
        ] as const;
        const externalSet = external.filter((name) => vars[name] !== undefined);
        if (externalSet.length > 0 || vars.EXTERNAL_OIDC_NAME !== undefined) {
          for (const name of external)
            requireVariable(name, `when ${externalSet[0] ?? "EXTERNAL_OIDC_NAME"} is set`);
        }
        if (vars.DATABASE_DIRECT_URL !== undefined)
          requireVariable(
            "DATABASE_URL",
            "when DATABASE_DIRECT_URL is set (DATABASE_URL is then the pooler)",
          );
        if (vars.UPLOADS_STORAGE === "s3") requireVariable("S3_BUCKET", "when UPLOADS_STORAGE=s3");
        // A key without its secret (or the other way round) is a typo; neither means the SDK's own chain.
        if (vars.S3_ACCESS_KEY_ID !== undefined)
          requireVariable("S3_SECRET_ACCESS_KEY", "when S3_ACCESS_KEY_ID is set");
        if (vars.S3_SECRET_ACCESS_KEY !== undefined)
          requireVariable("S3_ACCESS_KEY_ID", "when S3_SECRET_ACCESS_KEY is set");
        if (vars.NODE_ENV === "production" && vars.EXTERNAL_OIDC_ISSUER_URL?.startsWith("http://")) {
          ctx.addIssue({
            code: "custom",
            path: ["EXTERNAL_OIDC_ISSUER_URL"],
            message: "must be an https:// URL when NODE_ENV=production",
          });
        }
      },
      // Run even when single fields failed, so one boot lists every problem.
      { when: (payload) => typeof payload.value === "object" && payload.value !== null },
    ),
  )
  .transform((vars) => toEnv(vars));

/** The button's default label: Google for Google's issuer, else the issuer's host. */
const externalProviderName = (issuer: string): string => {
  const host = new URL(issuer).hostname;
  return host === "accounts.google.com" ? "Google" : host;
};

/** UPLOADS_STORAGE and its settings; local disk unless asked otherwise (existing files stay where they are). */
const uploadStorage = (vars: TEnvVariables, warnings: string[]): UploadStorageConfig => {
  const driver = vars.UPLOADS_STORAGE ?? "local";
  if (driver === "database") return { driver };
  if (driver === "s3") {
    return {
      driver,
      bucket: vars.S3_BUCKET ?? "",
      prefix: vars.S3_PREFIX ?? "",
      region: vars.S3_REGION ?? "us-east-1",
      endpoint: vars.S3_ENDPOINT,
      forcePathStyle: vars.S3_FORCE_PATH_STYLE ?? vars.S3_ENDPOINT !== undefined,
      credentials:
        vars.S3_ACCESS_KEY_ID !== undefined && vars.S3_SECRET_ACCESS_KEY !== undefined
          ? { accessKeyId: vars.S3_ACCESS_KEY_ID, secretAccessKey: vars.S3_SECRET_ACCESS_KEY }
          : undefined,
    };
  }
  if (vars.DATABASE_URL !== undefined) {
    warnings.push(
      "Uploads are stored on this instance's disk (UPLOADS_STORAGE=local): several instances need UPLOADS_STORAGE=database or s3.",
    );
  }
  return { driver, dir: path.resolve(vars.UPLOADS_DIR ?? path.join(vars.DATA_DIR ?? "./.data", "uploads")) };
};

const toEnv = (vars: TEnvVariables): Env => {
  const nodeEnv = vars.NODE_ENV ?? "development";
  const isProduction = nodeEnv === "production";
  const port = vars.PORT ?? 3000;
  const warnings: string[] = [];

  let issuerUrl = vars.OIDC_ISSUER_URL;
  if (issuerUrl === undefined) {
    issuerUrl = `http://localhost:${port}`;
    warnings.push(`OIDC_ISSUER_URL is not set: using ${issuerUrl} (embedded development default).`);
  } else if (isProduction && issuerUrl.startsWith("http://")) {
    warnings.push("OIDC_ISSUER_URL uses http:// in production; OpenID Connect requires an https issuer.");
  }

  const proxies = vars.TRUST_PROXY ?? false;

  return {
    nodeEnv,
    isProduction,
    isDevelopment: nodeEnv === "development",
    isTest: nodeEnv === "test",
    server: {
      host: vars.HOST ?? (isProduction ? "0.0.0.0" : "127.0.0.1"),
      port,
      trustProxy: proxies,
      shutdownDrainDelayMs: vars.SHUTDOWN_DRAIN_DELAY_MS ?? (isProduction ? 5_000 : 0),
    },
    database: {
      url: vars.DATABASE_URL,
      isEmbedded: vars.DATABASE_URL === undefined,
      directUrl: vars.DATABASE_DIRECT_URL,
      poolSize: vars.DATABASE_POOL_SIZE ?? 10,
    },
    dataDir: path.resolve(vars.DATA_DIR ?? "./.data"),
    uploads: uploadStorage(vars, warnings),
    redis: { url: vars.REDIS_URL },
    log: { level: vars.LOG_LEVEL ?? (nodeEnv === "test" ? "silent" : "info") },
    admin:
      vars.ADMIN_EMAIL !== undefined && vars.ADMIN_PASSWORD !== undefined
        ? { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD }
        : undefined,
    oidc: {
      issuerUrl,
      cryptoKey: vars.OIDC_CRYPTO_KEY,
      accessTokenLifetime: vars.OIDC_ACCESS_TOKEN_LIFETIME ?? 3600,
      idTokenLifetime: vars.OIDC_ID_TOKEN_LIFETIME ?? 3600,
      refreshTokenLifetime: vars.OIDC_REFRESH_TOKEN_LIFETIME ?? 2_592_000,
      keyPropagationSeconds: vars.OIDC_KEY_PROPAGATION_SECONDS ?? DEFAULT_KEY_PROPAGATION_SECONDS,
      allowedOrigins: vars.OIDC_ALLOWED_ORIGINS ?? [],
    },
    rateLimit: {
      enabled: vars.OIDC_RATE_LIMIT_ENABLED ?? true,
      windowSeconds: vars.OIDC_RATE_LIMIT_WINDOW_SECONDS ?? 900,
      authorize: vars.OIDC_RATE_LIMIT_AUTHORIZE ?? 100,
      token: vars.OIDC_RATE_LIMIT_TOKEN ?? 50,
      userinfo: vars.OIDC_RATE_LIMIT_USERINFO ?? 200,
      keys: vars.OIDC_RATE_LIMIT_KEYS ?? 500,
    },
    externalOidc:
      vars.EXTERNAL_OIDC_ISSUER_URL !== undefined &&
      vars.EXTERNAL_OIDC_CLIENT_ID !== undefined &&
      vars.EXTERNAL_OIDC_CLIENT_SECRET !== undefined
        ? {
            issuerUrl: vars.EXTERNAL_OIDC_ISSUER_URL,
            clientId: vars.EXTERNAL_OIDC_CLIENT_ID,
            clientSecret: vars.EXTERNAL_OIDC_CLIENT_SECRET,
            name: vars.EXTERNAL_OIDC_NAME ?? externalProviderName(vars.EXTERNAL_OIDC_ISSUER_URL),
            redirectUri: `${issuerUrl}/auth/external/callback`,
          }
        : undefined,
    apiRateLimit: {
      limit: vars.API_RATE_LIMIT ?? 1000,
      windowSeconds: vars.API_RATE_LIMIT_WINDOW_SECONDS ?? 60,
    },
    graphql: {
      graphiql: vars.GRAPHIQL_ENABLED ?? !isProduction,
      rateLimit: vars.GRAPHQL_RATE_LIMIT ?? 1000,
      rateLimitWindowSeconds: vars.GRAPHQL_RATE_LIMIT_WINDOW_SECONDS ?? 60,
      introspection: vars.GRAPHQL_INTROSPECTION ?? (isProduction ? "signed-in" : "public"),
      concurrencyPerCaller: vars.GRAPHQL_CONCURRENCY_PER_CALLER ?? 4,
      concurrencyPerTenant: vars.GRAPHQL_CONCURRENCY_PER_TENANT ?? 6,
      socketRecheckMs: vars.GRAPHQL_SOCKET_RECHECK_MS ?? 3_000,
    },
    warnings,
  };
};

/** Parses the environment; throws EnvError listing every bad variable. Pure: no file or network I/O. */
export const loadEnv = (source: Record<string, string | undefined> = process.env): Env => {
  const result = ZEnv.safeParse(source);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    variable: String(issue.path[0] ?? "environment"),
    message: issue.message,
  }));
  // Schema order, so related variables sit together however the checks ran.
  const order = (variable: string) => ENV_VARIABLES.indexOf(variable as VariableName);
  throw new EnvError(issues.sort((a, b) => order(a.variable) - order(b.variable)));
};

/**
 * Supplies the OIDC crypto key on the embedded development default: read from `<DATA_DIR>/oidc-crypto-key`,
 * or generated there once. Returns `env` untouched when OIDC_CRYPTO_KEY is set.
 */
export const resolveDevCryptoKey = (env: Env): ResolvedEnv => {
  const { cryptoKey } = env.oidc;
  if (cryptoKey !== undefined) return { ...env, oidc: { ...env.oidc, cryptoKey } };

  const file = path.join(env.dataDir, DEV_CRYPTO_KEY_FILE);
  mkdirSync(env.dataDir, { recursive: true, mode: 0o700 });
  let key: string;
  let created = false;
  try {
    key = randomBytes(48).toString("base64url");
    // "wx": never overwrite a key another process wrote first; signing keys depend on it.
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    key = readFileSync(file, "utf8").trim();
    if (key.length < 32) {
      throw new EnvError([
        { variable: "OIDC_CRYPTO_KEY", message: `is not set and ${file} holds fewer than 32 characters` },
      ]);
    }
  }

  const warning = created
    ? `OIDC_CRYPTO_KEY is not set: generated a development key in ${file}. Set OIDC_CRYPTO_KEY for any real deployment; signing keys encrypted with one key cannot be decrypted with another.`
    : `OIDC_CRYPTO_KEY is not set: using the development key in ${file}. Set OIDC_CRYPTO_KEY for any real deployment.`;
  return { ...env, oidc: { ...env.oidc, cryptoKey: key }, warnings: [...env.warnings, warning] };
};

/** What main needs at boot: parse, then fill the development crypto key. */
export const loadRuntimeEnv = (source: Record<string, string | undefined> = process.env): ResolvedEnv =>
  resolveDevCryptoKey(loadEnv(source));
