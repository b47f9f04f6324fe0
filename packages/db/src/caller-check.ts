import { AsyncLocalStorage } from "node:async_hooks";
import type { ResolvedCaller } from "./resolved-caller";

/**
 * A caller taken from an in-process cache, still to be confirmed by the database. The request's
 * first transaction in the caller's tenant confirms it in the statement that sets that
 * transaction's tenant and role (no extra round trip): the statement also returns the caller as
 * `hisob_resolve_caller` sees it now, and `accept` compares. A session ended, a user or tenant
 * deactivated or a permission changed on any instance is therefore seen by the very next request
 * on every instance, cache or not.
 */
export type CallerCheck = {
  readonly tenantId: string;
  readonly tokenHash: string;
  readonly kinds: ReadonlyArray<"session" | "oidc">;
  /** Set once a transaction has confirmed the cached caller. */
  verified: boolean;
  /** What the database says now (null: no such credential); throws CallerChangedError when it differs. */
  accept(fresh: ResolvedCaller | null): void;
};

/** The cached caller is out of date: the request must run again with the caller resolved afresh. */
export class CallerChangedError extends Error {
  constructor() {
    super("The caller changed since it was cached");
    this.name = "CallerChangedError";
  }
}

const storage = new AsyncLocalStorage<CallerCheck>();

/** Runs `fn` (a request's handler) so that its first transaction in the caller's tenant confirms `check`. */
export const withCallerCheck = <T>(check: CallerCheck, fn: () => T): T => storage.run(check, fn);

/** The check a transaction in `tenantId` must make first, if any. */
export const pendingCallerCheck = (tenantId: string): CallerCheck | undefined => {
  const check = storage.getStore();
  return check && !check.verified && check.tenantId === tenantId ? check : undefined;
};
