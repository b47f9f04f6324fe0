import { describe, expect, it } from "vitest";
import { type RedirectUriContext, redirectUriProblem, ZRegisterClientInput } from "./oidc-admin.schema";

const WEB_DEV: RedirectUriContext = { applicationType: "web", production: false };
const WEB_PROD: RedirectUriContext = { applicationType: "web", production: true };
const NATIVE_DEV: RedirectUriContext = { applicationType: "native", production: false };
const NATIVE_PROD: RedirectUriContext = { applicationType: "native", production: true };

// [uri, web in development, web in production, native in development, native in production]
const TABLE: Array<[string, boolean, boolean, boolean, boolean]> = [
  ["https://app.example/callback", true, true, true, true],
  ["https://app.example:8443/cb?tenant=acme", true, true, true, true],
  ["https://127.0.0.1/cb", true, true, true, true],
  // http: loopback IP literals only; web clients only outside production
  ["http://127.0.0.1/callback", true, false, true, true],
  ["http://127.0.0.1:49152/callback", true, false, true, true],
  ["http://[::1]:8080/cb", true, false, true, true],
  // localhost: a developer's web client, never a native app (RFC 8252 §8.3) nor production
  ["http://localhost/cb", true, false, false, false],
  ["http://localhost:5173/callback", true, false, false, false],
  ["http://evil.example/cb", false, false, false, false],
  ["http://127.0.0.2/cb", false, false, false, false],
  ["http://192.168.1.10/cb", false, false, false, false],
  // private-use schemes: native apps, one slash (RFC 8252 §7.1)
  ["com.example.app:/cb", false, false, true, true],
  ["com.example.app:/oauth2redirect/example-provider", false, false, true, true],
  ["com.example.app://cb", false, false, false, false],
  ["com.example.app:cb", false, false, false, false],
  ["myapp:/cb", false, false, false, false],
  // never
  ["vbscript:msgbox(1)", false, false, false, false],
  ["javascript:alert(1)", false, false, false, false],
  ["JavaScript:alert(1)", false, false, false, false],
  ["data:text/html,<script>alert(1)</script>", false, false, false, false],
  ["file:///etc/passwd", false, false, false, false],
  ["blob:https://app.example/0b2d", false, false, false, false],
  ["https:evil.example", false, false, false, false],
  ["https:/evil.example/cb", false, false, false, false],
  ["https:///cb", false, false, false, false],
  ["https:\\\\evil.example\\cb", false, false, false, false],
  ["https://*.evil.example/cb", false, false, false, false],
  ["https://%2A.evil.example/cb", false, false, false, false],
  ["https://app.example/cb#frag", false, false, false, false],
  ["https://app.example/cb#", false, false, false, false],
  ["https://user:pw@app.example/cb", false, false, false, false],
  ["https://user@app.example/cb", false, false, false, false],
  ["http://user@127.0.0.1/cb", false, false, false, false],
  ["https://app.example/c b", false, false, false, false],
  ["/callback", false, false, false, false],
  ["app.example/callback", false, false, false, false],
  ["", false, false, false, false],
];

describe("redirect URIs", () => {
  it.each(TABLE)("%s → web dev %s, web prod %s, native dev %s, native prod %s", (uri, ...expected) => {
    const accepted = [WEB_DEV, WEB_PROD, NATIVE_DEV, NATIVE_PROD].map(
      (context) => redirectUriProblem(uri, context) === undefined,
    );
    expect(accepted).toEqual(expected);
  });

  it("explains each refusal in words", () => {
    expect(redirectUriProblem("http://evil.example/cb", WEB_DEV)).toMatch(/must use https/);
    expect(redirectUriProblem("https:evil.example", WEB_DEV)).toMatch(/host after \/\//);
    expect(redirectUriProblem("https://*.evil.example/cb", WEB_DEV)).toMatch(/wildcard/);
    expect(redirectUriProblem("http://localhost/cb", NATIVE_DEV)).toMatch(/127\.0\.0\.1/);
    expect(redirectUriProblem("com.example.app:/cb", WEB_DEV)).toMatch(/native apps/);
    expect(redirectUriProblem("http://127.0.0.1/cb", WEB_PROD)).toMatch(/production/);
  });

  it("accepts the issuer's own origin, whatever its scheme (the accountant app at {issuer}/app/callback)", () => {
    for (const issuer of ["http://localhost:3000", "http://192.168.1.5:3000", "https://hisob.example"]) {
      expect(redirectUriProblem(`${issuer}/app/callback`, { ...NATIVE_PROD, issuer })).toBeUndefined();
    }
    expect(
      redirectUriProblem("http://192.168.1.5:3001/app/callback", {
        ...WEB_DEV,
        issuer: "http://192.168.1.5:3000",
      }),
    ).toBeDefined();
  });

  it("the schema refuses the shapes no client may have, in the admin screens too", () => {
    const parse = (uri: string) => ZRegisterClientInput.safeParse({ name: "x", redirectUris: [uri] }).success;
    expect(parse("https://app.example/cb")).toBe(true);
    for (const uri of [
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "https:evil.example",
      "https://*.x.example/cb",
    ]) {
      expect(parse(uri), uri).toBe(false);
    }
  });

  it.each([
    ["Partner inv\u202egpj.exe"],
    ["Partner\u0000app"],
    ["Partner\napp"],
    ["Partner\u2066app"],
    ["\ud800Partner"],
    ["   "],
    ["x".repeat(201)],
  ])("refuses the client name %j like every other name", (name) => {
    expect(ZRegisterClientInput.safeParse({ name, redirectUris: ["https://app.example/cb"] }).success).toBe(
      false,
    );
  });
});
