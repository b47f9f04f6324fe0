import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import type { Db, Tx } from "@hisob/db";
import { createTestDb, insertTenant, testDatabaseKind } from "@hisob/db/testing";
import { createManualClock, newId } from "@hisob/kernel";
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decryptPrivateKey, deriveEncryptionKey, encryptPrivateKey } from "./key-encryption";
import { createSigningKeys, KEY_CREATION_LOCK, type SigningKeys } from "./signing-keys";

const CRYPTO_KEY = "integration-test crypto key, comfortably over 32 chars";
const WRONG_CRYPTO_KEY = "a different crypto key, also comfortably over 32 chars";
const ISSUER = "https://id.example.test";
const AUDIENCE = "client-123";
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let db: Db;
const clock = createManualClock(new Date("2026-03-01T12:00:00.000Z"));

const keysWith = (cryptoKey = CRYPTO_KEY): SigningKeys => createSigningKeys({ db, cryptoKey, clock });
const rows = () => db.withPlatform((tx) => tx.oidcSigningKey.findMany({ orderBy: { createdAt: "asc" } }));
const resetKeys = () => db.withPlatform((tx) => tx.oidcSigningKey.deleteMany({}));

const verifyOptions = () => ({
  issuer: ISSUER,
  audience: AUDIENCE,
  algorithms: ["RS256"],
  currentDate: clock.now(),
});

const sign = (keys: SigningKeys, claims: Record<string, unknown> = {}) =>
  keys.signJwt(claims, { expiresInSeconds: 300, audience: AUDIENCE, issuer: ISSUER, subject: "user-1" });

/** Inserts an active key the way ensureActiveKey stores one, created at `createdAt`. */
const insertKeyIn = async (tx: Tx, createdAt = clock.now()) => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const { n, e } = publicKey.export({ format: "jwk" });
  const id = newId();
  await tx.oidcSigningKey.create({
    data: {
      id,
      algorithm: "RS256",
      publicJwk: { kty: "RSA", n: n ?? "", e: e ?? "" },
      privateKeyEncrypted: encryptPrivateKey(
        privateKey.export({ format: "der", type: "pkcs8" }),
        deriveEncryptionKey(CRYPTO_KEY),
      ),
      createdAt,
    },
  });
  return id;
};
const insertKey = (createdAt: Date) => db.withPlatform((tx) => insertKeyIn(tx, createdAt));

beforeAll(async () => {
  db = await createTestDb();
});

afterAll(async () => {
  await db?.close();
});

