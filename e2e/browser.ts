import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

/*
 * A real browser for end-to-end tests: Debian's Chromium (`apt-get install -y chromium`, done by
 * .ci/run), driven by playwright-core. Playwright's own browser downloads are never used.
 */

export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Headless, unsandboxed (CI runs as root in containers), and without background network traffic. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
] as const;

/**
 * Why browser tests cannot run here, or undefined when they can. Only a developer machine
 * without Chromium skips; on CI (CI set) a missing browser is a failure, never a silent skip.
 */
export const browserSkipReason = (): string | undefined =>
  existsSync(CHROMIUM_PATH) || process.env.CI
    ? undefined
    : `${CHROMIUM_PATH} is missing: install Debian's Chromium with "apt-get install -y chromium" ` +
      "(.ci/run does) to run the browser tests";

/** Throws at once when Chromium is missing: call it before slow setup, so CI fails fast. */
export const requireChromium = (): void => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: run "apt-get install -y chromium" (.ci/run does)`,
    );
  }
};

/**
 * Launches Chromium. Each launch gets a fresh, temporary user-data directory (Playwright creates it
 * and deletes it on close), and every `browser.newContext()` is a separate incognito-like profile.
 */
export const launchChromium = async (): Promise<Browser> => {
  requireChromium();
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    timeout: 30_000,
  });
};

export type Confinement = {
  /** The third-party URLs the page reached (answered by a stub, never by the network). */
  readonly stubbed: string[];
  /** Every other URL the page tried: blocked. A test should expect none. */
  readonly blocked: string[];
};

/**
 * Keeps `page` on this machine: requests to `allowed` origins go through, requests to `stubbed`
 * origins (a relying party's callback) get a small stub page, anything else is refused.
 *
 * This uses Chromium's Fetch domain directly because `page.route()` never sees the hops of an HTTP
 * redirect (by design in Playwright: microsoft/playwright#2617, #33882), and a relying party's
 * callback is reached by exactly such a hop (the authorization server's 302 to redirect_uri).
 * Chromium pauses redirected requests too, so the browser really "arrives" at the callback URL.
 */
export const confineToLocal = async (
  page: Page,
  origins: { allowed: readonly string[]; stubbed: readonly string[] },
): Promise<Confinement> => {
  const confinement = { stubbed: [] as string[], blocked: [] as string[] };
  const cdp = await page.context().newCDPSession(page);
  const originOf = (url: string) => {
    try {
      return new URL(url).origin;
    } catch {
      return "";
    }
  };
  cdp.on("Fetch.requestPaused", (event) => {
    const { requestId } = event;
    const url = event.request.url;
    const origin = originOf(url);
    let answer: Promise<unknown>;
    if (origins.allowed.includes(origin)) {
      answer = cdp.send("Fetch.continueRequest", { requestId });
    } else if (origins.stubbed.includes(origin)) {
      confinement.stubbed.push(url);
      const body = "<!doctype html><title>Relying party</title><p>Callback received.</p>";
      answer = cdp.send("Fetch.fulfillRequest", {
        requestId,
        responseCode: 200,
        responseHeaders: [{ name: "content-type", value: "text/html; charset=utf-8" }],
        body: Buffer.from(body).toString("base64"),
      });
    } else {
      confinement.blocked.push(url);
      answer = cdp.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" });
    }
    // The page may be closing while a request is paused; nothing to do then.
    answer.catch(() => undefined);
  });
  await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
  return confinement;
};
