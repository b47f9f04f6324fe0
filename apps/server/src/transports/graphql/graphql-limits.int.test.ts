import type { GraphqlModule } from "@hisob/graphql";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { codeOf, gql, listen } from "./graphql-test-kit";

/** A module only these tests serve: a recursive type for depth and cost, and a slow field. */
let aborted = false;
const probeModule: GraphqlModule = {
  name: "probe",
  typeDefs: /* GraphQL */ `
    type Probe {
      id: ID!
      child: Probe!
      items(limit: Int = 20): [Probe!]!
    }
    type Query {
      probe: Probe!
      slow(ms: Int!): String
      broken: String
    }
  `,
  resolvers: {
    Probe: {
      id: () => "p",
      child: () => ({}),
      items: (_: unknown, args: { limit: number }) =>
        Array.from({ length: Math.min(args.limit, 3) }, () => ({})),
    },
    Query: {
      probe: () => ({}),
      broken: () => {
        throw new Error("connection to 10.0.0.7 refused: password for user secret_admin");
      },
      slow: (_: unknown, args: { ms: number }, _context: unknown, info: { signal?: AbortSignal }) =>
        new Promise<string>((resolve) => {
          const timer = setTimeout(() => resolve("done"), args.ms);
          info.signal?.addEventListener("abort", () => {
            aborted = true;
            clearTimeout(timer);
            resolve("aborted");
          });
        }),
    },
  },
};

let t: TestApp;
let url: string;
let wsUrl: string;
let tenantId: string;

beforeAll(async () => {
  t = await createTestApp({
    env: { GRAPHQL_RATE_LIMIT: "5" },
    graphql: { limits: { timeoutMs: 300 }, extraModules: [probeModule] },
  });
  ({ httpUrl: url, wsUrl } = await listen(t));
  tenantId = (await t.createTenant()).id;
});
afterAll(async () => t?.close());

const nested = (depth: number) => `{ probe ${"{ child ".repeat(depth - 2)}{ id }${" }".repeat(depth - 2)} }`;

describe("limits", () => {
  it("allows depth 10 and refuses depth 11", async () => {
    const user = await t.createUser(tenantId, []);
    const ok = await gql(url, nested(10), { headers: user.headers });
    expect(ok.body.errors).toBeUndefined();
    const deep = await gql(url, nested(11), { headers: user.headers });
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "graphql.depth_limit",
      localizedMessage: "validation error: the query is nested deeper than 10 levels",
      requestId: expect.any(String),
    });
    // Our words, not graphql-armor's "Syntax Error: Query depth limit of 10 exceeded".
    expect(deep.body.errors?.[0]?.message).toBe(
      "validation error: the query is nested deeper than 10 levels",
    );
  });

  it("prices lists by their limit and refuses a cost over 1000", async () => {
    const user = await t.createUser(tenantId, []);
    // 1 + 10 × (1 + 10 × 1) = 111
    const cheap = await gql(url, "{ probe { items(limit: 10) { items(limit: 10) { child { id } } } } }", {
      headers: user.headers,
    });
    expect(cheap.body.errors).toBeUndefined();
    // 1 + (1 + 50 × (1 + 50 × 1)) = 2552; the variable is read too
    const costly = await gql(
      url,
      "query($n: Int) { probe { items(limit: $n) { items(limit: 50) { child { id } } } } }",
      {
        headers: user.headers,
        variables: { n: 50 },
      },
    );
    expect(costly.status).toBe(400);
    expect(costly.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/cost \d+ exceeds the maximum of 1000/),
      extensions: { code: "VALIDATION_ERROR", reason: "graphql.cost_limit" },
    });
  });

  it("refuses more than 15 aliases and more than 5000 tokens", async () => {
    const user = await t.createUser(tenantId, []);
    const aliases = `{ ${Array.from({ length: 16 }, (_, index) => `a${index}: probe { id }`).join(" ")} }`;
    const manyAliases = await gql(url, aliases, { headers: user.headers });
    expect(manyAliases.body.errors?.[0]?.extensions).toMatchObject({ reason: "graphql.alias_limit" });
    const tokens = `{ probe { ${"id ".repeat(5001)} } }`;
    const manyTokens = await gql(url, tokens, { headers: user.headers });
    expect(manyTokens.status).toBe(400);
    expect(manyTokens.body.errors?.[0]?.extensions).toMatchObject({ reason: "graphql.token_limit" });
  });

  it("cancels an execution over the timeout", async () => {
    const user = await t.createUser(tenantId, []);
    const started = Date.now();
    const res = await gql(url, "{ slow(ms: 20000) }", { headers: user.headers });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]).toMatchObject({
      extensions: { code: "UNAVAILABLE", reason: "graphql.timeout" },
    });
    expect(aborted).toBe(true);
  });
});

