import type { PubSub } from "@hisob/graphql";
import type { TenantContext } from "@hisob/kernel";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { codeOf, type GraphqlResponse, gql, listen, waitFor } from "./graphql-test-kit";

/*
 * The CRM module over the real GraphQL endpoint: clients, chats, messages and the messageAdded
 * subscription. Every operation: happy path, errors, and security (no credentials, no permission,
 * another organization's ids as arguments and as references inside the input).
 */

let t: TestApp;
let url: string;
let wsUrl: string;
let pubsub: PubSub;
let tenantId: string;
let otherTenantId: string;
let admin: SeededUser;
let reader: SeededUser;
let outsider: SeededUser;
let otherAdmin: SeededUser;
let counterpartyId: string;
let otherCounterpartyId: string;
let otherClientId: string;
let otherChatId: string;
const sockets: Client[] = [];

const contextOf = async (user: SeededUser) =>
  (await t.services.context.resolveContext({ bearerToken: user.token, requestId: "seed" })) as TenantContext;

beforeAll(async () => {
  t = await createTestApp({
    graphql: {
      onPubSub: (value) => {
        pubsub = value;
      },
    },
  });
  ({ httpUrl: url, wsUrl } = await listen(t));
  tenantId = (await t.createTenant()).id;
  otherTenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  reader = await t.createUser(tenantId, ["clients:read:all", "chats:read:all"]);
  outsider = await t.createUser(tenantId, []);
  otherAdmin = await t.createUser(otherTenantId, "admin");
  const ctx = await contextOf(admin);
  counterpartyId = (await t.services.finance.counterparties.create(ctx, { name: "Orzu LLC" })).id;
  const otherCtx = await contextOf(otherAdmin);
  otherCounterpartyId = (await t.services.finance.counterparties.create(otherCtx, { name: "Theirs" })).id;
  otherClientId = (await t.services.crm.clients.create(otherCtx, { name: "Their client" })).id;
  otherChatId = (await t.services.crm.chats.create(otherCtx, { clientId: otherClientId, channel: "phone" }))
    .id;
});
afterAll(async () => {
  for (const socket of sockets) await socket.dispose();
  await t?.close();
});

const as = (user: SeededUser | null) => (user ? { headers: user.headers } : {});
const run = (user: SeededUser | null, query: string, variables: Record<string, unknown> = {}) =>
  gql(url, query, { variables, ...as(user) });
const dataOf = <T>(response: GraphqlResponse, field: string): T => {
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data?.[field] as T;
};
const errorOf = (response: GraphqlResponse) => response.body.errors?.[0];

const CLIENT_FIELDS =
  "id kind name phone email tin notes counterpartyId counterparty { id name } createdAt updatedAt";
const CREATE_CLIENT = `mutation($input: ClientInput!) { createClient(input: $input) { ${CLIENT_FIELDS} } }`;
const UPDATE_CLIENT = `mutation($id: ID!, $input: ClientPatch!) { updateClient(id: $id, input: $input) { ${CLIENT_FIELDS} } }`;
const DELETE_CLIENT = "mutation($id: ID!) { deleteClient(id: $id) }";
const GET_CLIENT = `query($id: ID!) { client(id: $id) { ${CLIENT_FIELDS} } }`;
const LIST_CLIENTS = `query($offset: Int, $limit: Int, $sortBy: [String!], $ascending: Boolean, $filters: [Filter!]) {
  clients(offset: $offset, limit: $limit, sortBy: $sortBy, ascending: $ascending, filters: $filters) { total data { id name kind } }
}`;
const CHAT_FIELDS = "id clientId client { id name } channel subject status lastMessageAt createdBy";
const CREATE_CHAT = `mutation($input: ChatInput!) { createChat(input: $input) { ${CHAT_FIELDS} } }`;
const UPDATE_CHAT = `mutation($id: ID!, $input: ChatPatch!) { updateChat(id: $id, input: $input) { ${CHAT_FIELDS} } }`;
const DELETE_CHAT = "mutation($id: ID!) { deleteChat(id: $id) }";
const GET_CHAT = `query($id: ID!) { chat(id: $id) { ${CHAT_FIELDS} messages { total data { body direction authorUserId } } } }`;
const LIST_CHATS = "query($filters: [Filter!]) { chats(filters: $filters) { total data { id status } } }";
const ADD_MESSAGE = `mutation($chatId: ID!, $input: MessageInput!) {
  addMessage(chatId: $chatId, input: $input) { id chatId direction authorUserId body sentAt }
}`;

