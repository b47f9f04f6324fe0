import type { Browser } from "playwright-core";
import { expect } from "vitest";
import { en as serverEn } from "../packages/i18n/src/locales/en";

/*
 * What the browser suites that seed their own organizations over REST share: signing in to the API
 * with a password (the session cookie), REST calls with it, and a browser context signed in through
 * the login page.
 */

export const firmSession = (options: {
  base: () => string;
  browser: () => Browser;
  password: string;
  viewport?: { width: number; height: number };
}) => {
  const login = async (email: string) => {
    const response = await fetch(`${options.base()}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: options.password }),
    });
    expect(response.status).toBe(200);
    return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  };
  const rest = async (cookie: string, method: string, route: string, body?: unknown) => {
    const response = await fetch(`${options.base()}${route}`, {
      method,
      headers: { "content-type": "application/json", cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = response.status === 204 ? null : await response.json();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json as Record<string, unknown>;
  };
  /** A browser context signed in as `email` through the login page; page errors are collected. */
  const signIn = async (email: string) => {
    const context = await options.browser().newContext({
      viewport: options.viewport ?? { width: 1280, height: 900 },
      locale: "en-US",
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`${options.base()}/`);
    await page.waitForURL(/\/login\?/);
    await page.getByLabel(serverEn.login.email, { exact: true }).fill(email);
    await page.getByLabel(serverEn.login.password, { exact: true }).fill(options.password);
    await page.getByLabel(serverEn.login.password, { exact: true }).press("Enter");
    return { context, page, errors };
  };
  return { login, rest, signIn };
};
