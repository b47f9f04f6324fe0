import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { createOidcKit } from "../oidc/oidc-test-kit";
import { codeOf, gql, listen } from "./graphql-test-kit";

let t: TestApp;
let url: string;
let tenantId: string;
let admin: SeededUser;
let reader: SeededUser;
let nobody: SeededUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ httpUrl: url } = await listen(t));
  tenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  reader = await t.createUser(tenantId, ["users:read:all"]);
  nobody = await t.createUser(tenantId, []);
});
afterAll(async () => t?.close());

describe("me", () => {
  it("answers the signed-in user (bearer)", async () => {
    const res = await gql(url, "{ me { id email firstName lastName uiLanguage createdAt updatedAt } }", {
      headers: admin.headers,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.me).toMatchObject({ id: admin.id, email: admin.email, uiLanguage: "en" });
  });

  it("answers over the session cookie", async () => {
    const res = await gql(url, "{ me { id } }", { headers: { cookie: admin.cookie } });
    expect(res.body.data?.me).toEqual({ id: admin.id });
  });

  it("is UNAUTHENTICATED (200, message Unauthorized) without credentials", async () => {
    const res = await gql(url, "{ me { id } }");
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]).toMatchObject({
      message: "Unauthorized",
      locations: [{ line: 1, column: 3 }],
      extensions: { code: "UNAUTHENTICATED" },
    });
  });

  it("refuses a bad bearer with HTTP 401 before execution", async () => {
    const res = await gql(url, "{ me { id } }", {
      headers: { authorization: "Bearer not-a-real-token-abcdefghijkl" },
    });
    expect(res.status).toBe(401);
    expect(codeOf(res)).toBe("UNAUTHENTICATED");
  });
});

describe("users and user", () => {
  it("pages users with total", async () => {
    const res = await gql(url, "{ users(limit: 2, offset: 0) { total data { id email } } }", {
      headers: admin.headers,
    });
    expect(res.body.errors).toBeUndefined();
    const page = res.body.data?.users as { total: string; data: unknown[] };
    expect(page.total).toBe("3");
    expect(page.data).toHaveLength(2);
  });

  it("is FORBIDDEN without users:read", async () => {
    const res = await gql(url, "{ users { total } }", { headers: nobody.headers });
    expect(res.body.errors?.[0]).toMatchObject({ message: "Forbidden", extensions: { code: "FORBIDDEN" } });
  });

  it("reads one user; another tenant's id is NOT_FOUND", async () => {
    const other = await t.createTenant();
    const stranger = await t.createUser(other.id, "admin");
    const mine = await gql(url, "query($id: ID!) { user(id: $id) { id email } }", {
      variables: { id: admin.id },
      headers: reader.headers,
    });
    expect(mine.body.data?.user).toEqual({ id: admin.id, email: admin.email });
    const theirs = await gql(url, "query($id: ID!) { user(id: $id) { id } }", {
      variables: { id: stranger.id },
      headers: reader.headers,
    });
    expect(codeOf(theirs)).toBe("NOT_FOUND");
  });
});

const AUTHENTICATE = /* GraphQL */ `
  mutation($email: String!, $password: String!) {
    authenticate(email: $email, password: $password) { token userId expiresAt session { token userId ip } }
  }
`;
type AuthSession = { token: string; userId: string; expiresAt: string; session: { token: string } };

