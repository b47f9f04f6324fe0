import type { PubSub } from "@hisob/graphql";
import { accessChangedTopic, sessionDeletedTopic } from "@hisob/graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../testing/test-app";
import { countServerCloses, dropWhileConnecting, holdResolutions, listen } from "./graphql-test-kit";

/*
 * A GraphQL socket's life on the server, through real WebSocket clients: what it leaves behind when it
 * closes at any moment, how long its credentials carry it, and how its operations are checked again when
 * access changes (docs/decisions/0011-graphql-socket-authorization.md).
 */

let t: TestApp;
let wsUrl: string;
let pubsub: PubSub;
let tenantId: string;
let closes: ReturnType<typeof countServerCloses>;

beforeAll(async () => {
  t = await createTestApp({
    graphql: {
      onPubSub: (value) => {
        pubsub = value;
      },
    },
  });
  ({ wsUrl } = await listen(t));
  closes = countServerCloses(t);
  tenantId = (await t.createTenant()).id;
});
afterAll(async () => {
  await t?.close();
});

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
