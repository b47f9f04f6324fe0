import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { createOidcKit } from "../oidc/oidc-test-kit";
import { gql, listen } from "./graphql-test-kit";

/*
 * Every GraphQL refusal in our one shape (code from our closed set, our reason, `localizedMessage` in the
 * caller's language, `requestId`): yoga's own (batch, GET mutation, empty batch, mutation on a socket),
 * those before execution (parse, validation, depth, aliases) and the rate limit's.
 */

let t: TestApp;
let url: string;
let wsUrl: string;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApp({ env: { GRAPHQL_RATE_LIMIT: "30" } });
  ({ httpUrl: url, wsUrl } = await listen(t));
  tenantId = (await t.createTenant()).id;
});
afterAll(async () => t?.close());

type Body = { errors?: { message: string; extensions: Record<string, unknown> }[] };

const post = async (body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
};

/** The first error is ours: our code and reason, a localized message, the request id; no yoga code. */
const expectOurs = (body: Body, reason: string, localized: RegExp) => {
  const error = body.errors?.[0];
  expect(error?.extensions).toMatchObject({ code: "VALIDATION_ERROR", reason });
  expect(error?.extensions.localizedMessage).toMatch(localized);
  expect(typeof error?.extensions.requestId).toBe("string");
  expect(error?.message).not.toMatch(/Syntax Error|BAD_REQUEST/);
  expect(JSON.stringify(body)).not.toContain("BAD_REQUEST");
};

describe("yoga's own refusals in our shape", () => {
  it("an empty batch says the batch is empty (400)", async () => {
    // Anonymous: a signed-in caller's own language wins over Accept-Language.
    const res = await post([], { "accept-language": "uz" });
    expect(res.status).toBe(400);
    expectOurs(res.body, "graphql.batch_empty", /Toʻplam boʻsh/);
    expect(res.body.errors?.[0]?.message).toContain("batch is empty");
  });

  it("a batch of 11 is 413 with the limit", async () => {
    const res = await post(
      Array.from({ length: 11 }, () => ({ query: "{ me { id } }" })),
      { "accept-language": "ru" },
    );
    expect(res.status).toBe(413);
    expectOurs(res.body, "graphql.batch_too_large", /не более 10 операций/);
  });

  it("a mutation over GET is 405", async () => {
    const user = await t.createUser(tenantId, []);
    const query = encodeURIComponent('mutation { deleteSession(token: "x") }');
    const response = await fetch(`${url}?query=${query}`, {
      headers: { ...user.headers, "accept-language": "en" },
    });
    expect(response.status).toBe(405);
    expectOurs((await response.json()) as Body, "graphql.mutation_not_post", /mutations with POST/);
  });

  it("a mutation over the WebSocket says mutations go over HTTP", async () => {
    const user = await t.createUser(tenantId, []);
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${user.token}` },
    });
    try {
      const result = (await client.iterate({ query: 'mutation { deleteSession(token: "x") }' }).next())
        .value as Body;
      expectOurs(result, "graphql.mutation_over_socket", /over HTTP \(POST\)/);
    } catch (errors) {
      // graphql-ws rejects with the errors array when the server answers `error`.
      expectOurs({ errors: errors as Body["errors"] }, "graphql.mutation_over_socket", /over HTTP \(POST\)/);
    } finally {
      await client.dispose();
    }
  });
});

describe("refusals before execution carry localizedMessage and requestId", () => {
  it("a syntax error", async () => {
    const res = await gql(url, "{ me { id ", { headers: { "accept-language": "ru" } });
    expect(res.status).toBe(400);
    const error = res.body.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: "VALIDATION_ERROR", reason: "graphql.syntax" });
    expect(error?.extensions.localizedMessage).toBe("Запрос не является корректным GraphQL.");
    expect(typeof error?.extensions.requestId).toBe("string");
  });

  it("an unknown field", async () => {
    const user = await t.createUser(tenantId, []);
    const res = await gql(url, "{ me { nope } }", { headers: { ...user.headers, "accept-language": "uz" } });
    expect(res.status).toBe(400);
    expectOurs(res.body, "graphql.invalid_document", /./);
  });

  it("too many aliases in our words, not 'Syntax Error'", async () => {
    const aliases = Array.from({ length: 16 }, (_, index) => `a${index}: me { id }`).join(" ");
    const res = await gql(url, `{ ${aliases} }`, { headers: { "accept-language": "ru" } });
    expect(res.status).toBe(400);
    expectOurs(res.body, "graphql.alias_limit", /псевдоним/);
    expect(res.body.errors?.[0]?.message).toBe("validation error: the query uses more than 15 aliases");
  });
});

describe("the rate limit", () => {
  it("a 429 says in its extensions when to try again", async () => {
    const user = await t.createUser(tenantId, []);
    const batch = Array.from({ length: 10 }, () => ({ query: "{ me { id } }" }));
    for (let index = 0; index < 3; index += 1) expect((await post(batch, user.headers)).status).toBe(200);
    const limited = await post({ query: "{ me { id } }" }, user.headers);
    expect(limited.status).toBe(429);
    const extensions = limited.body.errors?.[0]?.extensions ?? {};
    expect(extensions).toMatchObject({ code: "RATE_LIMITED" });
    expect(extensions.retryAfterSeconds).toBe(Number(limited.headers.get("retry-after")));
    expect(extensions.retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe("a bearer that is not for this API", () => {
  it("a valid third-party OIDC access token (openid-client) is told apart from a forged one", async () => {
    const kit = createOidcKit(t);
    const user = await t.createUser(tenantId, []);
    const thirdParty = await kit.register({ name: "Someone else's app" });
    const tokens = await kit.tokensFor(thirdParty, user.token);
    const other = await gql(url, "{ me { id } }", {
      headers: { authorization: `Bearer ${tokens.access_token}`, "accept-language": "uz" },
    });
    expect(other.status).toBe(401);
    expect(other.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(other.body.errors?.[0]?.extensions).toMatchObject({
      code: "UNAUTHENTICATED",
      reason: "auth.token_not_for_this_api",
      localizedMessage: "Token haqiqiy, lekin u boshqa ilovaga berilgan va bu API uchun yaroqsiz.",
      requestId: expect.any(String),
    });
    // Garbage, and a well-formed token nobody issued, stay invalid credentials.
    for (const token of ["garbage", "a".repeat(43)]) {
      const forged = await gql(url, "{ me { id } }", { headers: { authorization: `Bearer ${token}` } });
      expect(forged.status).toBe(401);
      expect(forged.body.errors?.[0]?.extensions).toMatchObject({ reason: "auth.invalid_credentials" });
    }
    // The user's own session token still works.
    expect((await gql(url, "{ me { id } }", { headers: user.headers })).body.errors).toBeUndefined();
  });
});