describe("authenticate", () => {
  it("returns the secret token once, sets the session cookie, and the token works as a bearer", async () => {
    const user = await t.createUser(tenantId, []);
    const res = await gql(url, AUTHENTICATE, { variables: { email: user.email, password: user.password } });
    expect(res.body.errors).toBeUndefined();
    const session = res.body.data?.authenticate as AuthSession;
    expect(session).toMatchObject({ userId: user.id, expiresAt: expect.stringMatching(/Z$/) });
    expect(session.session.token).not.toBe(session.token);
    expect(res.headers.get("set-cookie")).toMatch(new RegExp(`^session=${session.token};.*HttpOnly`, "i"));
    expect(res.headers.get("cache-control")).toBe("no-store");
    const me = await gql(url, "{ me { id } }", { headers: { authorization: `Bearer ${session.token}` } });
    expect(me.body.data?.me).toEqual({ id: user.id });
    // Listings show the public identifier only.
    const mine = await gql(url, "{ mySessions { token userId } }", {
      headers: { authorization: `Bearer ${session.token}` },
    });
    const listed = JSON.stringify(mine.body.data);
    expect(listed).toContain(session.session.token);
    expect(listed).not.toContain(session.token);
  });

  it("answers a wrong password with UNAUTHENTICATED and applies the login throttle", async () => {
    const user = await t.createUser(tenantId, []);
    const wrong = { email: user.email, password: "Wrong-Passw0rd!" };
    const first = await gql(url, AUTHENTICATE, { variables: wrong });
    expect(first.status).toBe(200);
    expect(first.body.errors?.[0]).toMatchObject({
      message: "Invalid email or password",
      extensions: { code: "UNAUTHENTICATED", reason: "auth.invalid_credentials" },
    });
    for (let attempt = 0; attempt < 4; attempt += 1) await gql(url, AUTHENTICATE, { variables: wrong });
    const blocked = await gql(url, AUTHENTICATE, {
      variables: { email: user.email, password: user.password },
    });
    expect(blocked.body.errors?.[0]?.extensions).toMatchObject({
      code: "RATE_LIMITED",
      reason: "auth.too_many_attempts",
      retryAfterSeconds: expect.any(Number),
    });
  });

  it("names the missing field: validation error: email is required", async () => {
    const missing = await gql(url, 'mutation { authenticate(password: "x") { token } }');
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.[0]).toMatchObject({
      message: "validation error: email is required",
      extensions: { code: "VALIDATION_ERROR", issues: [{ path: "email", message: "is required" }] },
    });
    const unset = await gql(url, AUTHENTICATE, { variables: { password: "x" } });
    expect(unset.body.errors?.[0]?.message).toBe("validation error: email is required");
    const empty = await gql(url, AUTHENTICATE, { variables: { email: "", password: "x" } });
    expect(empty.body.errors?.[0]).toMatchObject({
      message: "validation error: email must not be empty",
      extensions: { code: "VALIDATION_ERROR", issues: [{ path: "email", message: "must not be empty" }] },
    });
  });

  it("refuses a variable of the wrong type (VALIDATION_ERROR naming it)", async () => {
    const res = await gql(url, AUTHENTICATE, { variables: { email: 42, password: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({
      message: "validation error: email is invalid",
      extensions: { code: "VALIDATION_ERROR" },
    });
  });

  it("answers in the caller's language in extensions.localizedMessage", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "ru" },
      body: JSON.stringify({ query: "{ me { id } }" }),
    });
    const body = (await res.json()) as {
      errors: { message: string; extensions: { localizedMessage: string } }[];
    };
    expect(body.errors[0]?.message).toBe("Unauthorized");
    expect(body.errors[0]?.extensions.localizedMessage).not.toBe("Unauthorized");
  });
});

describe("deleteSession", () => {
  const DELETE = "mutation($t: String!) { deleteSession(token: $t) }";

  it("ends one's own session by public id or by secret token; the token stops working", async () => {
    const user = await t.createUser(tenantId, []);
    for (const pick of ["public", "secret"] as const) {
      const created = (
        await gql(url, AUTHENTICATE, { variables: { email: user.email, password: user.password } })
      ).body.data?.authenticate as AuthSession;
      const ref = pick === "public" ? created.session.token : created.token;
      const res = await gql(url, DELETE, { variables: { t: ref }, headers: user.headers });
      expect(res.body).toEqual({ data: { deleteSession: true } });
      const after = await gql(url, "{ me { id } }", {
        headers: { authorization: `Bearer ${created.token}` },
      });
      expect(after.status).toBe(401);
    }
  });

  it("clears the cookie when the caller ends the session it uses", async () => {
    const user = await t.createUser(tenantId, []);
    const res = await gql(url, DELETE, { variables: { t: user.token }, headers: { cookie: user.cookie } });
    expect(res.body).toEqual({ data: { deleteSession: true } });
    expect(res.headers.get("set-cookie")).toMatch(/^session=;/);
  });

  it("is FORBIDDEN for another user's session without sessions:delete:all, allowed with it", async () => {
    const owner = await t.createUser(tenantId, []);
    const other = await t.createUser(tenantId, []);
    const manager = await t.createUser(tenantId, ["sessions:delete:all"]);
    const sessions = await gql(url, "{ mySessions { token } }", { headers: owner.headers });
    const publicId = (sessions.body.data?.mySessions as { token: string }[])[0]?.token as string;
    const refused = await gql(url, DELETE, { variables: { t: publicId }, headers: other.headers });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: "Forbidden",
      extensions: { code: "FORBIDDEN" },
    });
    const done = await gql(url, DELETE, { variables: { t: publicId }, headers: manager.headers });
    expect(done.body).toEqual({ data: { deleteSession: true } });
  });

  it("is NOT_FOUND for garbage, unknown and other tenants' sessions; UNAUTHENTICATED anonymously", async () => {
    const user = await t.createUser(tenantId, ["sessions:delete:all"]);
    const stranger = await t.createUser((await t.createTenant()).id, "admin");
    const theirs = (await gql(url, "{ mySessions { token } }", { headers: stranger.headers })).body.data
      ?.mySessions as { token: string }[];
    for (const ref of [
      "x",
      "0196b3f5-0000-7000-8000-000000000000",
      theirs[0]?.token as string,
      "a".repeat(600),
    ]) {
      const res = await gql(url, DELETE, { variables: { t: ref }, headers: user.headers });
      expect(codeOf(res), ref).toMatch(/NOT_FOUND|VALIDATION_ERROR/);
    }
    expect(codeOf(await gql(url, DELETE, { variables: { t: "x" } }))).toBe("UNAUTHENTICATED");
  });
});

