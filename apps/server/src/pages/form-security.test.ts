import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT, isSameOriginPost, safeNextPath } from "./form-security";

describe("safeNextPath", () => {
  it.each([
    ["/users?x=1", "/users?x=1"],
    ["/", "/"],
    ["/reports/2026#totals", "/reports/2026#totals"],
    ["/a/../b", "/b"],
    ["/отчёт?q=ü", "/%D0%BE%D1%82%D1%87%D1%91%D1%82?q=%C3%BC"],
  ])("keeps the local path %j as %j", (value, expected) => {
    expect(safeNextPath(value)).toBe(expected);
  });

  it.each([
    undefined,
    123,
    "",
    "users",
    "//evil.com",
    "///evil.com",
    "/\\evil.com",
    "/x\\y",
    "https://evil.com",
    "HTTPS://evil.com",
    "javascript:alert(1)",
    " /users",
    "/\t/evil.com",
    "/\n/evil.com",
    "/users\u0000",
    "/users\u0085",
    "/.//evil.com",
    "/a/..//evil.com",
    `/${"a".repeat(8192)}`,
  ])("refuses %j", (value) => {
    expect(safeNextPath(value)).toBe(DEFAULT_NEXT);
  });
});

describe("isSameOriginPost", () => {
  const request = (headers: Record<string, string>, host = "hisob.example:8443", protocol = "https") =>
    ({ headers, host, protocol }) as unknown as FastifyRequest;
  const issuer = "https://id.hisob.uz/oidc";

  it("accepts the issuer's origin and the request's own origin", () => {
    expect(isSameOriginPost(request({ origin: "https://id.hisob.uz" }), issuer)).toBe(true);
    expect(isSameOriginPost(request({ origin: "https://hisob.example:8443" }), issuer)).toBe(true);
    expect(isSameOriginPost(request({ origin: "https://ID.hisob.uz:443" }), issuer)).toBe(true);
  });

  it("refuses other origins, other schemes and ports, and an opaque origin", () => {
    for (const origin of [
      "https://evil.example",
      "http://id.hisob.uz",
      "https://id.hisob.uz:444",
      "null",
      "garbage",
    ]) {
      expect(isSameOriginPost(request({ origin }), issuer), origin).toBe(false);
    }
  });

  it("falls back to a same-origin Referer only when Origin is missing", () => {
    expect(isSameOriginPost(request({ referer: "https://id.hisob.uz/login?next=/x" }), issuer)).toBe(true);
    expect(isSameOriginPost(request({ referer: "https://evil.example/id.hisob.uz" }), issuer)).toBe(false);
    expect(isSameOriginPost(request({}), issuer)).toBe(false);
    expect(
      isSameOriginPost(
        request({ origin: "https://evil.example", referer: "https://id.hisob.uz/login" }),
        issuer,
      ),
    ).toBe(false);
  });
});
