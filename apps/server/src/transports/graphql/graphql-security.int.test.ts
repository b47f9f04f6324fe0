import http from "node:http";
import type { GraphqlModule, PubSub } from "@hisob/graphql";
import { accessChangedTopic, messageAddedTopic, sessionDeletedTopic } from "@hisob/graphql";
import type { TenantContext } from "@hisob/kernel";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { countResolutions, gql, listen, waitFor } from "./graphql-test-kit";

/*
 * The GraphQL findings of an adversarial probe, each reproduced through the real stack (HTTP, real
 * graphql-ws clients, the outbox and the pub/sub) on whichever database the run uses. Each test failed
 * before its fix: subscriptions over HTTP that never ended, a request that outlived its client, a socket
 * that kept a revoked permission or outlived its organization, a cost limit bypassed by variable
 * defaults, and one caller's costly operations queueing every other tenant behind them.
 */

/** A field that holds its execution open until the execution is aborted (its client went away). */
const holding = { now: 0, released: 0 };
const probeModule: GraphqlModule = {
  name: "probe",
  typeDefs: /* GraphQL */ `
    type Query {
      hold: String
    }
  `,
  resolvers: {
    Query: {
      hold: (_: unknown, __: unknown, _context: unknown, info: { signal?: AbortSignal }) =>
        new Promise<string>((resolve) => {
          holding.now += 1;
          info.signal?.addEventListener("abort", () => {
            holding.now -= 1;
            holding.released += 1;
            resolve("released");
          });
        }),
    },
  },
};

let t: TestApp;
let httpUrl: string;
let wsUrl: string;
let port: number;
let pubsub: PubSub;
let tenantId: string;
let admin: SeededUser;
const sockets: Client[] = [];

beforeAll(async () => {
  t = await createTestApp({
    graphql: {
      extraModules: [probeModule],
      onPubSub: (value) => {
        pubsub = value;
      },
    },
  });
  ({ httpUrl, wsUrl, port } = await listen(t));
  tenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
});
afterAll(async () => {
  for (const socket of sockets) await socket.dispose();
  await t?.close();
});

const contextOf = async (user: SeededUser) =>
  (await t.services.context.resolveContext({ bearerToken: user.token, requestId: "seed" })) as TenantContext;

/** A POST over a raw connection: the test decides when the client goes away. */
const rawPost = (body: unknown, headers: Record<string, string>) => {
  const state: { status?: number; body: string } = { body: "" };
  const request = http.request({
    host: "127.0.0.1",
    port,
    path: "/api/graphql",
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
  });
  request.on("response", (response) => {
    state.status = response.statusCode;
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      state.body += chunk;
    });
  });
  request.on("error", () => {});
  request.end(JSON.stringify(body));
  return { state, abandon: () => request.destroy() };
};

