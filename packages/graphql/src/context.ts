import type { CoreServices } from "@hisob/core";
import type { CrmServices } from "@hisob/crm";
import type { FinanceServices } from "@hisob/finance";
import type { HrmServices } from "@hisob/hrm";
import { AppError, type Locale, type TenantContext } from "@hisob/kernel";
import type { ProjectsServices } from "@hisob/projects";
import type { WarehouseServices } from "@hisob/warehouse";
import type { Loaders } from "./loaders";
import type { PubSub } from "./pubsub";
import type { WorkGate } from "./work-gate";

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
  /**
   * Set when the host took the caller from its cache, still to be confirmed: queries confirm it in
   * their first transaction (and the host runs them again if it changed), while a mutation calls this
   * before it runs, to go on with the caller as the database sees it now.
   */
  confirmCaller?: () => Promise<TenantContext | null>;
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
  /**
   * How the operation arrived. Subscriptions are served over WebSocket only: over HTTP they are refused
   * before they subscribe (docs/decisions/0010-graphql-subscriptions-over-websocket-only.md).
   */
  transport: "http" | "websocket";
  /** The caller's share of the database (work-gate.ts); every service call of the operation goes through it. */
  work?: WorkGate | undefined;
  /**
   * Filled by execution, for the host's Cache-Control choice: the kinds of operation run, and whether
   * one read the schema (`__schema`, `__type`).
   */
  executed: { operations: Set<"query" | "mutation" | "subscription">; introspection?: boolean };
};

/** What resolvers get: the request's context plus the services, per-request loaders and the pub/sub. */
export type GraphqlContext = GraphqlRequestContext & {
  services: GraphqlServices;
  loaders: Loaders;
  pubsub: PubSub;
  /** Aborts when the execution times out or its client goes away (set when execution starts). */
  signal?: AbortSignal | undefined;
};

/** The signed-in caller, or UNAUTHENTICATED ("Unauthorized"). */
export const callerOf = (context: GraphqlContext): TenantContext => {
  if (!context.caller) throw new AppError("UNAUTHENTICATED");
  return context.caller;
};
