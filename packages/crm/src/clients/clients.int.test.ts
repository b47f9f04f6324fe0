import { createServiceTestKit, issuePaths, refusalOf, type ServiceTestKit } from "@hisob/core/testing";
import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CrmServices, createCrmServices } from "../crm-services";
// Registers the CRM permissions, which the kit syncs into the database: a tenant's admin role holds them.
import "../crm.permissions";

/*
 * CRM clients and chats through the module's services (docs/decisions/0107-a-codebase-a-newcomer-can-carry-on.md):
 * the record building block's list (sort, the shared filter grammar), its refusals of bad filters and
 * bodies, and a chat's messages. Over REST (apps/server/src/transports/rest/modules-rest.int.test.ts)
 * stay the query strings, the path ids, 401, the permissions and other organizations' ids.
 */

let t: ServiceTestKit<{ crm: CrmServices }>;
let admin: TenantContext;
let otherAdmin: TenantContext;
const MISSING_ID = "00000000-0000-7000-8000-000000000000";

const clients = () => t.services.crm.clients;
const chats = () => t.services.crm.chats;

beforeAll(async () => {
  t = await createServiceTestKit({ services: (deps) => ({ crm: createCrmServices(deps) }) });
  const tenant = await t.createTenant();
  const other = await t.createTenant();
  admin = await t.contextOf(await t.createUser(tenant.id, "admin"));
  otherAdmin = await t.contextOf(await t.createUser(other.id, "admin"));
});

afterAll(async () => {
  await t?.close();
});

describe("CRM clients", () => {
  it("creates, reads, lists with sort and filters, changes and deletes a client", async () => {
    const client = await clients().create(admin, {
      kind: "company",
      name: "  Orzu Savdo MChJ ",
      phone: "+998 90 123-45-67",
      tin: "301234567",
    });
    expect(client).toMatchObject({ kind: "company", name: "Orzu Savdo MChJ", counterpartyId: null });
    await clients().create(admin, { name: "Aziz Karimov" });
    expect(await clients().get(admin, client.id)).toEqual(client);

    const sorted = await clients().list(admin, { sortBy: "name", order: "desc", limit: 1 });
    expect(sorted).toMatchObject({ total: 2, limit: 1, offset: 0, items: [{ name: "Orzu Savdo MChJ" }] });

    const filtered = await clients().list(admin, {
      filters: [{ field: "name", operator: "like", value: "orzu" }],
    });
    expect(filtered).toMatchObject({ total: 1, items: [{ id: client.id }] });

    const changed = await clients().update(admin, client.id, { notes: "Pays on the 5th" });
    expect(changed).toMatchObject({ id: client.id, notes: "Pays on the 5th", tin: "301234567" });

    await clients().delete(admin, client.id);
    expect(await refusalOf(clients().get(admin, client.id))).toMatchObject({
      code: "NOT_FOUND",
      reason: "crm.client_not_found",
    });
  });

  it("refuses unknown and too many filters, unknown sort fields, a page too large and bad bodies", async () => {
    const paths = async (call: Promise<unknown>) => {
      const error = await refusalOf(call);
      expect(error.code).toBe("VALIDATION_ERROR");
      return { error, paths: issuePaths(error) };
    };
    expect((await paths(clients().list(admin, { filters: { field: "name" } }))).paths).toContain("filters");
    const unknownField = await paths(
      clients().list(admin, { filters: [{ field: "passwordHash", operator: "eq", value: "x" }] }),
    );
    expect(unknownField.paths).toContain("filters.0.field");
    expect(JSON.stringify(unknownField.error.params.issues)).toContain("passwordHash");
    const tooMany = Array.from({ length: 21 }, () => ({ field: "name", operator: "eq", value: "x" }));
    expect((await paths(clients().list(admin, { filters: tooMany }))).paths).toContain("filters");
    expect((await paths(clients().list(admin, { sortBy: "passwordHash" }))).paths).toContain("sortBy.0");
    expect((await paths(clients().list(admin, { limit: 1000 }))).paths).toContain("limit");
    expect((await paths(clients().create(admin, { name: "" }))).paths).toContain("name");
    expect((await paths(clients().create(admin, { name: "a\u0000b" }))).paths).toContain("name");
    expect((await paths(clients().create(admin, { name: "X", isAdmin: true }))).paths).toContain("isAdmin");
    expect((await paths(clients().create(admin, { name: "x".repeat(201) }))).paths).toContain("name");
    // Nothing refused was written.
    expect(
      (await clients().list(admin, { filters: [{ field: "name", operator: "eq", value: "X" }] })).total,
    ).toBe(0);
  });

  it("a chat refers to a client of its own organization only", async () => {
    const theirs = await clients().create(otherAdmin, { name: "Their client" });
    expect(await refusalOf(chats().create(admin, { clientId: theirs.id, channel: "phone" }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await chats().list(admin)).total).toBe(0);
  });
});

describe("CRM chats", () => {
  it("opens a chat, posts and lists its messages, refuses a message in a closed chat", async () => {
    const client = await clients().create(admin, { name: `Client ${Date.now()}` });
    const chat = await chats().create(admin, { clientId: client.id, channel: "telegram" });
    const first = await chats().postMessage(admin, chat.id, { body: "Salom!" });
    expect(first).toMatchObject({ chatId: chat.id, direction: "outbound", body: "Salom!" });
    await chats().postMessage(admin, chat.id, { direction: "inbound", body: "Va alaykum" });
    expect(await chats().listMessages(admin, chat.id, { limit: 10 })).toMatchObject({
      total: 2,
      items: [{ body: "Salom!" }, { body: "Va alaykum" }],
    });
    expect(issuePaths(await refusalOf(chats().postMessage(admin, chat.id, { body: "" })))).toContain("body");
    expect(await refusalOf(chats().postMessage(admin, MISSING_ID, { body: "x" }))).toMatchObject({
      code: "NOT_FOUND",
    });
    await chats().update(admin, chat.id, { status: "closed" });
    expect(await refusalOf(chats().postMessage(admin, chat.id, { body: "Late" }))).toMatchObject({
      code: "BUSINESS_RULE",
      reason: "crm.chat_closed",
    });
    expect((await chats().listMessages(admin, chat.id, {})).total).toBe(2);
  });
});
