import { raiseAccessChanged } from "@hisob/core";
import type { GraphqlContext, GraphqlModule, PubSub } from "@hisob/graphql";
import { accessChangedTopic, callerOf, messageAddedTopic, sessionDeletedTopic } from "@hisob/graphql";
import { requirePermission, type TenantContext } from "@hisob/kernel";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { createOidcKit, type OidcKit, type RegisteredClient } from "../oidc/oidc-test-kit";
import {
  countResolutions,
  countServerCloses,
  dropWhileConnecting,
  holdResolutions,
  listen,
  nextTurn,
  waitFor,
} from "./graphql-test-kit";

/*
 * A GraphQL socket's life on the server, through real WebSocket clients: what it leaves behind when it
 * closes at any moment, how long its credentials carry it, and how its operations are checked again when
 * access changes (docs/decisions/0011-graphql-socket-authorization.md).
 */

/**
 * `heldMessages`: `messageAdded` whose subscribe, when `hold` is set, waits for the test before it checks
 * the caller — the moment between an operation's resolution of its caller and its start, held open.
 */
const subscribing = { hold: false, arrived: 0, release: () => {} };
/** `flaky` subscribes; while this is set, subscribing (its re-authorization) fails: the database is away. */
const flaky = { failAgain: false };
const databaseAway = () =>
  Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" });
/** The signals `eventSignal`'s events were resolved with. */
const eventSignals: (AbortSignal | undefined)[] = [];
const probeModule: GraphqlModule = {
  name: "socket-probe",
  typeDefs: /* GraphQL */ `
    type Subscription {
      heldMessages: String
      eventSignal: Boolean
      flaky: String
    }
  `,
  resolvers: {
    Subscription: {
      flaky: {
        subscribe: (_: unknown, __: unknown, context: GraphqlContext) => {
          if (flaky.failAgain) throw databaseAway();
          return context.pubsub.subscribe(messageAddedTopic(callerOf(context).tenantId));
        },
        resolve: (payload: { body: string }) => payload.body,
      },
      // Whether each event is resolved under a signal (what queued service calls and resolvers stop on).
      eventSignal: {
        subscribe: (_: unknown, __: unknown, context: GraphqlContext) =>
          context.pubsub.subscribe(messageAddedTopic(callerOf(context).tenantId)),
        resolve: (_: unknown, __: unknown, context: GraphqlContext) => {
          eventSignals.push(context.signal);
          return context.signal !== undefined;
        },
      },
      heldMessages: {
        subscribe: async (_: unknown, __: unknown, context: GraphqlContext) => {
          // Held once: subscribing again (its re-authorization) goes straight on.
          if (subscribing.hold) {
            subscribing.hold = false;
            subscribing.arrived += 1;
            await new Promise<void>((resolve) => {
              subscribing.release = resolve;
            });
          }
          const caller = callerOf(context);
          requirePermission(caller, "chats:read:all");
          return context.pubsub.subscribe(messageAddedTopic(caller.tenantId));
        },
        resolve: (payload: { body: string }) => payload.body,
      },
    },
  },
};

let t: TestApp;
/** SQL statements sent while `statements.counting` (tests count a change's round trips). */
const statements = { counting: false, count: 0 };
let wsUrl: string;
let pubsub: PubSub;
let tenantId: string;
let closes: ReturnType<typeof countServerCloses>;
let admin: SeededUser;
const clients: Client[] = [];

beforeAll(async () => {
  t = await createTestApp({
    onQuery: () => {
      if (statements.counting) statements.count += 1;
    },
    graphql: {
      extraModules: [probeModule],
      onPubSub: (value) => {
        pubsub = value;
      },
    },
  });
  ({ wsUrl } = await listen(t));
  closes = countServerCloses(t);
  tenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await t?.close();
});

type Closed = { code: number; reason: string };
type Outcome = { value?: unknown; errors?: { message?: string; extensions?: Record<string, unknown> }[] };

/** A graphql-ws client on `token`, connected at once; `closed` resolves with the socket's close. */
const connect = (token: string) => {
  let onClosed: (event: Closed) => void = () => {};
  const closed = new Promise<Closed>((resolve) => {
    onClosed = resolve;
  });
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    connectionParams: { Authorization: `Bearer ${token}` },
    on: { closed: (event) => onClosed(event as Closed) },
  });
  clients.push(client);
  return { client, closed };
};