const clientCount = async (tenant = tenantId) => t.db.withTenant(tenant, (tx) => tx.crmClient.count());

const newClient = async (name: string, extra: Record<string, unknown> = {}) =>
  dataOf<{ id: string }>(await run(admin, CREATE_CLIENT, { input: { name, ...extra } }), "createClient").id;
const newChat = async (clientId: string) =>
  dataOf<{ id: string }>(
    await run(admin, CREATE_CHAT, { input: { clientId, channel: "telegram" } }),
    "createChat",
  ).id;

describe("clients", () => {
  it("creates, reads, lists, updates and deletes a client linked to a finance counterparty", async () => {
    const created = dataOf<Record<string, unknown>>(
      await run(admin, CREATE_CLIENT, {
        input: {
          kind: "company",
          name: "  Orzu Savdo  ",
          phone: "+998 90 123-45-67",
          email: "info@orzu.uz",
          tin: "301234567",
          notes: "Pays on time.\nPrefers Telegram.",
          counterpartyId,
        },
      }),
      "createClient",
    );
    expect(created).toMatchObject({
      kind: "company",
      name: "Orzu Savdo",
      counterpartyId,
      counterparty: { id: counterpartyId, name: "Orzu LLC" },
    });
    const id = created.id as string;
    expect(dataOf(await run(admin, GET_CLIENT, { id }), "client")).toMatchObject({ id, name: "Orzu Savdo" });

    const updated = dataOf<Record<string, unknown>>(
      await run(admin, UPDATE_CLIENT, { id, input: { phone: "+998 71 200-00-00", counterpartyId: null } }),
      "updateClient",
    );
    expect(updated).toMatchObject({
      phone: "+998 71 200-00-00",
      counterpartyId: null,
      counterparty: null,
      name: "Orzu Savdo",
    });

    expect(dataOf(await run(admin, DELETE_CLIENT, { id }), "deleteClient")).toBe(true);
    expect(codeOf(await run(admin, GET_CLIENT, { id }))).toBe("NOT_FOUND");
    // Each change went through the outbox in its transaction.
    const events = await t.db.withTenant(tenantId, (tx) =>
      tx.outboxEvent.findMany({
        where: { type: { startsWith: "Client" } },
        select: { type: true, payload: true },
      }),
    );
    expect(
      events.filter((event) => (event.payload as { id: string }).id === id).map((event) => event.type),
    ).toEqual(["ClientCreated", "ClientUpdated", "ClientDeleted"]);
  });

  it("lists with pagination, sorting and the shared filter grammar; another organization's clients never appear", async () => {
    for (const name of ["Anvar", "Bahrom", "Dilshod", "Gulnora"])
      await newClient(`List ${name}`, { kind: "person" });
    await newClient("List Zafar Co", { kind: "company" });
    const filters = [{ field: "name", operator: "like", value: "list " }];
    const first = dataOf<{ total: string; data: { name: string }[] }>(
      await run(reader, LIST_CLIENTS, { limit: 2, sortBy: ["name"], ascending: false, filters }),
      "clients",
    );
    expect(first.total).toBe("5");
    expect(first.data.map((client) => client.name)).toEqual(["List Zafar Co", "List Gulnora"]);
    const second = dataOf<{ data: { name: string }[] }>(
      await run(reader, LIST_CLIENTS, { offset: 2, limit: 2, sortBy: ["name"], ascending: false, filters }),
      "clients",
    );
    expect(second.data.map((client) => client.name)).toEqual(["List Dilshod", "List Bahrom"]);
    const companies = dataOf<{ data: { name: string }[] }>(
      await run(reader, LIST_CLIENTS, {
        filters: [...filters, { field: "kind", operator: "eq", value: "company" }],
      }),
      "clients",
    );
    expect(companies.data.map((client) => client.name)).toEqual(["List Zafar Co"]);
    const all = dataOf<{ data: { id: string }[] }>(
      await run(reader, LIST_CLIENTS, { limit: 100 }),
      "clients",
    );
    expect(all.data.map((client) => client.id)).not.toContain(otherClientId);
  });

  it("refuses bad input with VALIDATION_ERROR naming the field, and writes nothing", async () => {
    const before = await clientCount();
    const missing = await run(admin, CREATE_CLIENT, { input: { name: "   " } });
    expect(errorOf(missing)?.extensions).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(errorOf(missing)?.message).toMatch(/^validation error: name/);
    const email = await run(admin, CREATE_CLIENT, { input: { name: "X", email: "not-an-email" } });
    expect(errorOf(email)?.message).toMatch(/email/);
    const control = await run(admin, CREATE_CLIENT, { input: { name: "Bad\u0000name" } });
    expect(codeOf(control)).toBe("VALIDATION_ERROR");
    const filter = await run(reader, LIST_CLIENTS, {
      filters: [{ field: "notes", operator: "eq", value: "x" }],
    });
    expect(errorOf(filter)?.message).toMatch(/filters\.0\.field "notes" is not filterable/);
    const sort = await run(reader, LIST_CLIENTS, { sortBy: ["phone"] });
    expect(codeOf(sort)).toBe("VALIDATION_ERROR");
    const tooMany = await run(reader, LIST_CLIENTS, { limit: 1000 });
    expect(codeOf(tooMany)).toBe("VALIDATION_ERROR");
    expect(await clientCount()).toBe(before);
  });

  it("is UNAUTHENTICATED without credentials and FORBIDDEN without the permission, for every operation", async () => {
    const id = await newClient("Guarded");
    const operations: [string, Record<string, unknown>][] = [
      [LIST_CLIENTS, {}],
      [GET_CLIENT, { id }],
      [CREATE_CLIENT, { input: { name: "Nope" } }],
      [UPDATE_CLIENT, { id, input: { name: "Nope" } }],
      [DELETE_CLIENT, { id }],
    ];
    for (const [query, variables] of operations) {
      expect(codeOf(await run(null, query, variables)), query).toBe("UNAUTHENTICATED");
      expect(codeOf(await run(outsider, query, variables)), query).toBe("FORBIDDEN");
    }
    // Read-only callers cannot write.
    expect(codeOf(await run(reader, UPDATE_CLIENT, { id, input: { name: "Nope" } }))).toBe("FORBIDDEN");
    expect(dataOf<{ name: string }>(await run(admin, GET_CLIENT, { id }), "client").name).toBe("Guarded");
  });

  it("answers NOT_FOUND for another organization's ids, as arguments and as references, and writes nothing", async () => {
    for (const [query, variables] of [
      [GET_CLIENT, { id: otherClientId }],
      [UPDATE_CLIENT, { id: otherClientId, input: { name: "Hijacked" } }],
      [DELETE_CLIENT, { id: otherClientId }],
      [GET_CLIENT, { id: "not-a-uuid" }],
    ] as const) {
      expect(codeOf(await run(admin, query, variables)), query).toBe("NOT_FOUND");
    }
    const before = await clientCount();
    const linked = await run(admin, CREATE_CLIENT, {
      input: { name: "Sneaky", counterpartyId: otherCounterpartyId },
    });
    expect(errorOf(linked)?.extensions).toMatchObject({
      code: "NOT_FOUND",
      reason: "crm.counterparty_not_found",
    });
    expect(errorOf(linked)?.message).toContain("counterpartyId");
    expect(await clientCount()).toBe(before);
    const mine = await newClient("Mine");
    const relinked = await run(admin, UPDATE_CLIENT, {
      id: mine,
      input: { counterpartyId: otherCounterpartyId },
    });
    expect(codeOf(relinked)).toBe("NOT_FOUND");
    expect(
      dataOf<{ name: string }>(await run(otherAdmin, GET_CLIENT, { id: otherClientId }), "client").name,
    ).toBe("Their client");
  });

  it("shows the linked counterparty only to those who may read counterparties", async () => {
    const id = await newClient("Linked", { counterpartyId });
    const res = await run(reader, GET_CLIENT, { id });
    expect(res.body.data?.client).toMatchObject({ counterpartyId, counterparty: null });
    expect(errorOf(res)?.extensions.code).toBe("FORBIDDEN");
    expect(errorOf(res)?.path).toEqual(["client", "counterparty"]);
  });
});

