import { createOutbox, type Db, type Outbox } from "@hisob/db";
import { createTestDb } from "@hisob/db/testing";
import { type AppError, type Clock, isAppError, type Permission, type TenantContext } from "@hisob/kernel";
import { type CoreServiceDeps, type CoreServices, createCoreServices } from "../core-services";
import { syncPermissions } from "../permissions/permissions.sync";
// Core's own permissions, synced with the module's: a tenant's admin role may then choose currencies
// and the rest of what core does, even in a module that imports nothing else of core.
import "../permissions/core.permissions";
import { ADMIN_ROLE_NAME, provisionTenant } from "../tenants/provision-tenant";
import { createUploadStorage } from "../uploads/create-storage";
import { insertUser } from "../users/insert-user";

/*
 * The shared test kit (docs/decisions/0091-tests-beside-their-features.md): a database per test file,
 * tenants and signed-in users as fixtures, and callers' contexts, for the tests beside a feature
 * (`packages/<module>/src/<feature>/*.int.test.ts`) and for the server's transport tests, whose test
 * app (apps/server/src/testing/test-app.ts) seeds its tenants and users with the same functions.
 * Everything is real: the database (PGlite, or PostgreSQL with DATABASE_URL), the services, the
 * sign-in that makes the session and the context service that resolves it.
 */

/** A seeded user, signed in: `token` is its session; `headers` and `cookie` carry it over HTTP. */
export type SeededUser = {
  id: string;
  email: string;
  password: string;
  token: string;
  headers: { authorization: string };
  cookie: string;
};

export const TEST_PASSWORD = "Test-Passw0rd!";
let sequence = 0;

/** A new tenant with its admin role (`platform: true` → the platform tenant, whose admins manage tenants). */
export const seedTenant = async (
  deps: { db: Db; outbox: Outbox },
  name = `Tenant ${++sequence}`,
  options: { platform?: boolean } = {},
): Promise<{ id: string; adminRoleId: string }> => {
  const tenant = await provisionTenant(deps, { name, isPlatform: options.platform ?? false });
  return { id: tenant.id, adminRoleId: tenant.adminRoleId };
};

/** A user in `tenantId` holding exactly `permissions` (through a role of its own), signed in. */
export const seedUser = async (
  deps: { db: Db; outbox: Outbox; auth: CoreServices["auth"] },
  tenantId: string,
  permissions: readonly Permission[] | "admin",
  options: { email?: string; password?: string } = {},
): Promise<SeededUser> => {
  const { db, outbox } = deps;
  const email = options.email ?? `user${++sequence}.${Date.now()}@example.com`;
  const password = options.password ?? TEST_PASSWORD;
  await db.withTenant(tenantId, async (tx) => {
    let roleNames = [ADMIN_ROLE_NAME];
    if (permissions !== "admin") {
      const names = [...permissions];
      const found = await tx.permission.findMany({ where: { name: { in: names } }, select: { id: true } });
      if (found.length !== new Set(names).size) throw new Error(`Unknown permission in ${names.join(", ")}`);
      const role = await tx.role.create({
        data: {
          tenantId,
          name: `role-${++sequence}`,
          permissions: { create: found.map((permission) => ({ tenantId, permissionId: permission.id })) },
        },
      });
      roleNames = [role.name];
    }
    await insertUser(tx, outbox, tenantId, {
      email,
      password,
      firstName: "Test",
      lastName: `User ${sequence}`,
      roleNames,
    });
  });
  const { token, session } = await deps.auth.login(
    { email, password },
    { ip: "127.0.0.1", userAgent: "vitest" },
  );
  return {
    id: session.userId,
    email,
    password,
    token,
    headers: { authorization: `Bearer ${token}` },
    cookie: `session=${token}`,
  };
};

/**
 * The refusal a service call ends in: its AppError (code, reason, params), which every transport
 * turns into the same answer. A call that succeeds, or fails with anything else, fails the test.
 */
export const refusalOf = async (call: Promise<unknown>): Promise<AppError> => {
  try {
    await call;
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal, the call succeeded");
};

/** The field paths a VALIDATION_ERROR names (`params.issues[].path`). */
export const issuePaths = (error: AppError): string[] =>
  ((error.params.issues ?? []) as { path: string }[]).map((issue) => issue.path);

/** What a module adds to the kit's services (e.g. `{ finance: createFinanceServices(deps) }`). */
export type ModuleServices<S> = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => S;

export type ServiceTestKit<S = object> = {
  db: Db;
  outbox: Outbox;
  /** The core services and the module's, over this file's database. */
  services: CoreServices & S;
  /** A new tenant with its admin role. */
  createTenant(name?: string, options?: { platform?: boolean }): Promise<{ id: string; adminRoleId: string }>;
  /** A user in `tenantId` holding exactly `permissions`, signed in. */
  createUser(
    tenantId: string,
    permissions: readonly Permission[] | "admin",
    options?: { email?: string; password?: string },
  ): Promise<SeededUser>;
  /** The context a request of `user` gets (resolved from its session, as every transport does). */
  contextOf(user: SeededUser, requestId?: string): Promise<TenantContext>;
  close(): Promise<void>;
};

/**
 * A fresh database for this test file with the services over it: call it in `beforeAll`, close it
 * in `afterAll`. Import the module under test before calling it: importing a module registers its
 * permissions, which this syncs into the database.
 */
export const createServiceTestKit = async <S = object>(
  options: {
    services?: ModuleServices<S>;
    clock?: Clock;
    core?: Partial<Omit<CoreServiceDeps, "db" | "outbox" | "uploadStorage">>;
    /** PostgreSQL connection pool size (default 4); concurrency tests ask for more. */
    poolSize?: number;
    /** Hears every SQL statement (tests count them). */
    onQuery?: (sql: string) => void;
  } = {},
): Promise<ServiceTestKit<S>> => {
  const db = await createTestDb({
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
  });
  // As the server's: nothing else runs handlers here, so events no handler subscribes to are settled.
  const outbox = createOutbox(db, { unhandled: "settle" });
  await syncPermissions(db);
  const clock = options.clock ? { clock: options.clock } : {};
  const core = createCoreServices({
    db,
    outbox,
    uploadStorage: createUploadStorage({ driver: "database" }, db),
    ...clock,
    ...options.core,
  });
  const services = { ...core, ...(options.services?.({ db, outbox, ...clock }) ?? ({} as S)) };
  return {
    db,
    outbox,
    services,
    createTenant: (name, tenantOptions) => seedTenant({ db, outbox }, name, tenantOptions),
    createUser: (tenantId, permissions, userOptions) =>
      seedUser({ db, outbox, auth: core.auth }, tenantId, permissions, userOptions),
    contextOf: async (user, requestId = "test") => {
      const ctx = await core.context.resolveContext({ bearerToken: user.token, requestId });
      if (!ctx) throw new Error(`the session of ${user.email} did not resolve`);
      return ctx;
    },
    close: async () => {
      await outbox.stop();
      await db.close();
    },
  };
};