/**
 * The first result of an operation: its value, or its errors — a refusal as a result (`next` with
 * errors: refused when subscribing) or as the operation's end (`error`: ended by the server).
 */
const first = (client: Client, query: string): Promise<Outcome> =>
  client
    .iterate({ query })
    .next()
    .then(
      (result) => {
        const value = result.value as { errors?: Outcome["errors"] } | undefined;
        return value?.errors ? { errors: value.errors } : { value };
      },
      (errors: unknown) => ({ errors: errors as Outcome["errors"] }),
    );

const contextOf = async (user: SeededUser) =>
  (await t.services.context.resolveContext({ bearerToken: user.token, requestId: "seed" })) as TenantContext;

const roleOf = async (userId: string) =>
  (
    await t.db.withTenant(tenantId, (tx) =>
      tx.userRole.findFirstOrThrow({ where: { tenantId, userId }, select: { roleId: true } }),
    )
  ).roleId;

const postMessage = async (body: string) => {
  const ctx = await contextOf(admin);
  const client = await t.services.crm.clients.create(ctx, { name: "Socket" });
  const chat = await t.services.crm.chats.create(ctx, { clientId: client.id, channel: "phone" });
  await t.services.crm.chats.postMessage(ctx, chat.id, { body });
  await t.outbox.drain();
};

const revokeChats = async (userId: string) => {
  const roleId = await roleOf(userId);
  const revoked = await t.app.inject({
    method: "DELETE",
    url: `/roles/${roleId}/permissions/chats:read:all`,
    headers: admin.headers,
  });
  expect(revoked.statusCode).toBe(200);
  await t.outbox.drain();
};

describe("a socket that closes while connecting", () => {
  it("leaves no watch behind when it goes while its connection_init is checked", async () => {
    const user: SeededUser = await t.createUser(tenantId, []);
    const topics = [accessChangedTopic(tenantId), sessionDeletedTopic(tenantId, user.id)];
    const listening = async () =>
      (await Promise.all(topics.map((topic) => pubsub.listeners(topic)))).reduce((a, b) => a + b);
    const before = await listening();
    const hold = holdResolutions(t, user.token);
    // "Open, send connection_init, drop", as a client looping on it would.
    for (let index = 1; index <= 5; index += 1) {
      await dropWhileConnecting(wsUrl, user.token, closes, () => hold.arrivals() === index);
    }
    await hold.release();
    // Before the fix each dropped socket kept its two watches (and its re-checks) for good.
    expect(await listening()).toBe(before);
  });
});

describe("a subscription and an access change at the same moment", () => {
  it("cannot escape the re-check when access changes while it is being subscribed", async () => {
    const reader = await t.createUser(tenantId, ["chats:read:all"]);
    const { client } = connect(reader.token);
    // The socket is open and watching (its connection_init resolved the caller).
    expect((await first(client, "{ me { id } }")).value).toEqual({ data: { me: { id: reader.id } } });
    const topic = messageAddedTopic(tenantId);
    const already = await pubsub.listeners(topic);
    // The subscription's own resolution of the caller (still with chats:read:all) is held...
    const hold = holdResolutions(t, reader.token, { held: 1 });
    const outcome = first(client, "subscription { messageAdded { body } }");
    await waitFor(async () => hold.arrivals() === 1, "the subscription to resolve its caller");
    // ...while the permission is revoked and the socket's re-check runs (and finds nothing to end).
    await revokeChats(reader.id);
    await waitFor(async () => hold.arrivals() === 2, "the socket's re-check");
    await hold.release();
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await waitFor(
      async () => settled || (await pubsub.listeners(topic)) > already,
      "the subscription to be refused or to listen",
    );
    // Before the fix it subscribed with the stale caller and received this.
    await postMessage("After the revocation");
    const result = await outcome;
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(JSON.stringify(result)).not.toContain("After the revocation");
    expect(await pubsub.listeners(topic)).toBe(already);
  });
});

