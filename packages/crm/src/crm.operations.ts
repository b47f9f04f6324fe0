import { crudPermissions, recordOperationsOf } from "@hisob/crud";
import { operationsOf, ZIdInput, ZPage } from "@hisob/kernel";
import {
  CHAT_SORT_FIELDS,
  ZChatDto,
  ZCreateChatInput,
  ZListMessagesQuery,
  ZMessageDto,
  ZPostMessageInput,
  ZUpdateChatInput,
} from "./chats/chats.schema";
import {
  CLIENT_SORT_FIELDS,
  ZClientDto,
  ZCreateClientInput,
  ZUpdateClientInput,
} from "./clients/clients.schema";
import type { CRM_PERMISSIONS } from "./crm.permissions";
import type { CrmServices } from "./crm-services";

type CrmPermission = (typeof CRM_PERMISSIONS)[number];
const op = operationsOf<CrmServices, CrmPermission>();
const records = recordOperationsOf<CrmServices, CrmPermission>();

/** The CRM module's operations: REST routes, OpenAPI and tRPC procedures are derived from them. */
export const crmOperations = {
  clients: records({
    path: "/crm/clients",
    tag: "crm: clients",
    service: (services) => services.clients,
    sortFields: CLIENT_SORT_FIELDS,
    schemas: { create: ZCreateClientInput, update: ZUpdateClientInput, item: ZClientDto },
    permissions: crudPermissions("clients"),
    summaries: {
      list: "List clients",
      get: "Get a client",
      create: "Create a client (a person or a company)",
      update: "Change a client's details",
      delete: "Delete a client that has no chats",
    },
  }),
  chats: {
    ...records({
      path: "/crm/chats",
      tag: "crm: chats",
      service: (services) => services.chats,
      sortFields: CHAT_SORT_FIELDS,
      schemas: { create: ZCreateChatInput, update: ZUpdateChatInput, item: ZChatDto },
      permissions: crudPermissions("chats"),
      summaries: {
        list: "List chats with clients, recently active first",
        get: "Get a chat",
        create: "Open a chat with a client",
        update: "Change a chat's channel or subject, close or reopen it",
        delete: "Delete a chat that has no messages",
      },
    }),
    messages: op.query({
      http: { method: "GET", path: "/crm/chats/:id/messages", status: 200, rest: "query" },
      input: ZIdInput.extend({ query: ZListMessagesQuery.optional() }),
      output: ZPage(ZMessageDto),
      access: { requires: ["chats:read:all"] },
      summary: "A chat's messages, oldest first",
      tag: "crm: chats",
      call: (services, ctx, input) => services.chats.listMessages(ctx, input.id, input.query),
    }),
    postMessage: op.mutation({
      http: { method: "POST", path: "/crm/chats/:id/messages", status: 201, rest: "message" },
      input: ZIdInput.extend({ message: ZPostMessageInput }),
      output: ZMessageDto,
      access: { requires: ["messages:create:all"] },
      summary: "Add a message to an open chat (heard live by GraphQL subscribers)",
      tag: "crm: chats",
      call: (services, ctx, input) => services.chats.postMessage(ctx, input.id, input.message),
    }),
  },
};
