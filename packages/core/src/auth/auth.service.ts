import { type AuditWho, audit, type Db, type Outbox, sqlParams, stageAudit } from "@hisob/db";
import { AppError, type Clock, newId, parseInput, verifyAgainstDummy, verifyPassword } from "@hisob/kernel";
import { endSessionsWhere } from "../sessions/end-sessions";
import { hashToken, looksLikeToken, newSessionToken } from "../sessions/session-token";
import type { AttemptBudget, KnownNetworks, Reservation } from "./attempt-budget";
import { type TLoginInput, ZLoginInput } from "./auth.schema";
import { clientNetwork } from "./client-network";

export { type TLoginInput, ZLoginInput };

/** Browser sessions last one working day; documented in the README ("Sessions"). */
export const DEFAULT_SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

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
  /** Sign-in attempts per email + client network (reserved before the password is checked). */
  loginBudget: AttemptBudget;
  /** Failed sign-ins per client network, whatever the email (a flood of unknown emails stops here). */
  loginPerNetworkBudget: AttemptBudget;
  /** Failed sign-ins per account (email) from networks it has not signed in from: many networks guessing one account. */
  loginPerAccountBudget: AttemptBudget;
  /** Networks each account signed in from lately: the account-wide budget does not hold them back. */
  knownNetworks: KnownNetworks;
  sessionLifetimeMs?: number;
  passwords?: PasswordVerifier;
};

const invalidCredentials = () =>
  new AppError("UNAUTHENTICATED", {
    reason: "auth.invalid_credentials",
    message: "Invalid email or password",
  });

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError("RATE_LIMITED", {
    reason: "auth.too_many_attempts",
    message: "Too many failed sign-in attempts; try again later",
    params: { retryAfterSeconds },
  });

/** The audit log's "who" of a sign-in attempt (no tenant for an unknown email: a platform event). */
const whoSignsIn = (
  candidate: { tenantId: string; userId: string } | null,
  client: { ip: string; userAgent: string; requestId?: string },
): AuditWho => ({
  tenantId: candidate?.tenantId ?? null,
  actor: candidate ? { userId: candidate.userId } : null,
  client,
  ...(client.requestId ? { requestId: client.requestId } : {}),
});

/** Why an email that an upstream identity provider vouched for cannot sign in here. */
const externalRefusal = (reason: "auth.external_unknown_user" | "auth.external_account_disabled") =>
  new AppError("UNAUTHENTICATED", {
    reason,
    message:
      reason === "auth.external_unknown_user"
        ? "No user with this email exists here"
        : "This user or their organization is deactivated",
  });