describe("a subscription and an access change at the same moment (after its caller was resolved)", () => {
  it("is checked again when access changed between its resolution and its start", async () => {
    const reader = await t.createUser(tenantId, ["chats:read:all"]);
    const { client } = connect(reader.token);
    expect((await first(client, "{ me { id } }")).value).toEqual({ data: { me: { id: reader.id } } });
    const topic = messageAddedTopic(tenantId);
    const already = await pubsub.listeners(topic);
    const arrived = subscribing.arrived;
    subscribing.hold = true;
    const outcome = first(client, "subscription { heldMessages }");
    // Its caller is resolved (with chats:read:all); it has not started yet when the permission goes and
    // the socket's re-check runs, finding no running subscription to check.
    await waitFor(async () => subscribing.arrived === arrived + 1, "the subscription to be subscribing");
    const checks = countResolutions(t, reader.token);
    await revokeChats(reader.id);
    await waitFor(async () => checks.count() === 1, "the socket's re-check");
    await nextTurn();
    subscribing.release();
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await waitFor(
      async () => settled || (await pubsub.listeners(topic)) > already,
      "the subscription to end or to listen",
    );
    // Before the fix it kept running with the caller resolved before the revocation.
    await postMessage("After the revocation, held");
    const result = await outcome;
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(JSON.stringify(result)).not.toContain("After the revocation");
    expect(await pubsub.listeners(topic)).toBe(already);
    checks.stop();
  });
});

describe("an access change for a whole organization", () => {
  it("re-checks its sockets a few at a time, not all at once", async () => {
    const org = (await t.createTenant()).id;
    const member = await t.createUser(org, ["chats:read:all"]);
    const topic = accessChangedTopic(org);
    const sockets = Array.from({ length: 20 }, () => connect(member.token).client);
    await Promise.all(sockets.map((client) => first(client, "{ me { id } }")));
    await waitFor(async () => (await pubsub.listeners(topic)) === 20, "every socket to watch");
    const context = t.services.context;
    const original = context.resolveLive;
    const load = { now: 0, most: 0, done: 0 };
    context.resolveLive = async (credentials) => {
      load.now += 1;
      load.most = Math.max(load.most, load.now);
      try {
        return await original(credentials);
      } finally {
        load.now -= 1;
        load.done += 1;
      }
    };
    try {
      // A role's permissions changed: every user of the organization may be concerned.
      await t.db.withTenant(org, (tx) => raiseAccessChanged(tx, t.outbox, org));
      await t.outbox.drain();
      await waitFor(async () => load.done === 20, "every socket's re-check");
      // Before, all 20 sockets ran their statement at once (1,000 sockets: 1,000 against a pool of 10).
      expect(load.most).toBeLessThanOrEqual(6);
    } finally {
      context.resolveLive = original;
    }
  });
});

describe("a subscription's events", () => {
  it("are resolved under a signal that aborts when the subscription ends", async () => {
    const reader = await t.createUser(tenantId, ["chats:read:all"]);
    const { client } = connect(reader.token);
    const topic = messageAddedTopic(tenantId);
    const already = await pubsub.listeners(topic);
    const events = client.iterate({ query: "subscription { eventSignal }" });
    const next = events.next();
    await waitFor(async () => (await pubsub.listeners(topic)) === already + 1, "the subscription to listen");
    await postMessage("An event");
    // Before, an event's resolvers and service calls had no signal: a closed socket's queued calls ran on.
    expect((await next).value).toEqual({ data: { eventSignal: true } });
    const signal = eventSignals.at(-1);
    expect(signal?.aborted).toBe(false);
    await events.return?.();
    await waitFor(async () => (await pubsub.listeners(topic)) === already, "the subscription to end");
    expect(signal?.aborted).toBe(true);
  });
});

describe("a socket whose caller cannot be checked again", () => {
  it("is closed (1011) when its re-check after an access change fails, rather than run on unchecked", async () => {
    const org = (await t.createTenant()).id;
    const member = await t.createUser(org, ["chats:read:all"]);
    const { client, closed } = connect(member.token);
    await first(client, "{ me { id } }");
    await waitFor(async () => (await pubsub.listeners(accessChangedTopic(org))) === 1, "the socket's watch");
    const context = t.services.context;
    const original = context.resolveLive;
    context.resolveLive = async (credentials) => {
      if (credentials.bearerToken === member.token) throw new Error("the database is away");
      return original(credentials);
    };
    try {
      await t.db.withTenant(org, (tx) => raiseAccessChanged(tx, t.outbox, org));
      await t.outbox.drain();
      // Before, the failure was only logged and the socket's subscriptions ran on as they were.
      expect(await closed).toMatchObject({ code: 1011 });
    } finally {
      context.resolveLive = original;
    }
  });
});