describe("subscriptions over plain HTTP", () => {
  it("are refused at once whatever the Accept, and abandoned ones leave nothing listening", async () => {
    const user = await t.createUser(tenantId, ["chats:read:all"]);
    const topics = [sessionDeletedTopic(tenantId, user.id), messageAddedTopic(tenantId)];
    const listening = async () =>
      (await Promise.all(topics.map((topic) => pubsub.listeners(topic)))).reduce((a, b) => a + b);
    const queries = ["subscription { sessionDeleted { token } }", "subscription { messageAdded { body } }"];
    // curl's default (*/*), no Accept at all, and a browser's: none may hold the request open.
    const accepts: Record<string, string>[] = [{ accept: "*/*" }, {}, { accept: "text/html, */*;q=0.8" }];
    const requests = accepts.flatMap((accept) =>
      queries.map((query) => rawPost({ query }, { ...accept, authorization: `Bearer ${user.token}` })),
    );
    // Every request either answered or subscribed (before the fix they subscribed and never answered).
    await waitFor(
      async () =>
        requests.every((request) => request.state.status !== undefined) ||
        (await listening()) >= requests.length,
      "every request to answer or subscribe",
    );
    for (const request of requests) request.abandon();
    await waitFor(
      async () => (await listening()) === 0,
      "no subscription left behind by an abandoned request",
    );
    for (const request of requests) {
      expect(request.state.status).toBe(406);
      expect(JSON.parse(request.state.body).errors[0].extensions).toMatchObject({
        code: "VALIDATION_ERROR",
        reason: "graphql.subscription_over_http",
      });
    }
    // In a batch, the subscription's entry carries the refusal and the query beside it runs.
    const batch = await fetch(httpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "*/*", authorization: `Bearer ${user.token}` },
      body: JSON.stringify([{ query: queries[0] }, { query: "{ me { id } }" }]),
    });
    expect(batch.status).toBe(200);
    expect(await batch.json()).toMatchObject([
      { errors: [{ extensions: { reason: "graphql.subscription_over_http" } }] },
      { data: { me: { id: user.id } } },
    ]);
    expect(await listening()).toBe(0);
    // A GET is refused the same way.
    const get = await fetch(`${httpUrl}?query=${encodeURIComponent(queries[0] as string)}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(get.status).toBe(406);
    // Events after the clients left reach no one over HTTP: nothing buffers them.
    const ctx = await contextOf(admin);
    const client = await t.services.crm.clients.create(ctx, { name: "After" });
    const chat = await t.services.crm.chats.create(ctx, { clientId: client.id, channel: "phone" });
    await t.services.crm.chats.postMessage(ctx, chat.id, { body: "x".repeat(9_000) });
    await t.outbox.drain();
    expect(await listening()).toBe(0);
  });
});

describe("a request and its client", () => {
  it("ends when its client goes away: execution is aborted, nothing keeps running", async () => {
    const before = holding.released;
    const requests = Array.from({ length: 5 }, () => rawPost({ query: "{ hold }" }, admin.headers));
    await waitFor(async () => holding.now === 5, "the five executions to start");
    for (const request of requests) request.abandon();
    // Before the fix they ran until the 30 s execution timeout.
    await waitFor(async () => holding.now === 0, "the executions to end with their clients", 10_000);
    expect(holding.released - before).toBe(5);
  });

  it("ends with its socket: a query still running on a closed socket is aborted", async () => {
    const before = holding.released;
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${admin.token}` },
    });
    client
      .iterate({ query: "{ hold }" })
      .next()
      .catch(() => {});
    await waitFor(async () => holding.now === 1, "the execution to start");
    await client.dispose();
    await waitFor(async () => holding.now === 0, "the execution to end with its socket", 10_000);
    expect(holding.released - before).toBe(1);
  });
});

