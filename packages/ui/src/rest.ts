import type { FieldIssue } from "./api";

/*
 * The apps' REST client: same-origin (or `baseUrl`) JSON with the `session` cookie or a bearer token.
 * Every change is JSON (a non-simple request, our CSRF rule); a body-less change carries
 * `x-csrf-token`. The server answers errors in the language asked for: the user's own.
 */

/** An error answer of the REST API: our code and reason, the message in the user's language, field issues. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
  }
}

export type Page<T> = { items: T[]; total: number; limit: number; offset: number };
export type RestMethod = "GET" | "POST" | "PUT" | "DELETE";

export type RestClientOptions = {
  /** The server's origin ("" for the page's own). */
  baseUrl?: string;
  /** The language the server should answer errors in. */
  language: () => string;
  /** A bearer token, when the app does not sign in with the session cookie. */
  accessToken?: () => Promise<string | null>;
  /** Called on a 401 (signed out, session ended elsewhere) before the RestError is thrown. */
  onUnauthenticated?: () => void;
  /** Headers of the moment for every request (the admin's `x-tenant-id` while acting in an organization). */
  headers?: () => Record<string, string>;
};

type ErrorBody = { error?: { code: string; reason: string; message: string; issues?: FieldIssue[] } };

export const createRestClient = (options: RestClientOptions) =>
  async function rest<T>(method: RestMethod, url: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      ...options.headers?.(),
      accept: "application/json",
      "accept-language": options.language(),
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    else if (method !== "GET") headers["x-csrf-token"] = "1";
    const token = await options.accessToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${options.baseUrl ?? ""}${url}`, {
      method,
      headers,
      credentials: "same-origin",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status === 401) {
      options.onUnauthenticated?.();
      throw new RestError(401, "UNAUTHENTICATED", "auth.unauthenticated", "Signed out");
    }
    if (res.status === 204) return undefined as T;
    const data = (await res.json().catch(() => null)) as (T & ErrorBody) | null;
    if (!res.ok) {
      const error = data?.error;
      throw new RestError(
        res.status,
        error?.code ?? "INTERNAL",
        error?.reason ?? "internal",
        error?.message ?? res.statusText,
        error?.issues ?? [],
      );
    }
    return data as T;
  };

export type RestClient = ReturnType<typeof createRestClient>;

/** `?a=1&b=x` from the values that are set (undefined, null and "" are left out). */
export const queryString = (params: Record<string, string | number | boolean | undefined | null>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
};

/** The login page, coming back to where the browser is now. */
export const signInUrl = () =>
  `/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`;
