import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../testing/test-app";
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