describe("an operation whose caller cannot be resolved", () => {
  it("answers UNAVAILABLE, in the caller's words, and the socket stays", async () => {
    const member = await t.createUser(tenantId, []);
    const { client, closed } = connect(member.token);
    let open = true;
    void closed.then(() => {
      open = false;
    });
    expect((await first(client, "{ me { id } }")).value).toEqual({ data: { me: { id: member.id } } });
    const context = t.services.context;
    const original = context.resolveLive;
    context.resolveLive = async (credentials) => {
      if (credentials.bearerToken === member.token) throw databaseAway();
      return original(credentials);
    };
    let refused: Outcome;
    try {
      refused = await first(client, "{ me { id } }");
    } finally {
      context.resolveLive = original;
    }
    // Before, graphql-ws closed the whole socket with 4500 and the database's text as the reason.
    expect(refused.errors?.[0]).toMatchObject({
      extensions: {
        code: "UNAVAILABLE",
        localizedMessage: expect.any(String),
        requestId: expect.any(String),
      },
    });
    expect(JSON.stringify(refused)).not.toContain("10.0.0.5");
    expect((await first(client, "{ me { id } }")).value).toEqual({ data: { me: { id: member.id } } });
    expect(open).toBe(true);
  });

  it("ends a subscription that cannot be authorized again (the database is away) with UNAVAILABLE", async () => {
    const reader = await t.createUser(tenantId, ["chats:read:all"]);
    const { client } = connect(reader.token);
    const topic = messageAddedTopic(tenantId);
    const already = await pubsub.listeners(topic);
    const outcome = first(client, "subscription { flaky }");
    await waitFor(async () => (await pubsub.listeners(topic)) === already + 1, "the subscription to listen");
    flaky.failAgain = true;
    try {
      // Its access changes (one more permission): it is subscribed again, which fails.
      const roleId = await roleOf(reader.id);
      const granted = await t.app.inject({
        method: "POST",
        url: `/roles/${roleId}/permissions`,
        headers: admin.headers,
        payload: { permissions: ["clients:read:all"] },
      });
      expect(granted.statusCode).toBe(200);
      await t.outbox.drain();
      const result = await outcome;
      expect(result.errors?.[0]).toMatchObject({
        extensions: {
          code: "UNAVAILABLE",
          reason: "database.unavailable",
          localizedMessage: expect.any(String),
          requestId: expect.any(String),
        },
      });
      expect(JSON.stringify(result)).not.toContain("10.0.0.5");
      expect(await pubsub.listeners(topic)).toBe(already);
    } finally {
      flaky.failAgain = false;
    }
  });
});

describe("what a socket refuses before running", () => {
  it("is worded as every other error: code, reason, localizedMessage in the caller's language, requestId", async () => {
    const member = await t.createUser(tenantId, []);
    const { client } = connect(member.token);
    for (const query of ["{ me { id }", "{ nothingHere }", "query A { me { id } }"]) {
      const refused = await new Promise<Outcome>((resolve) => {
        client.subscribe(
          { query, ...(query.startsWith("query A") ? { operationName: "B" } : {}) },
          {
            next: (value) => resolve({ value }),
            error: (errors) => resolve({ errors: errors as Outcome["errors"] }),
            complete: () => {},
          },
        );
      });
      // Before, these came without localizedMessage and requestId.
      expect(refused.errors?.[0]?.extensions, query).toMatchObject({
        code: "VALIDATION_ERROR",
        reason: expect.any(String),
        localizedMessage: expect.any(String),
        requestId: expect.any(String),
      });
    }
  });
});