describe("deleteSession and OIDC", () => {
  it("ends the OIDC grants and tokens issued from the session", async () => {
    const kit = createOidcKit(t);
    const client = await kit.register();
    const user = await t.createUser(tenantId, []);
    const second = (
      await gql(url, AUTHENTICATE, { variables: { email: user.email, password: user.password } })
    ).body.data?.authenticate as AuthSession;
    const tokens = await kit.tokensFor(client, second.token);
    await kit.expectAccessTokenAlive(tokens.access_token);
    const ended = await gql(url, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: second.session.token },
      headers: user.headers,
    });
    expect(ended.body).toEqual({ data: { deleteSession: true } });
    await kit.expectAccessTokenDead(tokens.access_token);
  });
});

describe("transport", () => {
  it("answers a batch in order", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...admin.headers },
      body: JSON.stringify([
        { query: "{ me { id } }" },
        { query: "{ users(limit: 1) { total } }" },
        { query: "{ nope }" },
      ]),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data?: unknown; errors?: { extensions: { code: string } }[] }[];
    expect(body).toHaveLength(3);
    expect(body[0]).toEqual({ data: { me: { id: admin.id } } });
    expect(body[1]?.data).toEqual({ users: { total: expect.any(String) } });
    expect(body[2]?.errors?.[0]?.extensions.code).toBe("VALIDATION_ERROR");
  });

  it("refuses a batch over the limit of 10 (413)", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...admin.headers },
      body: JSON.stringify(Array.from({ length: 11 }, () => ({ query: "{ me { id } }" }))),
    });
    expect(res.status).toBe(413);
  });

  it("serves queries and introspection over GET, never mutations", async () => {
    const query = encodeURIComponent("{ __schema { queryType { name } } }");
    const intro = await fetch(`${url}?query=${query}`);
    expect(intro.status).toBe(200);
    expect(await intro.json()).toEqual({ data: { __schema: { queryType: { name: "Query" } } } });
    const me = await fetch(`${url}?query=${encodeURIComponent("{ me { id } }")}`, { headers: admin.headers });
    expect(await me.json()).toEqual({ data: { me: { id: admin.id } } });
    const mutation = encodeURIComponent('mutation { deleteSession(token: "x") }');
    const refused = await fetch(`${url}?query=${mutation}`, { headers: admin.headers });
    expect(refused.status).toBe(405);
  });

  it("refuses a POST that is not JSON (CSRF: a cross-site form cannot send JSON)", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": type, cookie: admin.cookie },
        body: type === "text/plain" ? JSON.stringify({ query: "{ me { id } }" }) : "query=%7Bme%7Bid%7D%7D",
      });
      expect(res.status).toBe(415);
    }
  });

  it("answers malformed JSON and syntax errors with 400", async () => {
    const bad = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(bad.status).toBe(400);
    const syntax = await gql(url, "{ me { id }");
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "graphql.syntax",
    });
  });

  it("refuses a body over the limit with 413", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ me { id } } # ${"x".repeat(300 * 1024)}` }),
    });
    expect(res.status).toBe(413);
  });

  it("refuses subscriptions over plain HTTP (they are served over WebSocket)", async () => {
    for (const accept of ["application/json", "text/event-stream", "multipart/mixed"]) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept, ...admin.headers },
        body: JSON.stringify({ query: "subscription { sessionDeleted { token } }" }),
      });
      expect(res.status, accept).toBe(406);
      const body = (await res.json()) as { errors: { extensions: { reason: string } }[] };
      expect(body.errors[0]?.extensions.reason).toBe("graphql.subscription_over_http");
    }
  });

  it("serves no GraphiQL when it is turned off", async () => {
    const off = await createTestApp({ env: { GRAPHIQL_ENABLED: "false" } });
    try {
      expect((await off.app.inject({ method: "GET", url: "/graphql" })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("serves GraphiQL at /graphql outside production, every asset from us, under a CSP that frames nothing", async () => {
    const res = await fetch(url.replace("/api/graphql", "/graphql"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|https?:/);
    const page = await res.text();
    expect(page).toContain("/api/graphql");
    // No script or style from another origin, and no inline script (the options are JSON data).
    expect(page).not.toMatch(/https?:\/\//);
    expect(page.match(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/g)).toBeNull();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      const served = await fetch(new URL(asset, url));
      expect(served.status, asset).toBe(200);
      expect(served.headers.get("cache-control"), asset).toBe("public, max-age=31536000, immutable");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    }
    // The editor's workers too.
    const worker = assets.find((asset) => asset.endsWith("boot.js"))?.replace("boot.js", "graphql.worker.js");
    expect((await fetch(new URL(worker as string, url))).status).toBe(200);
    // An asset that is not there (an older version, an unknown file) is the project's NOT_FOUND, and a
    // hostile path is refused at the edge, both with the error body every route answers.
    const base = new URL(worker as string, url).pathname.replace(/graphql\.worker\.js$/, "");
    for (const path of ["/graphql/assets/old/graphiql.js", `${base}nothing.js`]) {
      const missing = await t.app.inject({ method: "GET", url: path });
      expect(missing.statusCode, path).toBe(404);
      expect(missing.json(), path).toMatchObject({ error: { code: "NOT_FOUND", reason: "not_found" } });
    }
    for (const path of [
      `${base}${"a".repeat(300)}.js`,
      `${base}..%2f..%2fpackage.json`,
      `${base}boot.js%00.css`,
    ]) {
      const hostile = await t.app.inject({ method: "GET", url: path });
      expect(hostile.statusCode, path).toBe(400);
      expect(hostile.json(), path).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
    }
  });
});

describe("caching", () => {
  it("gives authenticated answers a per-caller ETag, private, and 304 for a matching If-None-Match", async () => {
    const first = await gql(url, "{ me { id } }", { headers: admin.headers });
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("vary")).toBe("Cookie, Authorization");
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "if-none-match": etag, ...admin.headers },
      body: JSON.stringify({ query: "{ me { id } }" }),
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // The same query by another user with that ETag: their own answer, never a 304.
    const other = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "if-none-match": etag, ...reader.headers },
      body: JSON.stringify({ query: "{ users(limit: 1) { total } }" }),
    });
    expect(other.status).toBe(200);
    // Equal bodies for two callers still get different tags.
    const q = encodeURIComponent("{ __typename }");
    const a = await fetch(`${url}?query=${q}`, { headers: admin.headers });
    const b = await fetch(`${url}?query=${q}`, { headers: reader.headers });
    expect(await a.text()).toBe(await b.text());
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    const crossed = await fetch(`${url}?query=${q}`, {
      headers: { ...reader.headers, "if-none-match": a.headers.get("etag") as string },
    });
    expect(crossed.status).toBe(200);
  });

  it("lets shared caches keep anonymous answers (public, max-age=300), never the schema, errors or mutations", async () => {
    const anonymous = await fetch(`${url}?query=${encodeURIComponent("{ __typename }")}`);
    expect(anonymous.headers.get("cache-control")).toBe("public, max-age=300");
    expect(anonymous.headers.get("vary")).toBe("Cookie, Authorization");
    const etag = anonymous.headers.get("etag") as string;
    const cached = await fetch(`${url}?query=${encodeURIComponent("{ __typename }")}`, {
      headers: { "if-none-match": etag },
    });
    expect(cached.status).toBe(304);
    // Introspection, even anonymous (allowed outside production), is private.
    const intro = await fetch(`${url}?query=${encodeURIComponent("{ __schema { queryType { name } } }")}`);
    expect(intro.status).toBe(200);
    expect(intro.headers.get("cache-control")).toBe("private, no-cache");
    const failed = await gql(url, "{ me { id } }");
    expect(failed.headers.get("cache-control")).toBe("no-store");
    expect(failed.headers.get("etag")).toBeNull();
    const user = await t.createUser(tenantId, []);
    const mutation = await gql(url, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: user.token },
      headers: user.headers,
    });
    expect(mutation.headers.get("cache-control")).toBe("no-store");
  });
});
