/**
 * The admin screens' one way to the server: same-origin REST with the `session` cookie. Every change
 * is JSON (a non-simple request, our CSRF rule); a 401 sends the browser to the login page and back.
 */

import { currentLanguage } from "./i18n";

export type FieldIssue = { path: string; message: string };

export class ApiError extends Error {
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

export const signInUrl = () =>
  `/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`;

export const api = async <T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  body?: unknown,
): Promise<T> => {
  // The server answers errors in the language asked for; the screens ask for the user's own.
  const headers: Record<string, string> = {
    accept: "application/json",
    "accept-language": currentLanguage(),
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  else if (method !== "GET") headers["x-csrf-token"] = "1";
  const res = await fetch(url, {
    method,
    headers,
    credentials: "same-origin",
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status === 401) {
    window.location.assign(signInUrl());
    throw new ApiError(401, "UNAUTHENTICATED", "auth.unauthenticated", "Signed out");
  }
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as
    | (T & { error?: { code: string; reason: string; message: string; issues?: FieldIssue[] } })
    | null;
  if (!res.ok) {
    const error = data?.error;
    throw new ApiError(
      res.status,
      error?.code ?? "INTERNAL",
      error?.reason ?? "internal",
      error?.message ?? res.statusText,
      error?.issues ?? [],
    );
  }
  return data as T;
};

export const query = (params: Record<string, string | number | boolean | undefined | null>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
};

export type Page<T> = { items: T[]; total: number; limit: number; offset: number };