describe("a socket's credentials that die without anyone changing access", () => {
  let kit: OidcKit;
  let app: RegisteredClient;
  let platformAdmin: SeededUser;
  beforeAll(async () => {
    kit = createOidcKit(t);
    // A first-party client (as the accountant app): its access tokens work on our APIs, sockets included.
    app = await kit.register({ name: "First-party app", isFirstParty: true });
    platformAdmin = await t.createUser((await t.createTenant("Platform", { platform: true })).id, "admin");
  });

  /** The close, or a failure after `ms` (before the fix these sockets stayed open). */
  const closedWithin = (closed: Promise<Closed>, ms = 10_000) =>
    Promise.race([
      closed,
      new Promise<Closed>((_, reject) => {
        setTimeout(() => reject(new Error(`the socket was still open after ${ms} ms`)), ms).unref();
      }),
    ]);
  /** A socket on `token`, open and watching (its first operation answered). */
  const openOn = async (token: string) => {
    const socket = connect(token);
    expect((await first(socket.client, "{ me { id } }")).value).toMatchObject({ data: { me: {} } });
    return socket;
  };
  const tokensOf = async (user: SeededUser) =>
    kit.tokensFor(app, user.token, { scope: "openid offline_access" });

  it("closes a socket (4401) when the session it lives on expires", async () => {
    const member = await t.createUser(tenantId, []);
    await t.db.withTenant(tenantId, (tx) =>
      tx.session.updateMany({
        where: { tenantId, userId: member.id },
        data: { expiresAt: new Date(Date.now() + 1_500) },
      }),
    );
    const { closed } = await openOn(member.token);
    expect(await closedWithin(closed)).toMatchObject({ code: 4401, reason: "Session expired" });
  });

  it("closes a socket (4401) when the OIDC access token it lives on expires", async () => {
    const member = await t.createUser(tenantId, []);
    const tokens = await tokensOf(member);
    await t.db.withTenant(tenantId, (tx) =>
      tx.oidcToken.updateMany({
        where: { tenantId, kind: "access", grant: { userId: member.id } },
        data: { expiresAt: new Date(Date.now() + 1_500) },
      }),
    );
    const { closed } = await openOn(tokens.access_token);
    expect(await closedWithin(closed)).toMatchObject({ code: 4401, reason: "Token expired" });
  });

  it("closes a socket (4401) when the client revokes the grant its access token belongs to", async () => {
    const member = await t.createUser(tenantId, []);
    const tokens = await tokensOf(member);
    const { closed } = await openOn(tokens.access_token);
    expect((await kit.revoke(app, tokens.refresh_token as string)).statusCode).toBe(200);
    await t.outbox.drain();
    expect(await closedWithin(closed)).toMatchObject({ code: 4401 });
  });

  it("closes a socket (4401) when the client revokes its access token", async () => {
    const member = await t.createUser(tenantId, []);
    const tokens = await tokensOf(member);
    const { closed } = await openOn(tokens.access_token);
    expect((await kit.revoke(app, tokens.access_token)).statusCode).toBe(200);
    await t.outbox.drain();
    expect(await closedWithin(closed)).toMatchObject({ code: 4401 });
  });

  it("closes a socket (4401) when a used refresh token comes back and its grant is revoked", async () => {
    const member = await t.createUser(tenantId, []);
    const tokens = await tokensOf(member);
    const { closed } = await openOn(tokens.access_token);
    expect((await kit.refresh(app, tokens.refresh_token as string)).statusCode).toBe(200);
    // The same refresh token again: someone holds a copy, the whole grant goes.
    expect((await kit.refresh(app, tokens.refresh_token as string)).statusCode).toBe(400);
    await t.outbox.drain();
    expect(await closedWithin(closed)).toMatchObject({ code: 4401 });
  });

  it("closes a socket (4401) when its token's client is deactivated", async () => {
    const client = await kit.register({ name: "Deactivated app", isFirstParty: true });
    const member = await t.createUser(tenantId, []);
    const tokens = await kit.tokensFor(client, member.token, { scope: "openid" });
    const { closed } = await openOn(tokens.access_token);
    const deactivated = await t.app.inject({
      method: "PUT",
      url: `/oidc-clients/${client.clientId}`,
      headers: platformAdmin.headers,
      payload: { isActive: false },
    });
    expect(deactivated.statusCode).toBe(200);
    await t.outbox.drain();
    expect(await closedWithin(closed)).toMatchObject({ code: 4401 });
  });

  it("closes a socket on an OIDC token (4401) when its user is deactivated", async () => {
    const member = await t.createUser(tenantId, []);
    const tokens = await tokensOf(member);
    const { closed } = await openOn(tokens.access_token);
    const deactivated = await t.app.inject({
      method: "PUT",
      url: `/users/${member.id}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    await t.outbox.drain();
    expect(await closedWithin(closed)).toMatchObject({ code: 4401 });
  });
});

describe("an organization's deactivation", () => {
  let platformAdmin: SeededUser;
  beforeAll(async () => {
    platformAdmin = await t.createUser((await t.createTenant("Platform", { platform: true })).id, "admin");
  });
  const deactivate = (orgId: string) =>
    t.app.inject({
      method: "PUT",
      url: `/tenants/${orgId}`,
      headers: platformAdmin.headers,
      payload: { active: false },
    });
  const activeOf = async (orgId: string) =>
    (await t.services.tenants.get(await contextOf(platformAdmin), orgId)).active;
  const sessionsOf = (orgId: string) => t.db.withTenant(orgId, (tx) => tx.session.count());

  it("commits with its announcement or not at all", async () => {
    const orgId = (await t.createTenant()).id;
    await t.createUser(orgId, []);
    const { raise } = t.outbox;
    t.outbox.raise = async (tx, event) => {
      if (event.type === "TenantDeactivated") throw new Error("the announcement failed");
      return raise(tx, event);
    };
    try {
      expect((await deactivate(orgId)).statusCode).toBe(500);
    } finally {
      t.outbox.raise = raise;
    }
    // Before, the organization stayed deactivated with its sessions alive and nothing announced.
    expect(await activeOf(orgId)).toBe(true);
    expect(await sessionsOf(orgId)).toBe(1);
  });

  it("ends every session in one statement, each announced (sessionDeleted), whatever their number", async () => {
    const counts: number[] = [];
    for (const members of [1, 20]) {
      const orgId = (await t.createTenant()).id;
      const users = await Promise.all(Array.from({ length: members }, () => t.createUser(orgId, [])));
      const topics = users.map((user) => sessionDeletedTopic(orgId, user.id));
      const heard = users.map((user) => pubsub.subscribe(sessionDeletedTopic(orgId, user.id)).next());
      await waitFor(
        async () => (await Promise.all(topics.map((topic) => pubsub.listeners(topic)))).every((n) => n === 1),
        "every member's sessionDeleted to listen",
      );
      statements.counting = true;
      statements.count = 0;
      try {
        expect((await deactivate(orgId)).statusCode).toBe(200);
      } finally {
        statements.counting = false;
      }
      counts.push(statements.count);
      await t.outbox.drain();
      const payloads = (await Promise.all(heard)).map((result) => result.value as { userId: string });
      expect(payloads.map((payload) => payload.userId).sort()).toEqual(users.map((user) => user.id).sort());
      expect(await sessionsOf(orgId)).toBe(0);
    }
    // Before, each ended session was its own INSERT of its SessionDeleted: 19 statements more for 20.
    // The count is of every statement the app sends, so the outbox relay or a socket's re-check may land
    // in the window on a busy machine (seen: 2 more): a margin well under 19 keeps the test's point.
    expect(counts).toHaveLength(2);
    expect((counts[1] ?? 0) - (counts[0] ?? 0)).toBeLessThanOrEqual(4);
  });

  it("reaches a socket by TenantDeactivated alone, whatever becomes of the sessions", async () => {
    const orgId = (await t.createTenant()).id;
    const member = await t.createUser(orgId, []);
    const { client, closed } = connect(member.token);
    expect((await first(client, "{ me { id } }")).value).toEqual({ data: { me: { id: member.id } } });
    // The organization switched off with its sessions left in place: only the announcement reaches it.
    await t.db.withTenant(orgId, async (tx) => {
      await tx.tenant.update({ where: { id: orgId }, data: { isActive: false } });
      await t.outbox.raise(tx, { type: "TenantDeactivated", tenantId: orgId, payload: { tenantId: orgId } });
    });
    await t.outbox.drain();
    expect(await closed).toMatchObject({ code: 4401 });
    expect(await sessionsOf(orgId)).toBe(1);
  });

  it("closes a socket on an OIDC access token of the organization (4401)", async () => {
    const kit = createOidcKit(t);
    const app = await kit.register({ name: "Org app", isFirstParty: true });
    const orgId = (await t.createTenant()).id;
    const member = await t.createUser(orgId, []);
    const tokens = await kit.tokensFor(app, member.token, { scope: "openid" });
    const { client, closed } = connect(tokens.access_token);
    expect((await first(client, "{ me { id } }")).value).toEqual({ data: { me: { id: member.id } } });
    expect((await deactivate(orgId)).statusCode).toBe(200);
    await t.outbox.drain();
    expect(await closed).toMatchObject({ code: 4401 });
  });
});
