import type { CoreServices } from "@hisob/core";
import type { CrmServices } from "@hisob/crm";
import type { FinanceServices } from "@hisob/finance";
import type { HrmServices } from "@hisob/hrm";
import { AppError, type Locale, type TenantContext } from "@hisob/kernel";
import type { ProjectsServices } from "@hisob/projects";
import type { WarehouseServices } from "@hisob/warehouse";
import type { Loaders } from "./loaders";
import type { PubSub } from "./pubsub";

/** Every module's services: the same objects REST and tRPC call. */
export type GraphqlServices = CoreServices & {
  finance: FinanceServices;
  crm: CrmServices;
  warehouse: WarehouseServices;
  projects: ProjectsServices;
  hrm: HrmServices;
};

/** What the host (HTTP or WebSocket) knows about the caller before execution. */
export type GraphqlRequestContext = {
  /** The caller from the session cookie or a bearer token; null when anonymous. */
  caller: TenantContext | null;
  requestId: string;
  /** The caller's language (theirs when signed in, else the request's Accept-Language). */
  locale: Locale;
  client: { ip: string; userAgent: string };
  /** Sets or clears the `session` cookie; a no-op over WebSocket (there is no response to carry it). */
  sessionCookie: { set(token: string, expiresAt: Date): void; clear(): void };
  /**
   * Sign-in through the upstream OpenID provider, when the server has one configured (`googleAuthenticate`).
   * `start` sets the flow cookie on the HTTP response and returns the upstream authorization URL.
   */
  externalSignIn?:
    | { provider: string; start(next: string | undefined): Promise<{ url: string; expiresAt: Date }> }
    | undefined;
  /** Filled by execution: the kinds of operation run, so the host can pick the Cache-Control. */
  executed: { operations: Set<"query" | "mutation" | "subscription"> };
};

/** What resolvers get: the request's context plus the services, per-request loaders and the pub/sub. */
export type GraphqlContext = GraphqlRequestContext & {
  services: GraphqlServices;
  loaders: Loaders;
  pubsub: PubSub;
};

/** The signed-in caller, or UNAUTHENTICATED ("Unauthorized"). */
export const callerOf = (context: GraphqlContext): TenantContext => {
  if (!context.caller) throw new AppError("UNAUTHENTICATED");
  return context.caller;
};