describe("unexpected errors", () => {
  it("are masked as INTERNAL with the request id, never leaking their text", async () => {
    const user = await t.createUser(tenantId, []);
    const res = await gql(url, "{ broken probe { id } }", {
      headers: { ...user.headers, "x-request-id": "req-masked-1" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ broken: null, probe: { id: "p" } });
    expect(res.body.errors?.[0]).toMatchObject({
      message: "Internal server error",
      path: ["broken"],
      extensions: { code: "INTERNAL", requestId: "req-masked-1" },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/secret_admin|10\.0\.0\.7/);
  });
});

describe("rate limit", () => {
  it("counts operations per user, sends X-RateLimit-* on every response and 429 past the limit", async () => {
    const user = await t.createUser(tenantId, []);
    const first = await gql(url, "{ me { id } }", { headers: user.headers });
    expect(first.headers.get("x-ratelimit-limit")).toBe("5");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4");
    const reset = Number(first.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    // A batch of three counts three.
    const batch = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...user.headers },
      body: JSON.stringify([
        { query: "{ me { id } }" },
        { query: "{ me { id } }" },
        { query: "{ me { id } }" },
      ]),
    });
    expect(batch.headers.get("x-ratelimit-remaining")).toBe("1");
    await gql(url, "{ me { id } }", { headers: user.headers });
    const limited = await gql(url, "{ me { id } }", { headers: user.headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(codeOf(limited)).toBe("RATE_LIMITED");
    // Another user has a budget of their own.
    const other = await t.createUser(tenantId, []);
    expect((await gql(url, "{ me { id } }", { headers: other.headers })).status).toBe(200);
  });

  it("counts operations over WebSocket too, and applies the limits there", async () => {
    const user = await t.createUser(tenantId, []);
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${user.token}` },
    });
    try {
      const run = async (query: string) => {
        try {
          return (await client.iterate({ query }).next()).value as {
            errors?: { extensions?: { code?: string; reason?: string } }[];
          };
        } catch (errors) {
          return { errors: errors as { extensions?: { code?: string; reason?: string } }[] };
        }
      };
      const deep = await run(nested(11));
      expect(deep.errors?.[0]?.extensions).toMatchObject({ reason: "graphql.depth_limit" });
      for (let index = 0; index < 4; index += 1) expect((await run("{ me { id } }")).errors).toBeUndefined();
      expect((await run("{ me { id } }")).errors?.[0]?.extensions).toMatchObject({ code: "RATE_LIMITED" });
    } finally {
      await client.dispose();
    }
  });
});

describe("one operation POSTed as JSON (answered without yoga's Fetch objects, decision 0112)", () => {
  type Sent = { body: unknown; headers?: Record<string, string>; who?: "user" | "cookie" | "anonymous" };
  /** What must not differ between the two paths (the rate-limit counts and request ids do). */
  const answerOf = async (target: string, sent: Sent, headers: Record<string, string>) => {
    const res = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers, ...sent.headers },
      body: JSON.stringify(sent.body),
    });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as { errors?: { extensions?: Record<string, unknown> }[] }) : {};
    for (const error of body.errors ?? []) delete error.extensions?.requestId;
    const header = (name: string) => res.headers.get(name);
    return {
      status: res.status,
      body,
      headers: Object.fromEntries(
        [
          "content-type",
          "cache-control",
          "etag",
          "vary",
          "allow",
          "www-authenticate",
          "retry-after",
          "x-ratelimit-limit",
        ].map((name) => [name, header(name)]),
      ),
    };
  };
  /**
   * The same request both ways: to the endpoint (the JSON path takes it when it may) and with a query
   * string yoga ignores on a POST, which leaves it to yoga's own handler. Each pair on a fresh user: the
   * budget of this app is 5 operations a minute.
   */
  const both = async (sent: Sent) => {
    const user = await t.createUser(tenantId, []);
    const headers: Record<string, string> =
      sent.who === "anonymous" ? {} : sent.who === "cookie" ? { cookie: user.cookie } : { ...user.headers };
    const fast = await answerOf(url, sent, headers);
    const own = await answerOf(`${url}?via=yoga`, sent, headers);
    expect(fast, JSON.stringify(sent)).toEqual(own);
    return fast;
  };
  const query = (text: string, rest: Record<string, unknown> = {}) => ({ body: { query: text, ...rest } });

  it("answers data, variables and operation names as yoga does, with the same caching headers", async () => {
    const data = await both(query("{ probe { id child { id } } }"));
    expect(data.status).toBe(200);
    expect(data.body).toEqual({ data: { probe: { id: "p", child: { id: "p" } } } });
    expect(data.headers.etag).toBeTruthy();
    expect((await both({ ...query("{ probe { id } }"), who: "cookie" })).status).toBe(200);
    const named = await both(
      query("query A($n: Int) { probe { items(limit: $n) { id } } } query B { probe { id } }", {
        variables: { n: 2 },
        operationName: "A",
        extensions: {},
      }),
    );
    expect(named.body).toEqual({ data: { probe: { items: [{ id: "p" }, { id: "p" }] } } });
    await both(query("{ probe { id } }", { variables: null, operationName: null }));
    await both({ ...query("{ probe { id } }"), headers: { accept: "application/json" } });
    await both({ ...query("{ probe { id } }"), headers: { accept: "*/*" } });
    // Another Accept is yoga's to answer (its own media type): both ways through yoga, still equal.
    await both({ ...query("{ probe { id } }"), headers: { accept: "application/graphql-response+json" } });
  });

  it("refuses documents as yoga does: syntax, validation, operations, limits and variables", async () => {
    const refused = [
      query("{ probe {"),
      query(""),
      query("{ nope }"),
      query("query A { probe { id } } query B { probe { id } }"),
      query("{ probe { id } }", { operationName: "C" }),
      query(nested(11)),
      query(`{ ${Array.from({ length: 16 }, (_, index) => `a${index}: probe { id }`).join(" ")} }`),
      query(`{ probe { ${"id ".repeat(5001)} } }`),
      query("{ probe { items(limit: 50) { items(limit: 50) { child { id } } } } }"),
      query("query($n: Int) { probe { items(limit: $n) { items(limit: 50) { child { id } } } } }", {
        variables: { n: 50 },
      }),
      query("query($n: Int) { probe { items(limit: $n) { id } } }", { variables: { n: "many" } }),
      query("query($n: Int!) { probe { items(limit: $n) { id } } }"),
      query("subscription { sessionDeleted { userId } }"),
    ];
    for (const sent of refused) {
      const answer = await both(sent);
      expect(answer.status, JSON.stringify(sent)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(sent)).toBeLessThan(500);
    }
    // The cost of an operation without variables is remembered per document: refused again, the same way.
    const costly = await both(query("{ probe { items(limit: 50) { items(limit: 50) { child { id } } } } }"));
    expect(costly.body.errors?.[0]?.extensions).toMatchObject({ reason: "graphql.cost_limit" });
  });

  it("leaves parameters yoga refuses to yoga, and answers errors in execution as it does", async () => {
    for (const sent of [
      { body: { query: 1 } },
      { body: { query: "{ probe { id } }", variables: [1] } },
      { body: { query: "{ probe { id } }", extensions: "x" } },
      { body: { query: "{ probe { id } }", operationName: 5 } },
      { body: { query: "{ probe { id } }", unexpected: true } },
      { body: "{ probe { id } }" },
      { body: null },
    ]) {
      const answer = await both(sent);
      expect(answer.status, JSON.stringify(sent)).toBe(400);
    }
    const masked = await both(query("{ broken probe { id } }"));
    expect(masked.body.errors?.[0]).toMatchObject({ message: "Internal server error", path: ["broken"] });
    const forbidden = await both(query("{ users { total } }"));
    expect(forbidden.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
    const mutation = await both(query('mutation { deleteSession(token: "not-a-session") }'));
    expect(mutation.headers["cache-control"]).toBe("no-store");
    const timedOut = await both(query("{ slow(ms: 20000) }"));
    expect(timedOut.body.errors?.[0]?.extensions).toMatchObject({ reason: "graphql.timeout" });
    const anonymous = await both({ ...query("{ me { id } }"), who: "anonymous" });
    expect(anonymous.body.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED" });
    const refusedBearer = await both({
      ...query("{ probe { id } }"),
      headers: { authorization: "Bearer not-a-real-token-abcdefghijkl" },
    });
    expect(refusedBearer.status).toBe(401);
  });
});
