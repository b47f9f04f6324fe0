import type { AppRouter } from "@hisob/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { TFunction } from "i18next";

/*
 * The tRPC client of the apps: plain HTTP with the bearer access token of the signed-in user (the
 * accountant app's first-party tokens reach the API). The server answers errors in the user's own
 * language (their uiLanguage), with field issues that name the input's path.
 */

export type ApiClient = ReturnType<typeof createApiClient>;

export type ApiClientOptions = {
  /** The server's origin, e.g. "http://localhost:3000" ("" for the page's own origin). */
  baseUrl: string;
  /** The current access token (refreshed by the host when it nears expiry). */
  accessToken: () => Promise<string | null>;
  /** Called when the server says the token is no longer valid (signed out elsewhere, revoked). */
  onUnauthenticated?: () => void;
};

export const createApiClient = (options: ApiClientOptions) =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${options.baseUrl}/trpc`,
        headers: async ({ op }) => {
          const token = await options.accessToken();
          // A posting's form sends its idempotency key (`mutate(input, { context: { idempotencyKey } })`):
          // the server posts one intent once, however often it is sent (one call per request: no batching).
          const key = (op.context as { idempotencyKey?: unknown }).idempotencyKey;
          return {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(typeof key === "string" ? { "idempotency-key": key } : {}),
          };
        },
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (response.status === 401) options.onUnauthenticated?.();
          return response;
        },
      }),
    ],
  });

export type FieldIssue = { path: string; message: string };

export type ApiFailure = {
  /** Our error code (VALIDATION_ERROR, BUSINESS_RULE, …) or NETWORK when the server was not reached. */
  code: string;
  reason: string;
  /** What to tell the person: the server's message (in their language) or ours. */
  message: string;
  /** Field issues, paths relative to the form's data (a `data.` prefix of update inputs removed). */
  issues: FieldIssue[];
};

type ErrorData = { appCode?: string; reason?: string; issues?: FieldIssue[] };

export const describeFailure = (error: unknown, t: TFunction): ApiFailure => {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as ErrorData;
    if (!data.appCode) {
      // No answer in our shape: the request never reached the server (or not through our API).
      return { code: "NETWORK", reason: "network", message: t("ui:networkError"), issues: [] };
    }
    const issues = (data.issues ?? []).map((issue) => ({
      path: issue.path.replace(/^data\./, ""),
      message: issue.message,
    }));
    return { code: data.appCode, reason: data.reason ?? "", message: error.message, issues };
  }
  return { code: "INTERNAL", reason: "client", message: t("ui:unexpectedError"), issues: [] };
};
