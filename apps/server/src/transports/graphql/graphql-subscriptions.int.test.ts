import type { PubSub } from "@hisob/graphql";
import { sessionDeletedTopic } from "@hisob/graphql";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { gql, listen, waitFor } from "./graphql-test-kit";

let t: TestApp;
let httpUrl: string;
let wsUrl: string;
let pubsub: PubSub;
let tenantId: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await createTestApp({
    graphql: {
      onPubSub: (value) => {
        pubsub = value;
      },
    },
  });
  ({ httpUrl, wsUrl } = await listen(t));
  tenantId = (await t.createTenant()).id;
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await t?.close();
});

const connect = (
  connectionParams?: Record<string, unknown>,
  extra: { closed?: (event: unknown) => void } = {},
) => {
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    ...(connectionParams ? { connectionParams } : {}),
    on: { closed: (event) => extra.closed?.(event) },
  });
  clients.push(client);
  return client;
};

/**
 * Waits until `count` subscriptions listen on the user's topic. A socket opened with a session listens
 * once itself (it closes when that session ends), so one socket with one subscription is 2.
 */
const listening = async (user: SeededUser, count = 2) => {
  const topic = sessionDeletedTopic(tenantId, user.id);
  await waitFor(async () => (await pubsub.listeners(topic)) >= count, `a subscription on ${topic}`);
};

const authenticate = async (user: SeededUser) => {
  const res = await gql(
    httpUrl,
    "mutation($e: String!, $p: String!) { authenticate(email: $e, password: $p) { token session { token } } }",
    { variables: { e: user.email, p: user.password } },
  );
  return res.body.data?.authenticate as { token: string; session: { token: string } };
};

