import { randomUUID } from "node:crypto";
import { accessChangedTopic, messageAddedTopic, type PubSub, sessionDeletedTopic } from "@hisob/graphql";
import { type Client, createClient } from "graphql-ws";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createTestApp, type TestApp } from "../../testing/test-app";
import {
  countServerCloses,
  dropWhileConnecting,
  gql,
  holdResolutions,
  listen,
  waitFor,
} from "./graphql-test-kit";

/*
 * Two server instances on one database with Redis (REDIS_URL, default redis://127.0.0.1:6379) as the
 * pub/sub: a session deleted through instance A reaches a subscriber connected to instance B, and so does
 * a permission revoked through A (B's subscription ends).
 * On PostgreSQL (DATABASE_URL) this is the production shape.
 */

const REDIS_URL = "redis://127.0.0.1:6379";
let a: TestApp;
let b: TestApp;
let pubsubB: PubSub;

beforeAll(async () => {
  a = await createTestApp({ env: { REDIS_URL } });
  b = await createTestApp({
    env: { REDIS_URL },
    db: a.db,
    graphql: {
      onPubSub: (pubsub) => {
        pubsubB = pubsub;
      },
    },
  });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

it("delivers sessionDeleted across instances through Redis", async () => {
  const urlA = (await listen(a)).httpUrl;
  const { wsUrl: wsB } = await listen(b);
  const tenantId = (await a.createTenant()).id;
  const user = await a.createUser(tenantId, []);
  const second = await gql(
    urlA,
    "mutation($e: String!, $p: String!) { authenticate(email: $e, password: $p) { session { token } } }",
    { variables: { e: user.email, p: user.password } },
  );
  const sessionId = (second.body.data?.authenticate as { session: { token: string } }).session.token;

  const client = createClient({
    url: wsB,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { Authorization: `Bearer ${user.token}` },
  });
  const events = client.iterate({ query: "subscription { sessionDeleted { token userId } }" });
  const next = events.next();
  const topic = sessionDeletedTopic(tenantId, user.id);
  await waitFor(
    async () => (await pubsubB.listeners(topic)) >= 2,
    "instance B to subscribe (the socket's session watch and the subscription)",
  );

  const deleted = await gql(urlA, "mutation($t: String!) { deleteSession(token: $t) }", {
    variables: { t: sessionId },
    headers: user.headers,
  });
  expect(deleted.body).toEqual({ data: { deleteSession: true } });
  expect((await next).value).toEqual({ data: { sessionDeleted: { token: sessionId, userId: user.id } } });
  await events.return?.();
  await client.dispose();

  // Instance B's channel is dropped once its last local listener is gone.
  await waitFor(async () => (await pubsubB.listeners(topic)) === 0, "the channel to be unsubscribed");
  const redis = new Redis(REDIS_URL);
  try {
    await waitFor(
      async () =>
        Number(((await redis.pubsub("NUMSUB", `hisob:graphql:${topic}`)) as [string, number])[1]) === 0,
      "Redis to forget the channel",
    );
  } finally {
    redis.disconnect();
  }
});

it("shares the rate-limit counter between instances through Redis", async () => {
  // Both instances listen since the first test.
  const urlOf = (instance: TestApp) =>
    `http://127.0.0.1:${(instance.app.server.address() as { port: number }).port}/api/graphql`;
  const [urlA, urlB] = [urlOf(a), urlOf(b)];
  const tenantId = (await a.createTenant()).id;
  const user = await a.createUser(tenantId, []);
  const first = await gql(urlA, "{ me { id } }", { headers: user.headers });
  const second = await gql(urlB, "{ me { id } }", { headers: user.headers });
  expect(first.headers.get("x-ratelimit-remaining")).toBe("999");
  expect(second.headers.get("x-ratelimit-remaining")).toBe("998");
});

it("ends a subscription on instance B when its permission is revoked through instance A", async () => {
  const tenantId = (await a.createTenant()).id;
  const admin = await a.createUser(tenantId, "admin");
  const reader = await a.createUser(tenantId, ["chats:read:all"]);
  // Both instances listen since the first test.
  const wsB = `ws://127.0.0.1:${(b.app.server.address() as { port: number }).port}/api/graphql`;
  const client = createClient({
    url: wsB,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { Authorization: `Bearer ${reader.token}` },
  });
  try {
    const topic = messageAddedTopic(tenantId);
    const next = client
      .iterate({ query: "subscription { messageAdded { body } }" })
      .next()
      .then(
        (result) => ({ value: result.value as unknown }),
        (errors: unknown) => ({ errors }),
      );
    await waitFor(async () => (await pubsubB.listeners(topic)) === 1, "instance B's subscription");
    await waitFor(
      async () => (await pubsubB.listeners(accessChangedTopic(tenantId))) === 1,
      "instance B's access watch",
    );
    const { roleId } = await a.db.withTenant(tenantId, (tx) =>
      tx.userRole.findFirstOrThrow({ where: { tenantId, userId: reader.id }, select: { roleId: true } }),
    );
    const revoked = await a.app.inject({
      method: "DELETE",
      url: `/roles/${roleId}/permissions/chats:read:all`,
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(200);
    // Instance A's outbox publishes the change to Redis; instance B ends the subscription.
    await waitFor(async () => (await pubsubB.listeners(topic)) === 0, "the subscription on B to end");
    expect(await next).toMatchObject({ errors: [{ extensions: { code: "FORBIDDEN" } }] });
  } finally {
    await client.dispose();
  }
});

it("releases instance B's Redis channels of a socket dropped while its connection_init was checked", async () => {
  const tenantId = (await a.createTenant()).id;
  const user = await a.createUser(tenantId, []);
  const wsB = `ws://127.0.0.1:${(b.app.server.address() as { port: number }).port}/api/graphql`;
  const topics = [accessChangedTopic(tenantId), sessionDeletedTopic(tenantId, user.id)];
  const hold = holdResolutions(b, user.token);
  const closes = countServerCloses(b);
  for (let index = 1; index <= 3; index += 1) {
    await dropWhileConnecting(wsB, user.token, closes, () => hold.arrivals() === index);
  }
  await hold.release();
  // Before the fix instance B kept both channels subscribed in Redis for every dropped socket.
  for (const topic of topics) expect(await pubsubB.listeners(topic)).toBe(0);
  const redis = new Redis(REDIS_URL);
  try {
    for (const topic of topics) {
      await waitFor(
        async () =>
          Number(((await redis.pubsub("NUMSUB", `hisob:graphql:${topic}`)) as [string, number])[1]) === 0,
        `Redis to have no subscriber on ${topic}`,
      );
    }
  } finally {
    redis.disconnect();
  }
});

describe("a socket whose watch fails", () => {
  // An instance on a Redis user of its own: the test can take away its SUBSCRIBE, or cut its connections,
  // without touching anything else that uses this Redis.
  const redisUser = `hisob-test-${randomUUID()}`;
  let admin: Redis;
  let c: TestApp;
  let pubsubC: PubSub;
  let wsC: string;
  let tenantId: string;
  let token: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    admin = new Redis(REDIS_URL);
    await admin.call("ACL", "SETUSER", redisUser, "on", ">test", "~*", "&*", "+@all");
    c = await createTestApp({
      env: { REDIS_URL: `redis://${encodeURIComponent(redisUser)}:test@127.0.0.1:6379` },
      db: a.db,
      graphql: {
        onPubSub: (pubsub) => {
          pubsubC = pubsub;
        },
      },
    });
    wsC = (await listen(c)).wsUrl;
    tenantId = (await c.createTenant()).id;
    token = (await c.createUser(tenantId, [])).token;
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await c?.close();
    await admin?.call("ACL", "DELUSER", redisUser);
    admin?.disconnect();
  });

  /** A connected client on instance C; `closed` resolves with its socket's first close. */
  const connectC = () => {
    let onClosed: (event: { code: number; reason: string }) => void = () => {};
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      onClosed = resolve;
    });
    const client = createClient({
      url: wsC,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
      connectionParams: { Authorization: `Bearer ${token}` },
      on: { closed: (event) => onClosed(event as { code: number; reason: string }) },
    });
    clients.push(client);
    return { client, closed };
  };
  const watching = () => pubsubC.listeners(accessChangedTopic(tenantId));

  it("closes the socket (1011) when Redis refuses its watch's SUBSCRIBE, so the client connects again", async () => {
    await admin.call("ACL", "SETUSER", redisUser, "-subscribe");
    try {
      const { closed } = connectC();
      // Before, the failure was only logged and the socket ran on, deaf to every access change.
      expect(await closed).toMatchObject({ code: 1011 });
    } finally {
      await admin.call("ACL", "SETUSER", redisUser, "+subscribe");
    }
    // The next connection watches as it should.
    const { client } = connectC();
    await waitFor(async () => (await watching()) === 1, "the new socket's watch");
    const me = await client.iterate({ query: "{ me { id } }" }).next();
    expect(me.value).toMatchObject({ data: { me: { id: expect.any(String) } } });
    await client.dispose();
    await waitFor(async () => (await watching()) === 0, "the watch to end with its socket");
  });

  it("closes its sockets (1011) when the connection to Redis is lost: events published meanwhile are gone", async () => {
    const { closed } = connectC();
    await waitFor(async () => (await watching()) === 1, "the socket's watch");
    await admin.call("CLIENT", "KILL", "USER", redisUser);
    // Before, the socket stayed open and missed whatever was announced while Redis was away.
    expect(await closed).toMatchObject({ code: 1011 });
    expect(await watching()).toBe(0);
    // Once the instance is connected to Redis again, a new socket watches (one made before is closed too).
    await waitFor(async () => {
      const next = connectC();
      const ended = next.closed.then(() => true);
      let gone = false;
      void ended.then(() => {
        gone = true;
      });
      await waitFor(async () => gone || (await watching()) === 1, "the new socket to watch or close");
      return !gone;
    }, "a socket to watch once Redis is back");
  });
});