describe("chats and messages", () => {
  it("opens a chat, adds messages, closes and reopens it; a closed chat takes no message", async () => {
    const clientId = await newClient("Chatty");
    const chat = dataOf<Record<string, unknown>>(
      await run(admin, CREATE_CHAT, { input: { clientId, channel: "telegram", subject: "Delivery" } }),
      "createChat",
    );
    expect(chat).toMatchObject({
      clientId,
      client: { id: clientId, name: "Chatty" },
      status: "open",
      lastMessageAt: null,
    });
    const chatId = chat.id as string;
    const first = dataOf<Record<string, unknown>>(
      await run(admin, ADD_MESSAGE, { chatId, input: { direction: "inbound", body: "Where is my order?" } }),
      "addMessage",
    );
    expect(first).toMatchObject({
      chatId,
      direction: "inbound",
      authorUserId: admin.id,
      body: "Where is my order?",
    });
    await run(admin, ADD_MESSAGE, { chatId, input: { body: "On its way." } });

    const read = dataOf<{
      messages: { total: string; data: { body: string; direction: string }[] };
      lastMessageAt: string;
    }>(await run(reader, GET_CHAT, { id: chatId }), "chat");
    expect(read.messages.total).toBe("2");
    expect(read.messages.data.map((message) => [message.direction, message.body])).toEqual([
      ["inbound", "Where is my order?"],
      ["outbound", "On its way."],
    ]);
    expect(read.lastMessageAt).toMatch(/Z$/);

    expect(
      dataOf<{ status: string }>(
        await run(admin, UPDATE_CHAT, { id: chatId, input: { status: "closed" } }),
        "updateChat",
      ).status,
    ).toBe("closed");
    const refused = await run(admin, ADD_MESSAGE, { chatId, input: { body: "Late" } });
    expect(errorOf(refused)?.extensions).toMatchObject({ code: "BUSINESS_RULE", reason: "crm.chat_closed" });
    await run(admin, UPDATE_CHAT, { id: chatId, input: { status: "open" } });
    dataOf(await run(admin, ADD_MESSAGE, { chatId, input: { body: "Reopened" } }), "addMessage");

    const open = dataOf<{ data: { id: string }[] }>(
      await run(reader, LIST_CHATS, { filters: [{ field: "clientId", operator: "eq", value: clientId }] }),
      "chats",
    );
    expect(open.data.map((each) => each.id)).toEqual([chatId]);

    // History stays: neither the chat nor its client can be deleted.
    expect(errorOf(await run(admin, DELETE_CHAT, { id: chatId }))?.extensions).toMatchObject({
      code: "CONFLICT",
      reason: "crm.chat_has_messages",
    });
    expect(errorOf(await run(admin, DELETE_CLIENT, { id: clientId }))?.extensions).toMatchObject({
      code: "CONFLICT",
      reason: "crm.client_in_use",
    });
    const empty = await newChat(clientId);
    expect(dataOf(await run(admin, DELETE_CHAT, { id: empty }), "deleteChat")).toBe(true);
  });

  it("keeps messages append-only in the database itself: the request role cannot change or remove one", async () => {
    const chatId = await newChat(await newClient("Archive"));
    const message = dataOf<{ id: string }>(
      await run(admin, ADD_MESSAGE, { chatId, input: { body: "Original" } }),
      "addMessage",
    );
    await expect(
      t.db.withTenant(tenantId, (tx) =>
        tx.crmMessage.updateMany({ where: { id: message.id }, data: { body: "Forged" } }),
      ),
    ).rejects.toThrow(/permission denied/i);
    await expect(
      t.db.withTenant(tenantId, (tx) => tx.crmMessage.deleteMany({ where: { id: message.id } })),
    ).rejects.toThrow(/permission denied/i);
    const body = dataOf<{ messages: { data: { body: string }[] } }>(
      await run(admin, GET_CHAT, { id: chatId }),
      "chat",
    );
    expect(body.messages.data[0]?.body).toBe("Original");
  });

  it("refuses bad messages and unknown channels with VALIDATION_ERROR", async () => {
    const chatId = await newChat(await newClient("Strict"));
    expect(errorOf(await run(admin, ADD_MESSAGE, { chatId, input: { body: "  " } }))?.message).toMatch(
      /body/,
    );
    expect(codeOf(await run(admin, ADD_MESSAGE, { chatId, input: { body: "x".repeat(10_001) } }))).toBe(
      "VALIDATION_ERROR",
    );
    expect(
      codeOf(await run(admin, CREATE_CHAT, { input: { clientId: otherClientId, channel: "pigeon" } })),
    ).toBe("VALIDATION_ERROR");
  });

  it("guards every chat operation: credentials, permission, and another organization's chats and clients", async () => {
    const clientId = await newClient("Guarded chat");
    const chatId = await newChat(clientId);
    const operations: [string, Record<string, unknown>][] = [
      [LIST_CHATS, {}],
      [GET_CHAT, { id: chatId }],
      [CREATE_CHAT, { input: { clientId, channel: "sms" } }],
      [UPDATE_CHAT, { id: chatId, input: { subject: "x" } }],
      [DELETE_CHAT, { id: chatId }],
      [ADD_MESSAGE, { chatId, input: { body: "x" } }],
    ];
    for (const [query, variables] of operations) {
      expect(codeOf(await run(null, query, variables)), query).toBe("UNAUTHENTICATED");
      expect(codeOf(await run(outsider, query, variables)), query).toBe("FORBIDDEN");
    }
    expect(codeOf(await run(reader, ADD_MESSAGE, { chatId, input: { body: "x" } }))).toBe("FORBIDDEN");

    const chatsBefore = await t.db.withTenant(tenantId, (tx) => tx.crmChat.count());
    const foreignClient = await run(admin, CREATE_CHAT, {
      input: { clientId: otherClientId, channel: "sms" },
    });
    expect(errorOf(foreignClient)?.extensions).toMatchObject({
      code: "NOT_FOUND",
      reason: "crm.client_not_found",
    });
    expect(await t.db.withTenant(tenantId, (tx) => tx.crmChat.count())).toBe(chatsBefore);
    for (const [query, variables] of [
      [GET_CHAT, { id: otherChatId }],
      [UPDATE_CHAT, { id: otherChatId, input: { status: "closed" } }],
      [DELETE_CHAT, { id: otherChatId }],
      [ADD_MESSAGE, { chatId: otherChatId, input: { body: "Hello from elsewhere" } }],
    ] as const) {
      expect(codeOf(await run(admin, query, variables)), query).toBe("NOT_FOUND");
    }
    const theirs = await t.db.withTenant(otherTenantId, (tx) =>
      tx.crmMessage.count({ where: { chatId: otherChatId } }),
    );
    expect(theirs).toBe(0);
  });
});

