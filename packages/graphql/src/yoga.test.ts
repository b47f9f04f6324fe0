import { parse } from "graphql";
import { isAsyncIterable } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import type { GraphqlRequestContext, GraphqlServices } from "./context";
import { createMemoryPubSub } from "./pubsub";
import { createRegistry } from "./registry";
import { createGraphqlServer } from "./yoga";

const pubsub = createMemoryPubSub();
const registry = createRegistry();
registry.register({
  name: "probe",
  typeDefs: /* GraphQL */ `
    type Query {
      ok: Boolean
    }
    type Subscription {
      ticks: Int
    }
  `,
  resolvers: {
    Query: { ok: () => true },
    Subscription: { ticks: { subscribe: () => pubsub.subscribe("ticks"), resolve: (tick: number) => tick } },
  },
});
const { yoga } = createGraphqlServer({
  registry,
  services: {} as GraphqlServices,
  pubsub,
  describe: (problem) => ({ message: problem.message }),
  logUnexpected: () => {},
});

/** The host's context for one operation, as it arrived (`transport` left out: a host that forgot it). */
const hostContext = (transport?: "http" | "websocket"): GraphqlRequestContext =>
  ({
    caller: null,
    requestId: "test",
    locale: "en",
    client: { ip: "127.0.0.1", userAgent: "vitest" },
    sessionCookie: { set: () => {}, clear: () => {} },
    executed: { operations: new Set() },
    ...(transport ? { transport } : {}),
  }) as GraphqlRequestContext;

const subscribe = async (transport?: "http" | "websocket") => {
  const enveloped = yoga.getEnveloped({ graphql: hostContext(transport), params: {} } as never);
  const result = await enveloped.subscribe({
    schema: enveloped.schema,
    document: parse("subscription { ticks }"),
    contextValue: await enveloped.contextFactory(),
  });
  if (isAsyncIterable(result)) await (result as AsyncIterableIterator<unknown>).return?.();
  return result;
};

describe("subscriptions", () => {
  it("run only over WebSocket: over HTTP, or from a host that did not say, they are refused", async () => {
    expect(isAsyncIterable(await subscribe("websocket"))).toBe(true);
    for (const transport of ["http", undefined] as const) {
      // Before, a context without `transport` subscribed (and over HTTP nothing would end it).
      expect(await subscribe(transport), String(transport)).toMatchObject({
        errors: [{ extensions: { code: "VALIDATION_ERROR", reason: "graphql.subscription_over_http" } }],
      });
    }
    expect(await pubsub.listeners("ticks")).toBe(0);
  });
});
