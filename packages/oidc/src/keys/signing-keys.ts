import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type KeyObject,
  type webcrypto,
} from "node:crypto";
import { promisify } from "node:util";
import type { Db, Tx } from "@hisob/db";
import { type Clock, newId, systemClock } from "@hisob/kernel";
import { SignJWT } from "jose";
import { decryptPrivateKey, deriveEncryptionKey, encryptPrivateKey } from "./key-encryption";

export const SIGNING_ALGORITHM = "RS256";
const MODULUS_LENGTH = 2048;
const PUBLIC_EXPONENT = 65537;
/** pg_advisory_xact_lock key for "create the first signing key"; distinct from the migration lock. */
export const KEY_CREATION_LOCK = 7_205_931_443;

/** One entry of the published key set: exactly the spec's fields, never a private part. */
export type PublicJwk = {
  kty: "RSA";
  use: "sig";
  kid: string;
  alg: typeof SIGNING_ALGORITHM;
  n: string;
  e: string;
};
export type Jwks = { keys: PublicJwk[] };

export type SignJwtOptions = {
  expiresInSeconds: number;
  audience: string;
  issuer: string;
  subject: string;
};

export type SigningKeysDeps = {
  db: Db;
  /** OIDC_CRYPTO_KEY (at least 32 characters). */
  cryptoKey: string;
  clock?: Clock;
  /**
   * The longest lifetime of anything signed or tied to a signing moment (max of the token lifetimes):
   * a key that stopped signing stays published this long, and cannot be retired sooner.
   */
  longestTokenLifetimeSeconds?: number;
  /**
   * Seconds a new key is published before it signs: long enough for every instance to reload its
   * keys, so no relying party meets a `kid` that a JWKS from another instance lacks. 0 signs at once.
   */
  propagationDelaySeconds?: number;
};

export type SigningKeyInfo = {
  kid: string;
  algorithm: string;
  active: boolean;
  signing: boolean;
  published: boolean;
  createdAt: string;
  /** When the key signs (or signed) from: its creation plus the propagation delay; the first key at once. */
  signsFrom: string;
  retiredAt: string | null;
};

export type SigningKeys = {
  /** Creates the first signing key when none is active; safe when several processes start together. */
  ensureActiveKey(): Promise<void>;
  /** Decrypts every active key into memory; calling it again refreshes. Throws on a wrong crypto key. */
  load(): Promise<void>;
  /** The public key set (active keys, newest first). */
  jwks(): Jwks;
  /** Signs with the signing key (see `signingKeyAt`); `iss`, `sub`, `aud`, `iat` and `exp` come from `options` and the clock. */
  signJwt(claims: Record<string, unknown>, options: SignJwtOptions): Promise<string>;
  /** OIDC Core 3.1.3.6 `at_hash` for an RS256 ID token. */
  atHash(accessToken: string): string;
  /**
   * A new key, published at once and signing once the propagation delay has passed; older keys stay
   * published until retired.
   */
  rotate(alsoInTransaction?: (tx: Tx, kid: string) => Promise<void>): Promise<SigningKeyInfo>;
  /** Unpublishes an older key once nothing signed with it can still be valid. */
  retire(kid: string, alsoInTransaction?: (tx: Tx) => Promise<void>): Promise<SigningKeyInfo>;
  list(): Promise<SigningKeyInfo[]>;
  /**
   * Encrypts every stored private key (active and retired) under `newCryptoKey` instead, in one
   * transaction; answers how many. Instances still on the old OIDC_CRYPTO_KEY keep signing with the keys
   * they hold in memory until restarted with the new one (their periodic reload fails meanwhile).
   */
  reencrypt(newCryptoKey: string): Promise<number>;
};

/** A key that cannot be retired yet (it signs, or tokens it signed may still be valid). */
export class KeyStillNeededError extends Error {}

type LoadedKey = { kid: string; createdAt: Date; privateKey: KeyObject; publicJwk: PublicJwk };

/**
 * The key that signs at `now`, of the active keys newest first: the newest one published for at least
 * `delayMs` (every instance has had time to publish it), else the oldest (the first key of a new
 * installation signs at once: no instance can publish a key set without it).
 */
export const signingKeyAt = <K extends { createdAt: Date }>(
  activeNewestFirst: readonly K[],
  now: Date,
  delayMs: number,
): K | undefined =>
  activeNewestFirst.find((key) => key.createdAt.getTime() + delayMs <= now.getTime()) ??
  activeNewestFirst.at(-1);

const generateRsaKeyPair = promisify(generateKeyPair);

const isStoredPublicJwk = (value: unknown): value is { kty: "RSA"; n: string; e: string } => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const jwk = value as Record<string, unknown>;
  return jwk.kty === "RSA" && typeof jwk.n === "string" && typeof jwk.e === "string";
};

/** The RSA public parameters of a key, as base64url strings. */
const rsaPublicParts = (key: KeyObject): { n: string; e: string } => {
  const jwk: webcrypto.JsonWebKey = (key.type === "private" ? createPublicKey(key) : key).export({
    format: "jwk",
  });
  if (jwk.kty !== "RSA" || typeof jwk.n !== "string" || typeof jwk.e !== "string") {
    throw new Error("signing key is not an RSA key");
  }
  return { n: jwk.n, e: jwk.e };
};