describe("sessionDeleted over graphql-ws", () => {
  it("reaches the owner after deleteSession, and only the owner", async () => {
    const alice = await t.createUser(tenantId, []);
    const bob = await t.createUser(tenantId, []);
    const aliceSecond = await authenticate(alice);
    const bobSecond = await authenticate(bob);

    const aliceEvents = connect({ Authorization: `Bearer ${alice.token}` }).iterate({
      query: "subscription { sessionDeleted { token userId ip userAgent expiresAt createdAt } }",
    });
    const bobEvents = connect({ Authorization: `Bearer ${bob.token}` }).iterate({
      query: "subscription { sessionDeleted { token userId } }",
    });
    const aliceNext = aliceEvents.next();
    const bobNext = bobEvents.next();
    await listening(alice);
    await listening(bob);

    const deleted = await gql(httpUrl, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: aliceSecond.session.token },
      headers: alice.headers,
    });
    expect(deleted.body).toEqual({ data: { deleteSession: true } });
    const received = await aliceNext;
    expect(received.value).toEqual({
      data: {
        sessionDeleted: {
          token: aliceSecond.session.token,
          userId: alice.id,
          ip: "127.0.0.1",
          userAgent: expect.any(String),
          expiresAt: expect.stringMatching(/Z$/),
          createdAt: expect.stringMatching(/Z$/),
        },
      },
    });
    // The secret token never travels in the event.
    expect(JSON.stringify(received.value)).not.toContain(aliceSecond.token);

    // Bob's subscription heard nothing of Alice's: its first event is his own.
    await gql(httpUrl, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: bobSecond.token },
      headers: bob.headers,
    });
    expect((await bobNext).value).toEqual({
      data: { sessionDeleted: { token: bobSecond.session.token, userId: bob.id } },
    });
    await aliceEvents.return?.();
    await bobEvents.return?.();
  });

  it("authenticates from the cookie of the upgrade request", async () => {
    const carol = await t.createUser(tenantId, []);
    const second = await authenticate(carol);
    const client = createClient({
      url: wsUrl,
      retryAttempts: 0,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: { cookie: carol.cookie } });
        }
      },
    });
    clients.push(client);
    const events = client.iterate({ query: "subscription { sessionDeleted { token } }" });
    const next = events.next();
    await listening(carol);
    await gql(httpUrl, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: second.session.token },
      headers: carol.headers,
    });
    expect((await next).value).toEqual({ data: { sessionDeleted: { token: second.session.token } } });
    await events.return?.();
  });

  it("closes the socket with 4401 when the session it was opened with ends", async () => {
    const dave = await t.createUser(tenantId, []);
    const second = await authenticate(dave);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      const client = connect(
        { Authorization: `Bearer ${second.token}` },
        { closed: (event) => resolve(event as { code: number; reason: string }) },
      );
      client
        .iterate({ query: "subscription { sessionDeleted { token } }" })
        .next()
        .catch(() => {});
    });
    // The socket's watch and its subscription both listen before the session is ended.
    await listening(dave);
    await gql(httpUrl, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: second.session.token },
      headers: dave.headers,
    });
    expect(await closed).toMatchObject({ code: 4401, reason: "Session ended" });
  });

  it("says why the session ended: one's own sign-out, an administrator, the organization's deactivation (decision 0086)", async () => {
    const own = await t.createUser(tenantId, []);
    const admin = await t.createUser(tenantId, "admin");
    const ownSecond = await authenticate(own);
    const events = connect({ Authorization: `Bearer ${own.token}` }).iterate({
      query: "subscription { sessionDeleted { token endReason } }",
    });
    let next = events.next();
    await listening(own);
    // The user ends their own other session (as signing out on another device does).
    await gql(httpUrl, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: ownSecond.session.token },
      headers: own.headers,
    });
    expect((await next).value).toEqual({
      data: { sessionDeleted: { token: ownSecond.session.token, endReason: "SIGNED_OUT" } },
    });
    // An administrator ends it.
    const third = await authenticate(own);
    next = events.next();
    await gql(httpUrl, "mutation($t: String!) { deleteSession(token: $t) }", {
      variables: { t: third.session.token },
      headers: admin.headers,
    });
    expect((await next).value).toEqual({
      data: { sessionDeleted: { token: third.session.token, endReason: "ENDED_BY_ADMIN" } },
    });
    // Lists carry no reason.
    const listed = await gql(httpUrl, "{ mySessions { endReason } }", { headers: own.headers });
    expect(listed.body.data?.mySessions).toEqual([{ endReason: null }]);
    await events.return?.();

    // The organization is deactivated by the platform administrator: the event says so, and so does
    // the socket's close.
    const platform = await t.createTenant("Platform", { platform: true });
    const platformAdmin = await t.createUser(platform.id, "admin");
    const closing = await t.createTenant("Closing");
    const member = await t.createUser(closing.id, []);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      const client = connect(
        { Authorization: `Bearer ${member.token}` },
        { closed: (event) => resolve(event as { code: number; reason: string }) },
      );
      const memberEvents = client.iterate({ query: "subscription { sessionDeleted { endReason } }" });
      void memberEvents.next().then(
        (event) => heard.push(event.value),
        () => undefined,
      );
    });
    const heard: unknown[] = [];
    const topic = sessionDeletedTopic(closing.id, member.id);
    await waitFor(async () => (await pubsub.listeners(topic)) >= 2, `a subscription on ${topic}`);
    const deactivated = await t.app.inject({
      method: "PUT",
      url: `/tenants/${closing.id}`,
      headers: platformAdmin.headers,
      payload: { active: false },
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(await closed).toMatchObject({ code: 4401, reason: "Organization deactivated" });
    // The event, when it arrived before the close (the close may win the race: then it alone says why).
    for (const event of heard) {
      expect(event).toEqual({ data: { sessionDeleted: { endReason: "ORGANIZATION_DEACTIVATED" } } });
    }
  });

  it("closes with 4401 without credentials or with a bad bearer", async () => {
    for (const params of [undefined, { Authorization: "Bearer not-a-valid-token-1234567890" }]) {
      const closed = new Promise<{ code: number }>((resolve) => {
        const client = connect(params, { closed: (event) => resolve(event as { code: number }) });
        client
          .iterate({ query: "subscription { sessionDeleted { token } }" })
          .next()
          .catch(() => {});
      });
      expect((await closed).code).toBe(4401);
    }
  });

  it("refuses the upgrade from a foreign Origin (403)", async () => {
    const user = await t.createUser(tenantId, []);
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(wsUrl, "graphql-transport-ws", {
        headers: { origin: "https://evil.example", cookie: user.cookie },
      });
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.on("open", () => reject(new Error("opened")));
      socket.on("error", () => {});
    });
    expect(status).toBe(403);
  });

  it("accepts the server's own Origin", async () => {
    const user = await t.createUser(tenantId, []);
    const opened = await new Promise<boolean>((resolve) => {
      const socket = new WebSocket(wsUrl, "graphql-transport-ws", {
        headers: { origin: "http://localhost:3000" },
      });
      socket.on("open", () => {
        socket.close();
        resolve(true);
      });
      socket.on("unexpected-response", () => resolve(false));
      socket.on("error", () => resolve(false));
    });
    expect(opened).toBe(true);
    expect(user.id).toBeTruthy();
  });

  it("answers queries over the socket with the same error mapping", async () => {
    const reader = await t.createUser(tenantId, []);
    const client = connect({ Authorization: `Bearer ${reader.token}` });
    const result = await client.iterate({ query: "{ users { total } }" }).next();
    expect((result.value as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      "FORBIDDEN",
    );
    const me = await client.iterate({ query: "{ me { id } }" }).next();
    expect(me.value).toEqual({ data: { me: { id: reader.id } } });
  });
});
