import type { Db, Outbox, Tx } from "@hisob/db";
import { AppError, type Clock, parseInput, verifyAgainstDummy, verifyPassword } from "@hisob/kernel";
import { z } from "zod";
import { hashToken, looksLikeToken, newSessionToken } from "../sessions/session-token";
import type { LoginThrottle } from "./login-throttle";

/** Browser sessions last one working day; documented in the README ("Sessions"). */
export const DEFAULT_SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

export const ZLoginInput = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

/** Who a credential belongs to, before permissions are loaded. */
export type Principal = {
  tenantId: string;
  userId: string;
  sessionId?: string;
  /** When the user authenticated (the login session's start): OIDC's auth_time. */
  authTime?: Date;
};

export type LoginResult = {
  token: string;
  session: { id: string; userId: string; tenantId: string; expiresAt: Date; createdAt: Date };
};

/** Password checks, injectable so tests can prove unknown emails do the same work. */
export type PasswordVerifier = {
  verify(storedHash: string, password: string): Promise<boolean>;
  verifyDummy(password: string): Promise<false>;
};

export type AuthDeps = {
  db: Db;
  outbox: Outbox;
  clock: Clock;
  throttle: LoginThrottle;
  sessionLifetimeMs?: number;
  passwords?: PasswordVerifier;
};

const invalidCredentials = () =>
  new AppError("UNAUTHENTICATED", {
    reason: "auth.invalid_credentials",
    message: "Invalid email or password",
  });

/**
 * Announces an ended session. The payload names the session by its public id (never its token) and
 * carries what is known of it, for the GraphQL `sessionDeleted` subscription of its owner.
 */
export const raiseSessionDeleted = (
  outbox: Outbox,
  tx: Tx,
  session: {
    id: string;
    tenantId: string;
    userId: string;
    ip?: string;
    userAgent?: string;
    createdAt?: Date;
    expiresAt?: Date;
  },
) =>
  outbox.raise(tx, {
    type: "SessionDeleted",
    tenantId: session.tenantId,
    payload: {
      sessionId: session.id,
      userId: session.userId,
      ...(session.ip === undefined ? {} : { ip: session.ip }),
      ...(session.userAgent === undefined ? {} : { userAgent: session.userAgent }),
      ...(session.createdAt ? { createdAt: session.createdAt.toISOString() } : {}),
      ...(session.expiresAt ? { expiresAt: session.expiresAt.toISOString() } : {}),
    },
  });

export const createAuthService = (deps: AuthDeps) => {
  const passwords: PasswordVerifier = deps.passwords ?? {
    verify: verifyPassword,
    verifyDummy: verifyAgainstDummy,
  };
  const lifetimeMs = deps.sessionLifetimeMs ?? DEFAULT_SESSION_LIFETIME_MS;

  return {
    sessionLifetimeMs: lifetimeMs,

    /**
     * Email + password → a new session. Wrong email and wrong password get the same message and
     * the same work (an unknown email is verified against a dummy hash); 5 failures for one
     * email + IP within 15 minutes block that pair (RATE_LIMITED with retryAfterSeconds).
     */
    login: async (raw: unknown, client: { ip: string; userAgent: string }): Promise<LoginResult> => {
      const input = parseInput(ZLoginInput, raw);
      const email = input.email.toLowerCase();
      const throttleKey = `${email}|${client.ip}`;
      const retryAfterSeconds = await deps.throttle.retryAfterSeconds(throttleKey);
      if (retryAfterSeconds > 0) {
        throw new AppError("RATE_LIMITED", {
          reason: "auth.too_many_attempts",
          message: "Too many failed sign-in attempts; try again later",
          params: { retryAfterSeconds },
        });
      }
      const candidate = await deps.db.system.findLoginByEmail(email);
      const passwordOk = candidate?.passwordHash
        ? await passwords.verify(candidate.passwordHash, input.password)
        : await passwords.verifyDummy(input.password);
      // Inactive users and tenants get the same answer: nothing to learn about accounts here.
      if (!candidate || !passwordOk || !candidate.isActive || !candidate.tenantIsActive) {
        await deps.throttle.recordFailure(throttleKey);
        throw invalidCredentials();
      }
      await deps.throttle.reset(throttleKey);
      const token = newSessionToken();
      const now = deps.clock.now();
      const session = await deps.db.withTenant(candidate.tenantId, (tx) =>
        tx.session.create({
          data: {
            tenantId: candidate.tenantId,
            userId: candidate.userId,
            tokenHash: hashToken(token),
            ip: client.ip.slice(0, 64),
            userAgent: client.userAgent.slice(0, 512),
            createdAt: now,
            expiresAt: new Date(now.getTime() + lifetimeMs),
          },
          select: { id: true, userId: true, tenantId: true, expiresAt: true, createdAt: true },
        }),
      );
      return { token, session };
    },

    /** Ends the session behind `token` (no error when it is already gone). */
    logout: async (token: string): Promise<boolean> => {
      if (!looksLikeToken(token)) return false;
      const found = await deps.db.system.findSessionByTokenHash(hashToken(token));
      if (!found) return false;
      return deps.db.withTenant(found.tenantId, async (tx) => {
        const deleted = await tx.session.deleteMany({ where: { tenantId: found.tenantId, id: found.id } });
        if (deleted.count > 0) await raiseSessionDeleted(deps.outbox, tx, found);
        return deleted.count > 0;
      });
    },

    /** Ends login sessions by id (RP-initiated logout); unknown ids are ignored. */
    endSessions: async (sessionIds: readonly string[]): Promise<number> => {
      let ended = 0;
      for (const id of new Set(sessionIds)) {
        if (!/^[0-9a-f-]{36}$/i.test(id)) continue;
        const tenantId = await deps.db.system.findSessionTenant(id);
        if (!tenantId) continue;
        ended += await deps.db.withTenant(tenantId, async (tx) => {
          const session = await tx.session.findFirst({ where: { tenantId, id } });
          if (!session) return 0;
          await tx.session.delete({ where: { id } });
          await raiseSessionDeleted(deps.outbox, tx, session);
          return 1;
        });
      }
      return ended;
    },

    /** A session token (cookie or bearer) → its principal; null when unknown, expired or disabled. */
    resolveSessionToken: async (token: string): Promise<Principal | null> => {
      if (!looksLikeToken(token)) return null;
      const session = await deps.db.system.findSessionByTokenHash(hashToken(token));
      if (!session) return null;
      if (session.expiresAt.getTime() <= deps.clock.now().getTime()) return null;
      if (!session.userIsActive || !session.tenantIsActive) return null;
      return {
        tenantId: session.tenantId,
        userId: session.userId,
        sessionId: session.id,
        authTime: session.createdAt,
      };
    },
  };
};

export type AuthService = ReturnType<typeof createAuthService>;