type KeyRow = {
  id: string;
  algorithm: string;
  publicJwk: unknown;
  privateKeyEncrypted: string;
  createdAt: Date;
};
const KEY_COLUMNS = `SELECT id, algorithm, public_jwk AS "publicJwk", private_key_encrypted AS "privateKeyEncrypted",
  created_at AS "createdAt" FROM oidc_signing_keys`;
// UUIDv7 ids break ties between keys created in the same millisecond.
const KEY_ORDER = "ORDER BY created_at DESC, id DESC";

export const createSigningKeys = (deps: SigningKeysDeps): SigningKeys => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  // Derived once: a too-short OIDC_CRYPTO_KEY fails here, at wiring time.
  const encryptionKey = deriveEncryptionKey(deps.cryptoKey);
  let loaded: LoadedKey[] | undefined;

  // The checks every start makes, and the reload every minute, read on the driver: an idle server
  // then never loads Prisma's query compiler for them (see README, "Memory").
  const hasActiveKey = async (): Promise<boolean> =>
    (
      await db.rawTx.withPlatform((tx) =>
        tx.query<{ id: string }>("SELECT id FROM oidc_signing_keys WHERE is_active LIMIT 1"),
      )
    ).length > 0;

  const longest = deps.longestTokenLifetimeSeconds ?? 30 * 24 * 3600;
  const delayMs = (deps.propagationDelaySeconds ?? 0) * 1000;

  /** A fresh RSA key pair, encrypted; generated outside any transaction (it takes a while). */
  const generateKeyRow = async () => {
    const { publicKey, privateKey } = await generateRsaKeyPair("rsa", {
      modulusLength: MODULUS_LENGTH,
      publicExponent: PUBLIC_EXPONENT,
    });
    const { n, e } = rsaPublicParts(publicKey);
    const privateKeyEncrypted = encryptPrivateKey(
      privateKey.export({ format: "der", type: "pkcs8" }),
      encryptionKey,
    );
    return {
      id: newId(),
      algorithm: SIGNING_ALGORITHM,
      publicJwk: { kty: "RSA", n, e },
      privateKeyEncrypted,
      isActive: true,
    };
  };

  const ensureActiveKey = async (): Promise<void> => {
    if (await hasActiveKey()) return;
    const row = await generateKeyRow();
    await db.withPlatform(async (tx) => {
      // Serialises concurrent starters; the lock ends with the transaction. Re-check under it.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${KEY_CREATION_LOCK}::bigint)`;
      const existing = await tx.oidcSigningKey.findFirst({ where: { isActive: true }, select: { id: true } });
      if (existing) return;
      await tx.oidcSigningKey.create({ data: { ...row, createdAt: clock.now() } });
    });
  };

  let retiredPublished: PublicJwk[] = [];

  const load = async (): Promise<void> => {
    const retiredSince = new Date(clock.now().getTime() - longest * 1000);
    const { retired, rows } = await db.rawTx.withPlatform(async (tx) => ({
      retired: await tx.query<KeyRow>(
        `${KEY_COLUMNS} WHERE NOT is_active AND retired_at > $1::timestamptz ${KEY_ORDER}`,
        [retiredSince.toISOString()],
      ),
      rows: await tx.query<KeyRow>(`${KEY_COLUMNS} WHERE is_active ${KEY_ORDER}`),
    }));
    // Build the whole set first so a failure keeps the previous cache intact.
    const next = rows.map((row): LoadedKey => {
      if (row.algorithm !== SIGNING_ALGORITHM) {
        throw new Error(`signing key ${row.id}: unsupported algorithm ${row.algorithm}`);
      }
      if (!isStoredPublicJwk(row.publicJwk)) {
        throw new Error(`signing key ${row.id}: stored public key is not an RSA JWK`);
      }
      const der = decryptPrivateKey(row.privateKeyEncrypted, encryptionKey);
      const privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
      // Publish what the private key actually verifies against, and refuse a row whose halves disagree.
      const { n, e } = rsaPublicParts(privateKey);
      if (n !== row.publicJwk.n || e !== row.publicJwk.e) {
        throw new Error(`signing key ${row.id}: stored public key does not match the private key`);
      }
      return {
        kid: row.id,
        createdAt: new Date(row.createdAt),
        privateKey,
        publicJwk: { kty: "RSA", use: "sig", kid: row.id, alg: SIGNING_ALGORITHM, n, e },
      };
    });
    loaded = next;
    // Retired keys publish their public half a while longer, so nothing still valid breaks.
    retiredPublished = retired
      .filter((row) => isStoredPublicJwk(row.publicJwk))
      .map((row) => {
        const jwk = row.publicJwk as { n: string; e: string };
        return { kty: "RSA", use: "sig", kid: row.id, alg: SIGNING_ALGORITHM, n: jwk.n, e: jwk.e };
      });
  };

  const loadedKeys = (): LoadedKey[] => {
    if (!loaded) throw new Error("signing keys are not loaded: call load() first");
    return loaded;
  };

  const jwks = (): Jwks => ({
    keys: [
      ...loadedKeys().map((key) => ({ ...key.publicJwk })),
      ...retiredPublished.map((key) => ({ ...key })),
    ],
  });

  const list = async (): Promise<SigningKeyInfo[]> => {
    const rows = await db.withPlatform((tx) =>
      tx.oidcSigningKey.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
    );
    const now = clock.now();
    const active = rows.filter((row) => row.isActive);
    const signing = signingKeyAt(active, now, delayMs)?.id;
    const oldestActive = active.at(-1)?.id;
    const since = now.getTime() - longest * 1000;
    return rows.map((row) => ({
      kid: row.id,
      algorithm: row.algorithm,
      active: row.isActive,
      signing: row.id === signing,
      published: row.isActive || (row.retiredAt !== null && row.retiredAt.getTime() > since),
      createdAt: row.createdAt.toISOString(),
      signsFrom: new Date(row.createdAt.getTime() + (row.id === oldestActive ? 0 : delayMs)).toISOString(),
      retiredAt: row.retiredAt?.toISOString() ?? null,
    }));
  };

  const rotate: SigningKeys["rotate"] = async (alsoInTransaction) => {
    const row = await generateKeyRow();
    await db.withPlatform(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${KEY_CREATION_LOCK}::bigint)`;
      await tx.oidcSigningKey.create({ data: { ...row, createdAt: clock.now() } });
      await alsoInTransaction?.(tx, row.id);
    });
    await load();
    const created = (await list()).find((key) => key.kid === row.id);
    if (!created) throw new Error("rotated key not found");
    return created;
  };

  const retire: SigningKeys["retire"] = async (kid, alsoInTransaction) => {
    const keys = await list();
    const index = keys.findIndex((key) => key.kid === kid);
    const key = keys[index];
    if (!key) throw new KeyStillNeededError(`No signing key ${kid}`);
    if (!key.active) return key;
    if (key.signing) throw new KeyStillNeededError(`Key ${kid} is the one that signs: rotate first`);
    // The newest active key signs once its delay has passed: retiring it would leave nothing to rotate to.
    if (keys.findIndex((other) => other.active) === index) {
      throw new KeyStillNeededError(`Key ${kid} signs from ${key.signsFrom}: rotate first`);
    }
    // It stopped signing when the next newer key started to; tokens it signed live at most `longest` after.
    const newer = keys.slice(0, index).filter((other) => other.active || other.retiredAt !== null);
    const stoppedSigning = Math.min(...newer.map((other) => new Date(other.signsFrom).getTime()));
    const safeAt = stoppedSigning + longest * 1000;
    if (clock.now().getTime() < safeAt) {
      throw new KeyStillNeededError(
        `Key ${kid} may still verify valid tokens until ${new Date(safeAt).toISOString()}`,
      );
    }
    await db.withPlatform(async (tx) => {
      await tx.oidcSigningKey.update({
        where: { id: kid },
        data: { isActive: false, retiredAt: clock.now() },
      });
      await alsoInTransaction?.(tx);
    });
    await load();
    const retired = (await list()).find((other) => other.kid === kid);
    if (!retired) throw new Error("retired key not found");
    return retired;
  };

  const signJwt = async (claims: Record<string, unknown>, options: SignJwtOptions): Promise<string> => {
    const key = signingKeyAt(loadedKeys(), clock.now(), delayMs);
    if (!key) throw new Error("no active signing key");
    if (!Number.isSafeInteger(options.expiresInSeconds) || options.expiresInSeconds <= 0) {
      throw new Error("expiresInSeconds must be a positive integer");
    }
    const iat = Math.floor(clock.now().getTime() / 1000);
    // The setters run after the claims, so options and the clock win over same-named claims.
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: "JWT" })
      .setIssuer(options.issuer)
      .setSubject(options.subject)
      .setAudience(options.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + options.expiresInSeconds)
      .sign(key.privateKey);
  };

  // RS256 → SHA-256; the left-most 128 bits, base64url without padding.
  const atHash = (accessToken: string): string =>
    createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");

  const reencrypt = async (newCryptoKey: string): Promise<number> => {
    const newEncryptionKey = deriveEncryptionKey(newCryptoKey);
    return db.withPlatform(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${KEY_CREATION_LOCK}::bigint)`;
      const rows = await tx.oidcSigningKey.findMany({ select: { id: true, privateKeyEncrypted: true } });
      for (const row of rows) {
        // Decrypting first refuses the whole change if any key does not open with the current one.
        const der = decryptPrivateKey(row.privateKeyEncrypted, encryptionKey);
        await tx.oidcSigningKey.update({
          where: { id: row.id },
          data: { privateKeyEncrypted: encryptPrivateKey(der, newEncryptionKey) },
        });
      }
      return rows.length;
    });
  };

  return { ensureActiveKey, load, jwks, signJwt, atHash, rotate, retire, list, reencrypt };
};