describe("messageAdded subscription", () => {
  const connect = (user: SeededUser) => {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: { Authorization: `Bearer ${user.token}` },
    });
    sockets.push(client);
    return client;
  };
  const SUBSCRIPTION =
    "subscription($chatId: ID) { messageAdded(chatId: $chatId) { chatId body direction authorUserId } }";

  it("delivers a committed message to the organization's chat readers, and to no one else", async () => {
    const chatId = await newChat(await newClient("Live"));
    const otherReader = await t.createUser(otherTenantId, ["chats:read:all"]);
    const mine = connect(reader).iterate({ query: SUBSCRIPTION });
    const theirs = connect(otherReader).iterate({ query: SUBSCRIPTION });
    const mineNext = mine.next();
    const theirsNext = theirs.next();
    await waitFor(
      async () => (await pubsub.listeners(`crm-message-added:${tenantId}`)) === 1,
      "a messageAdded subscription",
    );
    await waitFor(
      async () => (await pubsub.listeners(`crm-message-added:${otherTenantId}`)) === 1,
      "the other organization's subscription",
    );
    await run(admin, ADD_MESSAGE, { chatId, input: { body: "Live news" } });
    expect((await mineNext).value).toEqual({
      data: { messageAdded: { chatId, body: "Live news", direction: "outbound", authorUserId: admin.id } },
    });
    // The other organization's subscriber hears its own message first, never ours.
    const otherCtx = await contextOf(otherAdmin);
    await t.services.crm.chats.postMessage(otherCtx, otherChatId, { body: "Theirs" });
    expect((await theirsNext).value).toMatchObject({
      data: { messageAdded: { chatId: otherChatId, body: "Theirs" } },
    });
    await mine.return?.();
    await theirs.return?.();
  });

  it("narrows to one chat when asked, and refuses callers who may not read chats", async () => {
    const quiet = await newChat(await newClient("Quiet"));
    const loud = await newChat(await newClient("Loud"));
    const events = connect(reader).iterate({ query: SUBSCRIPTION, variables: { chatId: loud } });
    const next = events.next();
    await waitFor(
      async () => (await pubsub.listeners(`crm-message-added:${tenantId}`)) >= 1,
      "the narrowed subscription",
    );
    await run(admin, ADD_MESSAGE, { chatId: quiet, input: { body: "Not for you" } });
    await run(admin, ADD_MESSAGE, { chatId: loud, input: { body: "For you" } });
    expect((await next).value).toMatchObject({ data: { messageAdded: { chatId: loud, body: "For you" } } });
    await events.return?.();

    const refused = connect(outsider).iterate({ query: SUBSCRIPTION });
    const answer = await refused.next();
    expect(answer.value).toMatchObject({
      errors: [{ message: "Forbidden", extensions: { code: "FORBIDDEN" } }],
    });
    expect(await pubsub.listeners(`crm-message-added:${tenantId}`)).toBe(0);
  });
});
