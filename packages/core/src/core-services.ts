import type { Db, Outbox } from "@hisob/db";
import { type Clock, systemClock } from "@hisob/kernel";
import { createAccountService } from "./account/account.service";
import { createAuthService, type PasswordVerifier } from "./auth/auth.service";
import { createContextService } from "./auth/context.service";
import { createLoginThrottle, type ThrottleStore } from "./auth/login-throttle";
import { createUsersService } from "./users/users.service";

export type CoreServiceDeps = {
  db: Db;
  outbox: Outbox;
  clock?: Clock;
  throttleStore?: ThrottleStore;
  sessionLifetimeMs?: number;
  passwords?: PasswordVerifier;
};

/** The core module's services, shared by every transport (REST, GraphQL, tRPC). */
export const createCoreServices = (deps: CoreServiceDeps) => {
  const clock = deps.clock ?? systemClock;
  const { db, outbox } = deps;
  const auth = createAuthService({
    db,
    outbox,
    clock,
    throttle: createLoginThrottle({ clock, ...(deps.throttleStore ? { store: deps.throttleStore } : {}) }),
    ...(deps.sessionLifetimeMs ? { sessionLifetimeMs: deps.sessionLifetimeMs } : {}),
    ...(deps.passwords ? { passwords: deps.passwords } : {}),
  });
  return {
    auth,
    context: createContextService({ db, auth }),
    users: createUsersService({ db, outbox }),
    account: createAccountService({ db, outbox }),
  };
};

export type CoreServices = ReturnType<typeof createCoreServices>;
