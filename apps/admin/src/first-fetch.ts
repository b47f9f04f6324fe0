import { createRestClient, queryString, signInUrl } from "@hisob/ui/rest";
import { actingTenantId } from "./acting";
import { BASE } from "./router";

/*
 * The first screen's requests, started by the entry before the app's code has even loaded (decision
 * 0099): the signed-in administrator's account and, when the address opens the users screen, its first
 * page. Before, the page loaded its code, asked for the account, rendered the frame, rendered the users
 * screen and only then asked for its rows: two requests one after the other with the code and two
 * renders before and between them. Now both go out at once, while the code loads; the screens take
 * what was started instead of asking again. Kept light on purpose (no React, no Ant Design, no i18n):
 * it is the entry's own code.
 */

/** The users screen's first page as it opens: newest first, 20 rows, no filter. */
export const FIRST_USERS_URL = `/users${queryString({ sortBy: "createdAt", order: "desc", limit: 20, offset: 0 })}`;

/** Older than this, a started answer is not the screen's first one any more: it asks again. */
const FRESH_MS = 10_000;

type Started = { promise: Promise<unknown>; at: number };
const started = new Map<string, Started>();

/**
 * The same requests as the app's clients (api.ts): the session cookie, `x-tenant-id` while acting in an
 * organization, a 401 to the login page. Errors in the browser's language (the user's own is not known
 * yet): a failed start is not shown, the screen asks again with its own client.
 */
const client = (acting: boolean) =>
  createRestClient({
    language: () => navigator.language || "en",
    onUnauthenticated: () => window.location.assign(signInUrl()),
    headers: (): Record<string, string> => {
      const tenantId = acting ? actingTenantId() : null;
      return tenantId ? { "x-tenant-id": tenantId } : {};
    },
  });

/** Starts `request` now; the screen that asks for `key` first (and soon) takes its answer. */
export const begin = (key: string, request: () => Promise<unknown>) => {
  const promise = request();
  // Not taken (the screen turned out not to be shown): its failure is nobody's to report.
  promise.catch(() => undefined);
  started.set(key, { promise, at: performance.now() });
};

/**
 * The answer started for `key`, once and while fresh; otherwise, or when the started request failed,
 * `request()` now (so a failure is reported as the screen's own request reports it).
 */
export const takeStarted = <T>(key: string, request: () => Promise<T>): Promise<T> => {
  const entry = started.get(key);
  started.delete(key);
  if (!entry || performance.now() - entry.at >= FRESH_MS) return request();
  return (entry.promise as Promise<T>).catch(() => request());
};

/** Starts the account and, for /admin/ and /admin/users, the users' first page. */
export const startFirstScreen = () => {
  begin("/account", () => client(false)("GET", "/account"));
  const path = window.location.pathname.slice(BASE.length).replace(/\/$/, "");
  if (path === "" || path === "/users") begin(FIRST_USERS_URL, () => client(true)("GET", FIRST_USERS_URL));
};