describe("a socket's caller is the one the database knows now", () => {
  const connect = (user: SeededUser, closed?: (event: { code: number; reason: string }) => void) => {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      // Eager when the test watches the close: a lazy client closes its socket when idle.
      lazy: closed === undefined,
      onNonLazyError: () => {},
      connectionParams: { Authorization: `Bearer ${user.token}` },
      on: { closed: (event) => closed?.(event as { code: number; reason: string }) },
    });
    sockets.push(client);
    return client;
  };
  /** The first result of an operation on the socket: its data, or the errors it ended with. */
  const once = async (client: Client, query: string) => {
    try {
      return (await client.iterate({ query }).next()).value as {
        data?: unknown;
        errors?: { extensions?: { code?: string; reason?: string } }[];
      };
    } catch (errors) {
      return { errors: errors as { extensions?: { code?: string; reason?: string } }[] };
    }
  };
  const roleOf = async (userId: string) =>
    (
      await t.db.withTenant(tenantId, (tx) =>
        tx.userRole.findFirstOrThrow({ where: { tenantId, userId }, select: { roleId: true } }),
      )
    ).roleId;
  const rest = (method: "PUT" | "DELETE", url: string, payload?: Record<string, unknown>, who = admin) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const openChat = async () => {
    const ctx = await contextOf(admin);
    const client = await t.services.crm.clients.create(ctx, { name: "Socket" });
    return (await t.services.crm.chats.create(ctx, { clientId: client.id, channel: "phone" })).id;
  };

  /** A chat reader's socket with a running messageAdded subscription, listening. */
  const readerWithSubscription = async () => {
    const reader = await t.createUser(tenantId, ["chats:read:all"]);
    const client = connect(reader);
    const topic = messageAddedTopic(tenantId);
    const already = await pubsub.listeners(topic);
    const events = client.iterate({ query: "subscription { messageAdded { body } }" });
    const next = events.next().then(
      (result) => ({ value: result.value as unknown }),
      (errors: unknown) => ({ errors: errors as { extensions?: { code?: string } }[] }),
    );
    await waitFor(async () => (await pubsub.listeners(topic)) === already + 1, "the subscription to listen");
    // The socket's access watch listens too.
    await waitFor(async () => (await pubsub.listeners(accessChangedTopic(tenantId))) > 0, "the access watch");
    return { reader, client, next, topic, already };
  };

  /** After a revocation: the subscription ended with FORBIDDEN, and new operations on the socket are refused. */
  const expectRevoked = async (subscribed: Awaited<ReturnType<typeof readerWithSubscription>>) => {
    // Before the fix the subscription kept listening (and received every later message).
    await waitFor(
      async () => (await pubsub.listeners(subscribed.topic)) === subscribed.already,
      "the subscription to end",
    );
    const chatId = await openChat();
    await t.services.crm.chats.postMessage(await contextOf(admin), chatId, { body: "After the revocation" });
    const ended = await subscribed.next;
    expect(ended).toMatchObject({ errors: [{ extensions: { code: "FORBIDDEN" } }] });
    expect(JSON.stringify(ended)).not.toContain("After the revocation");
    const query = await once(subscribed.client, "{ chats(limit: 2) { total data { subject } } }");
    expect(query.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const subscription = await once(subscribed.client, "subscription { messageAdded { body } }");
    expect(subscription.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // The socket itself stays: its caller is still signed in.
    expect((await once(subscribed.client, "{ me { id } }")).data).toEqual({
      me: { id: subscribed.reader.id },
    });
  };

  it("ends a running subscription and refuses new operations when the permission is removed from the role", async () => {
    const subscribed = await readerWithSubscription();
    const roleId = await roleOf(subscribed.reader.id);
    expect((await rest("DELETE", `/roles/${roleId}/permissions/chats:read:all`)).statusCode).toBe(200);
    await expectRevoked(subscribed);
  });

  it("does the same when the role is unassigned", async () => {
    const subscribed = await readerWithSubscription();
    const roleId = await roleOf(subscribed.reader.id);
    expect((await rest("DELETE", `/users/${subscribed.reader.id}/roles/${roleId}`)).statusCode).toBe(200);
    await expectRevoked(subscribed);
  });

  it("does the same when the role is deleted", async () => {
    const subscribed = await readerWithSubscription();
    const roleId = await roleOf(subscribed.reader.id);
    expect((await rest("DELETE", `/roles/${roleId}`)).statusCode).toBe(204);
    await expectRevoked(subscribed);
  });

  /** A reader whose chats:read:all comes through a group's role only, with a running subscription. */
  const groupReaderWithSubscription = async () => {
    const reader = await t.createUser(tenantId, []);
    const role = await t.app.inject({
      method: "POST",
      url: "/roles",
      headers: admin.headers,
      payload: { name: `Chat readers ${reader.id}`, permissions: ["chats:read:all"] },
    });
    expect(role.statusCode).toBe(201);
    const group = await t.app.inject({
      method: "POST",
      url: "/groups",
      headers: admin.headers,
      payload: { name: `Readers ${reader.id}`, roleIds: [role.json().id], userIds: [reader.id] },
    });
    expect(group.statusCode).toBe(201);
    const client = connect(reader);
    const topic = messageAddedTopic(tenantId);
    const already = await pubsub.listeners(topic);
    const next = client
      .iterate({ query: "subscription { messageAdded { body } }" })
      .next()
      .then(
        (result) => ({ value: result.value as unknown }),
        (errors: unknown) => ({ errors: errors as { extensions?: { code?: string } }[] }),
      );
    await waitFor(async () => (await pubsub.listeners(topic)) === already + 1, "the subscription to listen");
    return { reader, client, next, topic, already, groupId: group.json().id as string };
  };

  it("does the same when the group the permission comes through loses the role", async () => {
    const subscribed = await groupReaderWithSubscription();
    const changed = await t.app.inject({
      method: "PUT",
      url: `/groups/${subscribed.groupId}`,
      headers: admin.headers,
      payload: { roleIds: [] },
    });
    expect(changed.statusCode).toBe(200);
    await expectRevoked(subscribed);
  });

  it("does the same when the user leaves that group", async () => {
    const subscribed = await groupReaderWithSubscription();
    const left = await rest("DELETE", `/groups/${subscribed.groupId}/users/${subscribed.reader.id}`);
    expect([200, 204]).toContain(left.statusCode);
    await expectRevoked(subscribed);
  });

  it("does the same when that group is deleted", async () => {
    const subscribed = await groupReaderWithSubscription();
    expect((await rest("DELETE", `/groups/${subscribed.groupId}`)).statusCode).toBe(204);
    await expectRevoked(subscribed);
  });

  it("lets a subscription the caller may still run go on after an unrelated change", async () => {
    const subscribed = await readerWithSubscription();
    const roleId = await roleOf(subscribed.reader.id);
    const checks = countResolutions(t, subscribed.reader.token);
    // A permission added (and a new access check) leaves chats:read:all in place.
    const granted = await t.app.inject({
      method: "POST",
      url: `/roles/${roleId}/permissions`,
      headers: admin.headers,
      payload: { permissions: ["clients:read:all"] },
    });
    expect(granted.statusCode).toBe(200);
    await t.outbox.drain();
    // The change was announced and the socket checked its caller again (and kept the subscription).
    await waitFor(async () => checks.count() === 1, "the socket's re-check");
    checks.stop();
    const chatId = await openChat();
    await t.services.crm.chats.postMessage(await contextOf(admin), chatId, { body: "Still here" });
    expect(await subscribed.next).toEqual({ value: { data: { messageAdded: { body: "Still here" } } } });
  });

  it("closes the socket (4401) and delivers sessionDeleted when the organization is deactivated", async () => {
    const platformTenant = (await t.createTenant("Platform", { platform: true })).id;
    const platformAdmin = await t.createUser(platformTenant, "admin");
    const orgId = (await t.createTenant()).id;
    const member = await t.createUser(orgId, ["payments:read:all"]);
    // Two sockets of the member: one hears sessionDeleted, both close.
    const closes: Promise<{ code: number; reason: string }>[] = [];
    const clients = [0, 1].map(() => {
      let resolve: (event: { code: number; reason: string }) => void = () => {};
      closes.push(
        new Promise((done) => {
          resolve = done;
        }),
      );
      return connect(member, (event) => resolve(event));
    });
    const [first, second] = clients as [Client, Client];
    expect((await once(first, "{ me { email } payments(limit: 1) { total } }")).data).toMatchObject({
      me: { email: member.email },
    });
    const deleted = second.iterate({ query: "subscription { sessionDeleted { token userId } }" });
    const heard = deleted.next().then(
      (result) => result.value,
      () => null,
    );
    await waitFor(
      async () => (await pubsub.listeners(sessionDeletedTopic(orgId, member.id))) >= 3,
      "both sockets' session watch and the subscription",
    );
    const deactivated = await t.app.inject({
      method: "PUT",
      url: `/tenants/${orgId}`,
      headers: platformAdmin.headers,
      payload: { active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    const [firstClosed, secondClosed] = await Promise.all(closes);
    expect(firstClosed).toMatchObject({ code: 4401, reason: "Organization deactivated" });
    expect(secondClosed).toMatchObject({ code: 4401, reason: "Organization deactivated" });
    expect(await heard).toEqual({
      data: { sessionDeleted: { token: expect.any(String), userId: member.id } },
    });
    // Over HTTP the same bearer is refused, as before.
    expect((await gql(httpUrl, "{ me { id } }", { headers: member.headers })).status).toBe(401);
  });
});

describe("query cost and one caller's share of the database", () => {
  let chatIds: string[] = [];
  beforeAll(async () => {
    const ctx = await contextOf(admin);
    const client = await t.services.crm.clients.create(ctx, { name: "Costly" });
    chatIds = [];
    for (let index = 0; index < 12; index += 1) {
      const chat = await t.services.crm.chats.create(ctx, { clientId: client.id, channel: "phone" });
      await t.services.crm.chats.postMessage(ctx, chat.id, { body: `First of ${index}` });
      await t.services.crm.chats.postMessage(ctx, chat.id, { body: `Second of ${index}` });
      chatIds.push(chat.id);
    }
  });

  const NESTED = "chats(limit: $l) { data { messages(limit: $l) { data { id } } } }";

  it("prices the operation with the values it runs with: variable defaults, aliases, fragments", async () => {
    // Sent with no variables: the default (100) is what runs, so the cost is 1 + 100 × (2 + 100).
    const byDefault = await gql(httpUrl, `query($l: Int = 100) { ${NESTED} }`, { headers: admin.headers });
    expect(byDefault.status).toBe(400);
    expect(byDefault.body.errors?.[0]).toMatchObject({
      message: "validation error: query cost 10201 exceeds the maximum of 1000",
      extensions: { code: "VALIDATION_ERROR", reason: "graphql.cost_limit" },
    });
    // Fifteen aliases of a cheap-looking fragment.
    const aliases = Array.from({ length: 15 }, (_, index) => `a${index}: chats(limit: $l) { ...F }`).join(
      " ",
    );
    const fragmented = await gql(
      httpUrl,
      `query($l: Int = 10) { ${aliases} } fragment F on PaginatedChats { data { messages(limit: $l) { data { id } } } }`,
      { headers: admin.headers },
    );
    expect(fragmented.status).toBe(400);
    expect(fragmented.body.errors?.[0]?.extensions).toMatchObject({ reason: "graphql.cost_limit" });
    // The same operation with small values sent runs.
    const small = await gql(httpUrl, `query($l: Int = 100) { ${NESTED} }`, {
      headers: admin.headers,
      variables: { l: 5 },
    });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it("prices a list without a limit by its bound: an order's lines (at most 200)", async () => {
    const query = "{ orders(limit: 10) { data { lines { product { name } } } } }";
    // 1 + 10 × (1 + (1 + 200 × 1)); before, each order's lines counted as one line: 31, and ran.
    const refused = await gql(httpUrl, query, { headers: admin.headers });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: "validation error: query cost 2021 exceeds the maximum of 1000",
      extensions: { code: "VALIDATION_ERROR", reason: "graphql.cost_limit" },
    });
    const small = await gql(httpUrl, "{ orders(limit: 4) { data { lines { product { name } } } } }", {
      headers: admin.headers,
    });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it("loads the messages of a page of chats in one service call, not one per chat", async () => {
    const chats = t.services.crm.chats;
    const calls = { batched: 0, single: 0 };
    const { listMessagesOfChats, listMessages } = chats;
    chats.listMessagesOfChats = (...args) => {
      calls.batched += 1;
      return listMessagesOfChats(...args);
    };
    chats.listMessages = (...args) => {
      calls.single += 1;
      return listMessages(...args);
    };
    try {
      const res = await gql(
        httpUrl,
        "{ chats(limit: 12) { data { id messages { total data { body } } } } }",
        { headers: admin.headers },
      );
      expect(res.body.errors).toBeUndefined();
      const data = (
        res.body.data?.chats as {
          data: { id: string; messages: { total: string; data: { body: string }[] } }[];
        }
      ).data;
      expect(data).toHaveLength(12);
      for (const chat of data) {
        const index = chatIds.indexOf(chat.id);
        expect(chat.messages).toEqual({
          total: "2",
          data: [{ body: `First of ${index}` }, { body: `Second of ${index}` }],
        });
      }
      expect(calls).toEqual({ batched: 1, single: 0 });
    } finally {
      chats.listMessagesOfChats = listMessagesOfChats;
      chats.listMessages = listMessages;
    }
  });

  it("serves another tenant while one caller's costly operations are still queued", async () => {
    const otherTenant = (await t.createTenant()).id;
    const other = await t.createUser(otherTenant, ["clients:read:all"]);
    const chats = t.services.crm.chats;
    const { list } = chats;
    const progress = { started: 0, finished: 0 };
    chats.list = async (...args) => {
      progress.started += 1;
      try {
        return await list(...args);
      } finally {
        progress.finished += 1;
      }
    };
    try {
      // One caller: a batch of ten operations of fifteen aliases each, 150 chat lists in flight.
      const operation = `{ ${Array.from({ length: 15 }, (_, index) => `a${index}: chats(limit: 1) { total }`).join(" ")} }`;
      const costly = fetch(httpUrl, {
        method: "POST",
        headers: { "content-type": "application/json", ...admin.headers },
        body: JSON.stringify(Array.from({ length: 10 }, () => ({ query: operation }))),
      });
      await waitFor(async () => progress.started > 0, "the costly operations to start");

      // Another tenant's request: before the fix it waited behind all 150 transactions.
      const answered = await gql(httpUrl, "{ clients(limit: 1) { total } }", { headers: other.headers });
      const finishedWhenAnswered = progress.finished;
      expect(answered.status).toBe(200);
      expect(answered.body.errors).toBeUndefined();
      // Measured: 16 of 150 (PGlite), 5 to 11 (PostgreSQL), on two busy cores; before the fix, all 150.
      expect(finishedWhenAnswered).toBeLessThan(40);
      const results = (await (await costly).json()) as { errors?: unknown }[];
      expect(results.every((result) => result.errors === undefined)).toBe(true);
      expect(progress.finished).toBe(150);
    } finally {
      chats.list = list;
    }
  });
});

describe("one organization's share of the database", () => {
  it("runs at most GRAPHQL_CONCURRENCY_PER_TENANT (6) service calls of an organization at once, whoever calls", async () => {
    const users = await Promise.all([0, 1, 2].map(() => t.createUser(tenantId, ["chats:read:all"])));
    const chats = t.services.crm.chats;
    const { list } = chats;
    // Every call is held until the test has seen how many run: asked for (the resolvers reached it) and
    // running (a slot was free).
    const load = { asked: 0, running: 0 };
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: typeof list = async (...args) => {
      load.running += 1;
      await released;
      return list(...args);
    };
    Object.defineProperty(chats, "list", {
      configurable: true,
      get: () => {
        load.asked += 1;
        return held;
      },
    });
    try {
      const operation = `{ ${Array.from({ length: 15 }, (_, index) => `a${index}: chats(limit: 1) { total }`).join(" ")} }`;
      // Three users of one organization, each with a batch of 2 × 15 chat lists.
      const responses = users.map((user) =>
        fetch(httpUrl, {
          method: "POST",
          headers: { "content-type": "application/json", ...user.headers },
          body: JSON.stringify([{ query: operation }, { query: operation }]),
        }),
      );
      await waitFor(async () => load.asked === 3 * 2 * 15, "every call to be asked for");
      await new Promise((resolve) => setImmediate(resolve));
      // Before, each user had 4: 12 of the organization's calls at once, more than PostgreSQL's pool of 10.
      expect(load.running).toBe(6);
      release();
      const results = await Promise.all(
        responses.map(async (response) => (await (await response).json()) as { errors?: unknown }[]),
      );
      expect(results.flat().every((result) => result.errors === undefined)).toBe(true);
      expect(load.running).toBe(3 * 2 * 15);
    } finally {
      Object.defineProperty(chats, "list", { configurable: true, writable: true, value: list });
    }
  });
});

describe("production: introspection, caching and HSTS", () => {
  let production: TestApp;
  let member: SeededUser;
  beforeAll(async () => {
    // What NODE_ENV=production defaults to (env.test.ts), on an https issuer.
    production = await createTestApp({
      env: { GRAPHQL_INTROSPECTION: "signed-in", OIDC_ISSUER_URL: "https://id.example.com" },
    });
    member = await production.createUser((await production.createTenant()).id, []);
  });
  afterAll(async () => production?.close());

  const post = (query: string, headers: Record<string, string> = {}) =>
    production.app.inject({
      method: "POST",
      url: "/api/graphql",
      headers: { "content-type": "application/json", ...headers },
      payload: { query },
    });

  it("reads the schema only for a signed-in caller, and never lets a shared cache keep it", async () => {
    for (const query of [
      "{ __schema { queryType { name } } }",
      '{ ...Q } fragment Q on Query { __type(name: "User") { name } }',
    ]) {
      const anonymous = await post(query);
      expect(anonymous.statusCode, query).toBe(401);
      expect(anonymous.headers["cache-control"]).toBe("no-store");
      expect(anonymous.json().errors[0].extensions).toMatchObject({
        code: "UNAUTHENTICATED",
        reason: "graphql.introspection_unauthenticated",
        localizedMessage: expect.any(String),
      });
      const signedIn = await post(query, member.headers);
      expect(signedIn.statusCode, query).toBe(200);
      expect(signedIn.json().errors).toBeUndefined();
      expect(signedIn.headers["cache-control"]).toBe("private, no-cache");
    }
    const overGet = await production.app.inject({
      method: "GET",
      url: `/api/graphql?query=${encodeURIComponent("{ __schema { types { name } } }")}`,
    });
    expect(overGet.statusCode).toBe(401);
    // What cannot depend on the caller stays cacheable: __typename is not introspection.
    const typename = await post("{ __typename }");
    expect(typename.statusCode).toBe(200);
    expect(typename.headers["cache-control"]).toBe("public, max-age=300");
  });

  it("sends HSTS when the issuer is https, and only then", async () => {
    const res = await production.app.inject({ method: "GET", url: "/healthz" });
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000");
    const plain = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
  });
});