export const createAuthService = (deps: AuthDeps) => {
  const passwords: PasswordVerifier = deps.passwords ?? {
    verify: verifyPassword,
    verifyDummy: verifyAgainstDummy,
  };
  const lifetimeMs = deps.sessionLifetimeMs ?? DEFAULT_SESSION_LIFETIME_MS;

  /**
   * A new session of a user who has just proven who they are (password, or an upstream provider):
   * the session and its audit entry are one statement on the driver, committed with it — one round
   * trip, and signing in does not load Prisma's query compiler.
   */
  const openSession = async (
    candidate: { tenantId: string; userId: string },
    client: { ip: string; userAgent: string; requestId?: string },
  ): Promise<LoginResult> => {
    const token = newSessionToken();
    const now = deps.clock.now();
    const id = newId();
    const params = sqlParams();
    const $ = (value: unknown) => params.add(value);
    const values = [
      `${$(id)}::uuid`,
      `${$(candidate.tenantId)}::uuid`,
      `${$(candidate.userId)}::uuid`,
      `${$(hashToken(token))}::text`,
      `${$(client.ip.slice(0, 64))}::text`,
      `${$(client.userAgent.slice(0, 512))}::text`,
      `${$(now)}::timestamptz`,
      `${$(new Date(now.getTime() + lifetimeMs))}::timestamptz`,
      // Signing in is its first use.
      `${$(now)}::timestamptz`,
    ].join(", ");
    const signedIn = stageAudit(
      params,
      whoSignsIn(candidate, client),
      "session",
      id,
      "sign_in",
      {},
      {
        from: "created",
      },
    );
    const [session] = await deps.db.rawTx.withTenant(candidate.tenantId, (tx) =>
      tx.query<LoginResult["session"]>(
        `WITH created AS (
           INSERT INTO sessions (id, tenant_id, user_id, token_hash, ip, user_agent, created_at, expires_at, last_access_at)
           VALUES (${values})
           RETURNING id, user_id, tenant_id, expires_at, created_at
         ), signed_in AS (${signedIn})
         SELECT id::text AS "id", user_id::text AS "userId", tenant_id::text AS "tenantId",
                expires_at AS "expiresAt", created_at AS "createdAt"
           FROM created`,
        params.values,
        { prepared: true, commit: true },
      ),
    );
    if (!session) throw new Error("The new session was not returned");
    return { token, session };
  };

  return {
    sessionLifetimeMs: lifetimeMs,

    /**
     * Email + password → a new session. Wrong email and wrong password get the same message and
     * the same work (an unknown email is verified against a dummy hash). Each attempt is reserved
     * from its budgets before the password is checked, so parallel guesses cannot outrun them: the
     * email + client network's, the client network's alone (so changing the email each time does
     * not help) and, from a network the account has not signed in from lately, the account's (so
     * many networks guessing one account do not help either, while its user still signs in from
     * their usual networks). A failure counts in each and is recorded in the audit log, one row per
     * client network and window with a count (db.system.recordFailedSignIn); a success starts the
     * email + network's budget afresh, gives its attempt back to the others and remembers the
     * network. RATE_LIMITED with retryAfterSeconds when a budget is spent.
     */
    login: async (
      raw: unknown,
      client: { ip: string; userAgent: string; requestId?: string },
    ): Promise<LoginResult> => {
      const input = parseInput(ZLoginInput, raw);
      const email = input.email.toLowerCase();
      const network = clientNetwork(client.ip);
      const budgetKey = `${email}|${network}`;
      const perNetwork = await deps.loginPerNetworkBudget.reserve(network);
      if (!perNetwork.ok) throw tooManyAttempts(perNetwork.retryAfterSeconds);
      const perEmail = await deps.loginBudget.reserve(budgetKey);
      if (!perEmail.ok) {
        await perNetwork.release();
        throw tooManyAttempts(perEmail.retryAfterSeconds);
      }
      const reservations = [perNetwork, perEmail] as Array<Reservation & { ok: true }>;
      if (!(await deps.knownNetworks.has(email, network))) {
        const perAccount = await deps.loginPerAccountBudget.reserve(email);
        if (!perAccount.ok) {
          await Promise.all(reservations.map((reservation) => reservation.release()));
          throw tooManyAttempts(perAccount.retryAfterSeconds);
        }
        reservations.push(perAccount);
      }
      let candidate: Awaited<ReturnType<Db["system"]["findLoginByEmail"]>>;
      let passwordOk: boolean;
      try {
        candidate = await deps.db.system.findLoginByEmail(email);
        passwordOk = candidate?.passwordHash
          ? await passwords.verify(candidate.passwordHash, input.password)
          : await passwords.verifyDummy(input.password);
      } catch (error) {
        // Nothing was learnt (the database is away): the attempts go back.
        await Promise.all(reservations.map((reservation) => reservation.release()));
        throw error;
      }
      // Inactive users and tenants get the same answer: nothing to learn about accounts here.
      if (!candidate || !passwordOk || !candidate.isActive || !candidate.tenantIsActive) {
        await Promise.all(reservations.map((reservation) => reservation.keep()));
        const reason = !candidate ? "unknown_email" : !passwordOk ? "wrong_password" : "inactive";
        await deps.db.system.recordFailedSignIn(whoSignsIn(candidate, client), {
          email,
          reason,
          network,
          at: deps.clock.now(),
        });
        throw invalidCredentials();
      }
      // The network's and the account's counts stay: one account the attacker owns, or the real
      // user signing in meanwhile, must not wipe out the guesses made against the others.
      await Promise.all([
        deps.loginBudget.clear(budgetKey),
        ...reservations.filter((reservation) => reservation !== perEmail).map((r) => r.release()),
        deps.knownNetworks.add(email, network),
      ]);
      return openSession(candidate, client);
    },

    /**
     * An email an upstream OpenID provider verified (the caller checked `email_verified`) → a new
     * session of the platform user with that email. No password and no attempt budget: the upstream
     * authenticated the person. Unknown emails and disabled users or organizations are refused by name,
     * since whoever gets here has proven they own the address.
     */
    signInWithVerifiedEmail: async (
      email: string,
      client: { ip: string; userAgent: string; requestId?: string },
    ): Promise<LoginResult> => {
      const candidate = await deps.db.system.findLoginByEmail(email.trim().toLowerCase());
      if (!candidate) throw externalRefusal("auth.external_unknown_user");
      if (!candidate.isActive || !candidate.tenantIsActive)
        throw externalRefusal("auth.external_account_disabled");
      return openSession(candidate, client);
    },

    /** Ends the session behind `token` (no error when it is already gone). */
    /**
     * Signs out: ends the token's session, and the audit log records who signed out, from where, in the
     * same transaction (nothing when the session had already ended).
     */
    logout: async (token: string, from: Pick<AuditWho, "requestId" | "client"> = {}): Promise<boolean> => {
      if (!looksLikeToken(token)) return false;
      const found = await deps.db.system.findSessionByTokenHash(hashToken(token));
      if (!found) return false;
      const ended = await deps.db.withTenant(found.tenantId, async (tx) => {
        const count = await endSessionsWhere(tx, deps.outbox, found.tenantId, { id: found.id }, "signed_out");
        if (count > 0) {
          const who: AuditWho = { tenantId: found.tenantId, actor: { userId: found.userId }, ...from };
          await audit(tx, who, "session", found.id, "sign_out");
        }
        return count;
      });
      return ended > 0;
    },

    /**
     * Ends login sessions by id (RP-initiated logout); unknown ids are ignored. Each ended session is
     * audited as its owner's sign-out, as the REST logout is.
     */
    endSessions: async (
      sessionIds: readonly string[],
      from: Pick<AuditWho, "requestId" | "client"> = {},
    ): Promise<number> => {
      let ended = 0;
      for (const id of new Set(sessionIds)) {
        if (!/^[0-9a-f-]{36}$/i.test(id)) continue;
        const tenantId = await deps.db.system.findSessionTenant(id);
        if (!tenantId) continue;
        ended += await deps.db.withTenant(tenantId, async (tx) => {
          const owner = await tx.session.findFirst({ where: { id, tenantId }, select: { userId: true } });
          const count = await endSessionsWhere(tx, deps.outbox, tenantId, { id }, "signed_out");
          if (count > 0 && owner) {
            const who: AuditWho = { tenantId, actor: { userId: owner.userId }, ...from };
            await audit(tx, who, "session", id, "sign_out");
          }
          return count;
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
