export {
  type AuditChange,
  type AuditWho,
  asPlatformEvent,
  audit,
  auditStep,
  auditStepValues,
  diffFields,
  stageAudit,
} from "./audit";
export {
  CallerChangedError,
  type CallerCheck,
  pendingCallerCheck,
  withCallerCheck,
} from "./caller-check";
export { Prisma, PrismaClient, type Tx } from "./client";
export { createDb, type Db, type DbConfig, embeddedDatabaseExists, type TxOptions } from "./create-db";
export type { Credential, CredentialKind } from "./credential-scope";
export { lockDataDir } from "./data-dir-lock";
export {
  appErrorFromDatabase,
  DATABASE_RETRY_AFTER_SECONDS,
  DatabaseSetupError,
  databaseUnavailable,
  isDatabaseUnreachable,
  isNumericOverflow,
  isUniqueViolation,
  violatedForeignKey,
} from "./errors";
export { idempotent, idempotentRaw } from "./idempotency";
export {
  checksumOf,
  MIGRATIONS_DIR,
  type MigrateResult,
  type Migration,
  migrate,
  readMigrations,
} from "./migrate";
export { createOutbox, type Outbox } from "./outbox";
export { PGLITE_EXTENSIONS } from "./pglite-extensions";
export { toProblem } from "./problem";
export {
  type QueryOptions,
  type RawTenantTx,
  type RawTransactions,
  type SqlParams,
  sqlParams,
} from "./raw-tenant";
export type { ResolvedCaller } from "./resolved-caller";
export { DB_ROLES } from "./roles";
export {
  SIGN_IN_FAILURE_EMAILS,
  SIGN_IN_FAILURE_WINDOW_MS,
  type SignInFailure,
} from "./sign-in-failures";
export type { LoginCandidate, SessionLookup, SystemQueries } from "./system";
export { afterCommit } from "./tx-hooks";