describe("ensureActiveKey", () => {
  beforeEach(resetKeys);

  it("creates exactly one active RS256 key and is idempotent", async () => {
    expect(await rows()).toHaveLength(0);
    const keys = keysWith();
    await keys.ensureActiveKey();
    const [first, ...rest] = await rows();
    expect(rest).toHaveLength(0);
    expect(first).toMatchObject({
      algorithm: "RS256",
      isActive: true,
      retiredAt: null,
      createdAt: clock.now(),
    });
    expect(first?.id).toMatch(UUID_V7);

    await keys.ensureActiveKey();
    await keysWith().ensureActiveKey();
    expect((await rows()).map((r) => r.id)).toEqual([first?.id]);
  });

  it("creates one key when several processes start at once", async () => {
    await Promise.all(Array.from({ length: 4 }, () => keysWith().ensureActiveKey()));
    expect(await rows()).toHaveLength(1);
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "a starter that finds no key waits on the lock, then sees the key another process created meanwhile",
    async () => {
      // Polls pg_locks (no timers) until the second starter is queued on our advisory lock.
      const isWaiting = async () => {
        const [row] = await db.withPlatform(
          (tx) => tx.$queryRaw<Array<{ n: number }>>`
            SELECT count(*)::int AS n FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND ((classid::bigint << 32) | objid::bigint) = ${KEY_CREATION_LOCK}::bigint`,
        );
        return row?.n === 1;
      };
      let pending: Promise<void> | undefined;
      const heldId = await db.withPlatform(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${KEY_CREATION_LOCK}::bigint)`;
        // Uncommitted: the other starter's first look finds no key, so it generates one and queues.
        const id = await insertKeyIn(tx);
        pending = keysWith().ensureActiveKey();
        for (let i = 0; i < 10_000 && !(await isWaiting()); i++) {
          // another round trip
        }
        expect(await isWaiting()).toBe(true);
        return id;
      });
      await pending;
      expect((await rows()).map((r) => r.id)).toEqual([heldId]);
    },
  );

  it("stores only the public JWK and an encrypted PKCS#8 key that opens only with the right crypto key", async () => {
    await keysWith().ensureActiveKey();
    const [row] = await rows();
    if (!row) throw new Error("no key stored");

    expect(Object.keys(row.publicJwk as object).sort()).toEqual(["e", "kty", "n"]);
    expect(row.privateKeyEncrypted).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(row.privateKeyEncrypted).not.toMatch(/PRIVATE|BEGIN/);

    const der = decryptPrivateKey(row.privateKeyEncrypted, deriveEncryptionKey(CRYPTO_KEY));
    const privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    expect(privateKey.asymmetricKeyType).toBe("rsa");
    expect(privateKey.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, publicExponent: 65537n });
    const publicJwk = createPublicKey(privateKey).export({ format: "jwk" });
    expect(row.publicJwk).toEqual({ kty: "RSA", n: publicJwk.n, e: publicJwk.e });
    // Neither the DER nor any recognisable part of it sits in the stored blob.
    const stored = Buffer.from(row.privateKeyEncrypted, "base64url");
    expect(stored.includes(der.subarray(0, 32))).toBe(false);
    expect(row.privateKeyEncrypted.includes(der.toString("base64url").slice(0, 40))).toBe(false);

    expect(() => decryptPrivateKey(row.privateKeyEncrypted, deriveEncryptionKey(WRONG_CRYPTO_KEY))).toThrow(
      /^failed to decrypt private key$/,
    );
  });

  it("keeps the key table away from tenant transactions", async () => {
    const tenant = await insertTenant(db, "Keys wall");
    await expect(db.withTenant(tenant.id, (tx) => tx.oidcSigningKey.findMany())).rejects.toThrow(
      /permission denied/i,
    );
  });
});

describe("load, jwks and signJwt", () => {
  let keys: SigningKeys;
  let kid: string;

  beforeAll(async () => {
    await resetKeys();
    keys = keysWith();
    await keys.ensureActiveKey();
    await keys.load();
    kid = (await rows())[0]?.id ?? "";
  });

  it("refuses to start with a wrong crypto key", async () => {
    await expect(keysWith(WRONG_CRYPTO_KEY).load()).rejects.toThrow(/^failed to decrypt private key$/);
  });

  it("refuses a crypto key shorter than 32 characters", () => {
    expect(() => keysWith("too short")).toThrow(/at least 32 characters/);
  });

  it("asks for load() before use", async () => {
    const fresh = keysWith();
    expect(() => fresh.jwks()).toThrow(/load\(\)/);
    await expect(sign(fresh)).rejects.toThrow(/load\(\)/);
  });

  it("publishes exactly the spec's JWK fields and no private part", () => {
    const { keys: published } = keys.jwks();
    expect(published).toHaveLength(1);
    const [jwk] = published;
    expect(Object.keys(jwk ?? {}).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    expect(jwk).toMatchObject({ kty: "RSA", use: "sig", kid, alg: "RS256", e: "AQAB" });
    expect(jwk?.n).toMatch(/^[A-Za-z0-9_-]{342}$/); // 2048-bit modulus, base64url without padding
    for (const field of ["d", "p", "q", "dp", "dq", "qi"]) expect(jwk).not.toHaveProperty(field);
    // Mutating what was handed out does not touch the cache.
    if (jwk) jwk.n = "changed";
    expect(keys.jwks().keys[0]?.n).not.toBe("changed");
  });

  it("signs a JWT that verifies against the published key set", async () => {
    const token = await sign(keys, { nonce: "n-1", auth_time: 1_700_000_000 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "RS256", kid, typ: "JWT" });

    const { payload, protectedHeader } = await jwtVerify(
      token,
      createLocalJWKSet(keys.jwks()),
      verifyOptions(),
    );
    const iat = Math.floor(clock.now().getTime() / 1000);
    expect(protectedHeader.kid).toBe(kid);
    expect(payload).toEqual({
      iss: ISSUER,
      aud: AUDIENCE,
      sub: "user-1",
      iat,
      exp: iat + 300,
      nonce: "n-1",
      auth_time: 1_700_000_000,
    });
  });

  it("lets the options and the clock win over same-named claims", async () => {
    const token = await sign(keys, {
      iss: "https://evil.test",
      sub: "admin",
      aud: "other",
      iat: 1,
      exp: 9e9,
    });
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys.jwks()), verifyOptions());
    const iat = Math.floor(clock.now().getTime() / 1000);
    expect(payload).toMatchObject({ iss: ISSUER, sub: "user-1", aud: AUDIENCE, iat, exp: iat + 300 });
  });

  it("refuses a non-positive or fractional lifetime", async () => {
    for (const expiresInSeconds of [0, -1, 1.5, Number.NaN]) {
      await expect(
        keys.signJwt({}, { expiresInSeconds, audience: AUDIENCE, issuer: ISSUER, subject: "user-1" }),
      ).rejects.toThrow(/positive integer/);
    }
  });

  it("rejects wrong issuer, wrong audience and expired tokens", async () => {
    const jwks = createLocalJWKSet(keys.jwks());
    const token = await sign(keys);
    await expect(
      jwtVerify(token, jwks, { ...verifyOptions(), issuer: "https://other.test" }),
    ).rejects.toThrow(errors.JWTClaimValidationFailed);
    await expect(jwtVerify(token, jwks, { ...verifyOptions(), audience: "other" })).rejects.toThrow(
      errors.JWTClaimValidationFailed,
    );
    await expect(
      jwtVerify(token, jwks, { ...verifyOptions(), currentDate: new Date(clock.now().getTime() + 301_000) }),
    ).rejects.toThrow(errors.JWTExpired);
  });

  it("rejects an alg=none token, a tampered payload, an unknown kid and a foreign key under our kid", async () => {
    const jwks = createLocalJWKSet(keys.jwks());
    const token = await sign(keys);
    const [header, payload, signature] = token.split(".");
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

    const unsigned = `${b64({ alg: "none", kid, typ: "JWT" })}.${payload}.`;
    await expect(jwtVerify(unsigned, jwks, verifyOptions())).rejects.toThrow();
    await expect(jwtVerify(unsigned, jwks, { ...verifyOptions(), algorithms: undefined })).rejects.toThrow();

    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<string, unknown>;
    const tampered = `${header}.${b64({ ...claims, sub: "admin" })}.${signature}`;
    await expect(jwtVerify(tampered, jwks, verifyOptions())).rejects.toThrow(
      errors.JWSSignatureVerificationFailed,
    );

    const { privateKey: foreign } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const forge = (headerKid: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "RS256", kid: headerKid, typ: "JWT" })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject("user-1")
        .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
        .setExpirationTime("5m")
        .sign(foreign);
    await expect(jwtVerify(await forge(newId()), jwks, verifyOptions())).rejects.toThrow(
      errors.JWKSNoMatchingKey,
    );
    await expect(jwtVerify(await forge(kid), jwks, verifyOptions())).rejects.toThrow(
      errors.JWSSignatureVerificationFailed,
    );
  });

  it("atHash is the base64url left half of SHA-256 of the token", () => {
    const token = "some-opaque-access-token.1234567890";
    const expected = createHash("sha256").update(Buffer.from(token, "ascii")).digest().subarray(0, 16);
    expect(keys.atHash(token)).toBe(expected.toString("base64url"));
    expect(keys.atHash(token)).toHaveLength(22);
    // OIDC Core 1.0, Appendix A.4 example.
    expect(keys.atHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y")).toBe("77QmUPtjPfzWtF2AnpK9RQ");
  });

  it("refreshes on load(): newest key first and signing, inactive keys unpublished", async () => {
    const oldToken = await sign(keys);
    const newKid = await insertKey(new Date(clock.now().getTime() + 60_000));

    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([kid]); // cached until load()
    await keys.load();
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([newKid, kid]);

    clock.advance(60_000); // a key signs from its creation (no propagation delay here), not before
    const newToken = await sign(keys);
    expect(decodeProtectedHeader(newToken).kid).toBe(newKid);
    const jwks = createLocalJWKSet(keys.jwks());
    await expect(jwtVerify(newToken, jwks, verifyOptions())).resolves.toBeTruthy();
    await expect(jwtVerify(oldToken, jwks, verifyOptions())).resolves.toBeTruthy();

    await db.withPlatform((tx) =>
      tx.oidcSigningKey.update({ where: { id: kid }, data: { isActive: false } }),
    );
    await keys.load();
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([newKid]);
    await expect(jwtVerify(oldToken, createLocalJWKSet(keys.jwks()), verifyOptions())).rejects.toThrow(
      errors.JWKSNoMatchingKey,
    );
  });

  it("refuses a row whose stored public key does not match its private key, keeping the old cache", async () => {
    const before = keys.jwks();
    const [newest] = before.keys;
    const { n } = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" });
    await db.withPlatform((tx) =>
      tx.oidcSigningKey.update({
        where: { id: newest?.kid ?? "" },
        data: { publicJwk: { kty: "RSA", n: n ?? "", e: "AQAB" } },
      }),
    );
    await expect(keys.load()).rejects.toThrow(/does not match the private key/);
    expect(keys.jwks()).toEqual(before);
  });

  it("has no key to sign with when none is active", async () => {
    await db.withPlatform((tx) => tx.oidcSigningKey.updateMany({ data: { isActive: false } }));
    await keys.load();
    expect(keys.jwks()).toEqual({ keys: [] });
    await expect(sign(keys)).rejects.toThrow(/no active signing key/);
  });
});

describe("rotation across instances: published everywhere before it signs", () => {
  const DELAY_SECONDS = 120;
  // Two instances of one deployment: one database, their own key caches.
  const instance = () =>
    createSigningKeys({ db, cryptoKey: CRYPTO_KEY, clock, propagationDelaySeconds: DELAY_SECONDS });
  let a: SigningKeys;
  let b: SigningKeys;

  beforeEach(async () => {
    await resetKeys();
    a = instance();
    b = instance();
    await a.ensureActiveKey();
    await a.load();
    await b.load();
  });

  /** Each instance's token verifies against the other instance's key set, as a relying party would check. */
  const expectEachVerifiesAtTheOther = async () => {
    await expect(
      jwtVerify(await sign(a), createLocalJWKSet(b.jwks()), verifyOptions()),
    ).resolves.toBeTruthy();
    await expect(
      jwtVerify(await sign(b), createLocalJWKSet(a.jwks()), verifyOptions()),
    ).resolves.toBeTruthy();
  };

  it("the first key of an installation signs at once", async () => {
    const [only] = await a.list();
    expect(only).toMatchObject({ signing: true, signsFrom: only?.createdAt });
    await expectEachVerifiesAtTheOther();
  });

  it("a rotated key is published at once but signs only after the delay; the other instance's tokens verify all along", async () => {
    const [old] = await a.list();
    clock.advance(5_000);
    const rotated = await a.rotate();
    expect(rotated).toMatchObject({ signing: false, published: true });
    expect(new Date(rotated.signsFrom).getTime() - new Date(rotated.createdAt).getTime()).toBe(
      DELAY_SECONDS * 1000,
    );
    // The rotating instance publishes the new key and still signs with the old one.
    expect(a.jwks().keys.map((k) => k.kid)).toEqual([rotated.kid, old?.kid]);
    expect(decodeProtectedHeader(await sign(a)).kid).toBe(old?.kid);
    // B has not reloaded yet: it neither knows nor needs the new key.
    expect(b.jwks().keys.map((k) => k.kid)).toEqual([old?.kid]);
    await expectEachVerifiesAtTheOther();

    // B reloads within the delay (every instance reloads at least twice within it).
    clock.advance((DELAY_SECONDS / 2) * 1000);
    await b.load();
    await expectEachVerifiesAtTheOther();
    expect(decodeProtectedHeader(await sign(b)).kid).toBe(old?.kid);

    // The delay has passed: both sign with the new key, and both publish both keys.
    clock.advance((DELAY_SECONDS / 2) * 1000);
    expect(decodeProtectedHeader(await sign(a)).kid).toBe(rotated.kid);
    expect(decodeProtectedHeader(await sign(b)).kid).toBe(rotated.kid);
    await expectEachVerifiesAtTheOther();
    expect((await a.list()).find((k) => k.kid === rotated.kid)?.signing).toBe(true);
  });

  it("the old key cannot be retired until the tokens it signed up to the switch have expired", async () => {
    const [old] = await a.list();
    const rotated = await a.rotate();
    const longest = 30 * 24 * 3600 * 1000; // the default longest token lifetime
    // Just before the switch plus the longest lifetime: a token it signed at the switch is still valid.
    clock.advance(DELAY_SECONDS * 1000 + longest - 1000);
    await expect(a.retire(old?.kid ?? "")).rejects.toThrow(/may still verify/);
    clock.advance(1000);
    await expect(a.retire(old?.kid ?? "")).resolves.toMatchObject({ active: false });
    expect((await a.list()).find((k) => k.kid === rotated.kid)?.signing).toBe(true);
  });

  it("a second rotation within the delay keeps the oldest key signing until the newest is due", async () => {
    const [old] = await a.list();
    const first = await a.rotate();
    clock.advance(10_000);
    const second = await a.rotate();
    expect(decodeProtectedHeader(await sign(a)).kid).toBe(old?.kid);
    clock.advance((DELAY_SECONDS - 10) * 1000);
    expect(decodeProtectedHeader(await sign(a)).kid).toBe(first.kid);
    clock.advance(10_000);
    expect(decodeProtectedHeader(await sign(a)).kid).toBe(second.kid);
  });
});

describe("a new OIDC_CRYPTO_KEY", () => {
  beforeEach(resetKeys);

  it("re-encrypts every key, active and retired, so the set opens only with the new crypto key", async () => {
    const keys = keysWith();
    await keys.ensureActiveKey();
    await keys.rotate();
    await keys.load();
    const published = keys.jwks();
    expect(await keys.reencrypt(WRONG_CRYPTO_KEY)).toBe(2);

    const renewed = keysWith(WRONG_CRYPTO_KEY);
    await renewed.load();
    expect(renewed.jwks()).toEqual(published);
    await expect(
      jwtVerify(await sign(renewed), createLocalJWKSet(published), verifyOptions()),
    ).resolves.toBeTruthy();
    await expect(keysWith().load()).rejects.toThrow(/failed to decrypt private key/);
  });

  it("changes nothing when a stored key does not open with the current crypto key", async () => {
    const keys = keysWith();
    await keys.ensureActiveKey();
    const before = await rows();
    await expect(
      keysWith(WRONG_CRYPTO_KEY).reencrypt("yet another crypto key, over 32 characters"),
    ).rejects.toThrow(/failed to decrypt private key/);
    expect(await rows()).toEqual(before);
  });
});
