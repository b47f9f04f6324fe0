import type { Db, Outbox } from "@hisob/db";
import { type Clock, systemClock } from "@hisob/kernel";
import { createAuditService } from "./audit/audit.service";
import { createCoreBudgets, type ThrottleStore } from "./auth/attempt-budget";
import { createAuthService, type PasswordVerifier } from "./auth/auth.service";
import { createContextService } from "./auth/context.service";
import { createConsentsService } from "./consents/consents.service";
import { createCurrenciesService } from "./currencies/currencies.service";
import { createGroupsService } from "./groups/groups.service";
import { createProfileService } from "./profile/profile.service";
import { createRolesService } from "./roles/roles.service";
import { createSessionsService } from "./sessions/sessions.service";
import { createSettingsService } from "./settings/settings.service";
import { createTenantsService } from "./tenants/tenants.service";
import type { UploadStorage } from "./uploads/storage";
import { createUploadsService } from "./uploads/uploads.service";
import { createUsersService } from "./users/users.service";

export type CoreServiceDeps = {
  db: Db;
  outbox: Outbox;
  clock?: Clock;
  /** Where attempt budgets (sign-in, current password, email checks) count: memory, or Redis for several instances. */
  throttleStore?: ThrottleStore;
  sessionLifetimeMs?: number;
  passwords?: PasswordVerifier;
  /** Where uploaded files are stored (createUploadStorage: local disk, database or S3). */
  uploadStorage: UploadStorage;
  maxUploadBytes?: number;
};

/** The core module's services, shared by every transport (REST, GraphQL, tRPC). */
export const createCoreServices = (deps: CoreServiceDeps) => {
  const clock = deps.clock ?? systemClock;
  const { db, outbox } = deps;
  const budgets = createCoreBudgets(clock, deps.throttleStore);
  const auth = createAuthService({
    db,
    outbox,
    clock,
    loginBudget: budgets.login,
    loginPerNetworkBudget: budgets.loginPerNetwork,
    loginPerAccountBudget: budgets.loginPerAccount,
    knownNetworks: budgets.knownNetworks,
    ...(deps.sessionLifetimeMs ? { sessionLifetimeMs: deps.sessionLifetimeMs } : {}),
    ...(deps.passwords ? { passwords: deps.passwords } : {}),
  });
  return {
    auth,
    context: createContextService({ db, clock }),
    users: createUsersService({ db, outbox, emailTakenBudget: budgets.emailTaken }),
    sessions: createSessionsService({ db, outbox, clock }),
    consents: createConsentsService({ db, outbox, clock }),
    roles: createRolesService({ db, outbox, clock }),
    groups: createGroupsService({ db, outbox, clock }),
    profile: createProfileService({ db, outbox, currentPasswordBudget: budgets.currentPassword }),
    tenants: createTenantsService({ db, outbox }),
    audit: createAuditService({ db }),
    currencies: createCurrenciesService({ db }),
    settings: createSettingsService({ db }),
    uploads: createUploadsService({
      db,
      storage: deps.uploadStorage,
      ...(deps.maxUploadBytes ? { maxBytes: deps.maxUploadBytes } : {}),
    }),
  };
};

export type CoreServices = ReturnType<typeof createCoreServices>;
