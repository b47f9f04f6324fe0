import { createManualClock } from "@hisob/kernel";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app";

// The plugins on the real OIDC routes (createTestApp): limits, the Unix reset, CORS and preflight.

const START = new Date("2026-03-01T00:00:00.000Z");
const ORIGIN = "https://spa.example";
const clock = createManualClock(START);
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { OIDC_RATE_LIMIT_ENABLED: "true", OIDC_RATE_LIMIT_KEYS: "2", OIDC_ALLOWED_ORIGINS: ORIGIN },
  });
});
afterAll(async () => {
  await t?.close();
});

it("limits and opens the real OIDC routes to the allowed origins", async () => {
  const keys = () => t.app.inject({ method: "GET", url: "/oidc/keys", headers: { origin: ORIGIN } });
  const first = await keys();
  expect(first.statusCode).toBe(200);
  expect(first.headers["access-control-allow-origin"]).toBe(ORIGIN);
  expect([first.headers["x-ratelimit-limit"], first.headers["x-ratelimit-remaining"]]).toEqual(["2", "1"]);
  expect(first.headers["x-ratelimit-reset"]).toBe(String(START.getTime() / 1000 + 900));
  await keys();
  const limited = await keys();
  expect(limited.statusCode).toBe(429);
  expect(limited.headers["retry-after"]).toBe("900");
  expect(limited.headers["access-control-allow-origin"]).toBe(ORIGIN);
  expect(limited.json()).toMatchObject({ error: "temporarily_unavailable" });

  // The provider's own errors keep the headers (token: 50 per client by default).
  const token = await t.app.inject({
    method: "POST",
    url: "/oidc/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: "grant_type=refresh_token&refresh_token=r&client_id=nope&client_secret=x",
  });
  expect(token.statusCode).toBe(401);
  expect([token.headers["x-ratelimit-limit"], token.headers["x-ratelimit-remaining"]]).toEqual(["50", "49"]);

  // Preflight passes the authentication guard; discovery is neither limited nor CORS-enabled.
  const preflight = await t.app.inject({
    method: "OPTIONS",
    url: "/oidc/token",
    headers: { origin: ORIGIN, "access-control-request-method": "POST" },
  });
  expect(preflight.statusCode).toBe(204);
  expect(preflight.headers["access-control-allow-methods"]).toBe("POST");
  const discovery = await t.app.inject({ method: "GET", url: "/.well-known/openid-configuration" });
  expect(discovery.headers["x-ratelimit-limit"]).toBeUndefined();
  expect(discovery.headers["access-control-allow-origin"]).toBeUndefined();

  clock.advance(900_000);
  expect((await keys()).statusCode).toBe(200);
});
