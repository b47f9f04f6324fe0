import type { TChatDto, TClientDto, TMessageDto } from "@hisob/crm";
import { crmOperations } from "@hisob/crm";
import { financeOperations } from "@hisob/finance";
import { type Page, requirePermission } from "@hisob/kernel";
import DataLoader from "dataloader";
import { fieldOf, permissionsOf } from "../catalog-sdl";
import { callerOf, type GraphqlContext } from "../context";
import { messageAddedTopic } from "../events";
import { operationField, operationFieldsOf } from "../operations";
import { loadRecord, mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";
import { enumTypeSdl, inputTypeSdl, objectTypeSdl } from "../zod-sdl";

/*
 * CRM: clients, chats with them and the chats' messages. Clients and chats are records of the building
 * block (list/get/create/update/delete); messages are appended to open chats and, once committed, heard by
 * the organization's users who may read chats (`messageAdded`).
 */

const { clients, chats } = crmOperations;

const messageMutations = operationFieldsOf("Mutation", [
  operationField({
    name: "addMessage",
    operation: chats.postMessage,
    services: (all) => all.crm,
    args: "chatId: ID!, input: MessageInput!",
    returns: "Message!",
    description: (permissions) =>
      `Adds a message to an open chat (${permissions}); BUSINESS_RULE crm.chat_closed when it is closed.`,
    input: (args) => ({ id: args.chatId, message: args.input }),
    body: "input",
  }),
]);

const typeDefs = /* GraphQL */ `
${enumTypeSdl("ClientKind", fieldOf(clients.get.output, "kind"))}
${enumTypeSdl("ChatChannel", fieldOf(chats.get.output, "channel"))}
${enumTypeSdl("ChatStatus", fieldOf(chats.get.output, "status"))}
${enumTypeSdl("MessageDirection", fieldOf(chats.postMessage.output, "direction"), {
  values: { inbound: "From the client.", outbound: "From the organization." },
})}
${objectTypeSdl("Message", chats.postMessage.output, {
  description: "One message of a chat; never changed once written.",
  fields: { direction: "MessageDirection", authorUserId: { description: "The user who recorded it." } },
})}
  type PaginatedMessages {
    data: [Message!]!
    total: Int64!
  }

${inputTypeSdl("MessageInput", fieldOf(chats.postMessage.input, "message"), {
  fields: { direction: "MessageDirection" },
})}
${messageMutations.sdl}
  type Subscription {
    "New messages in the caller's organization as they are committed (${permissionsOf(chats.messages)}); chatId narrows to one chat."
    messageAdded(chatId: ID): Message!
  }
${recordSdl({
  type: "Client",
  plural: "clients",
  operations: clients,
  types: {
    item: {
      description: "A person or a company the organization works with.",
      fields: {
        kind: "ClientKind",
        counterpartyId: {
          description:
            "The finance counterparty this client is in the books (its payments, expenses and debts filter by it).",
        },
      },
      extra: `    "Needs ${permissionsOf(financeOperations.counterparties.get)} (else null with a FORBIDDEN error at this path)."
    counterparty: Counterparty
`,
    },
    input: { fields: { kind: "ClientKind" } },
    patch: {
      description: "Only the fields given change; counterpartyId: null unlinks.",
      fields: { kind: "ClientKind" },
    },
  },
  filterFields: ["name", "kind", "phone", "email", "tin", "counterpartyId", "createdAt", "updatedAt"],
})}
${recordSdl({
  type: "Chat",
  plural: "chats",
  operations: chats,
  types: {
    item: {
      description: "A conversation with a client over one channel.",
      fields: { channel: "ChatChannel", status: "ChatStatus" },
      extra: `    "Needs ${permissionsOf(clients.get)} (else null with a FORBIDDEN error at this path)."
    client: Client
    "The chat's messages, oldest first unless ascending: false."
    messages(offset: Int = 0, limit: Int = 20, ascending: Boolean = true): PaginatedMessages!
`,
    },
    input: { fields: { channel: "ChatChannel" } },
    patch: {
      description: "Closing a chat (status: closed) stops new messages until it is reopened.",
      fields: { channel: "ChatChannel", status: "ChatStatus" },
    },
  },
  filterFields: [
    "clientId",
    "channel",
    "status",
    "subject",
    "createdBy",
    "lastMessageAt",
    "createdAt",
    "updatedAt",
  ],
  ascending: false,
})}
`;

/**
 * The topic's payloads as messages, only those of `chatId` when given. A plain iterator rather than an
 * async generator: a generator queues `return()` behind its pending `next()`, so an unsubscribe would only
 * stop listening at the next event; here it stops at once.
 */
const messagesOf = (
  source: AsyncIterableIterator<unknown>,
  chatId: string | null | undefined,
): AsyncIterableIterator<TMessageDto> => {
  const wanted = chatId?.toLowerCase();
  const iterator: AsyncIterableIterator<TMessageDto> = {
    next: async () => {
      for (;;) {
        const result = await source.next();
        if (result.done) return { done: true, value: undefined };
        const message = chats.postMessage.output.safeParse(result.value);
        if (message.success && (!wanted || message.data.chatId === wanted)) {
          return { done: false, value: message.data };
        }
      }
    },
    return: async () => {
      await source.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
};

const clientOf = (context: GraphqlContext, id: string | null) =>
  loadRecord<TClientDto>(
    context,
    "crm.clients",
    (caller, ids) => context.services.crm.clients.findByIds(caller, ids),
    id,
  );

export const crmModule: GraphqlModule = {
  name: "crm",
  typeDefs,
  resolvers: mergeResolvers(
    recordResolvers({ type: "Client", plural: "clients" }, (services) => services.crm.clients),
    recordResolvers({ type: "Chat", plural: "chats" }, (services) => services.crm.chats),
    messageMutations.resolvers,
    {
      Client: {
        counterparty: (client: TClientDto, _: unknown, context: GraphqlContext) =>
          loadRecord(
            context,
            "finance.counterparties",
            (caller, ids) => context.services.finance.counterparties.findByIds(caller, ids),
            client.counterpartyId,
          ),
      },
      Chat: {
        client: (chat: TChatDto, _: unknown, context: GraphqlContext) => clientOf(context, chat.clientId),
        // One loader per page shape: the chats of a page load their messages in one transaction.
        messages: async (
          chat: TChatDto,
          args: { offset?: number | null; limit?: number | null; ascending?: boolean | null },
          context: GraphqlContext,
        ) => {
          const query = {
            offset: args.offset ?? 0,
            limit: args.limit ?? 20,
            order: args.ascending === false ? ("desc" as const) : ("asc" as const),
          };
          const loader = context.loaders.use(
            `crm.messages:${query.offset}:${query.limit}:${query.order}`,
            () =>
              new DataLoader<string, Page<TMessageDto>>(async (chatIds) => {
                const pages = await context.services.crm.chats.listMessagesOfChats(
                  callerOf(context),
                  chatIds,
                  query,
                );
                return chatIds.map(
                  (id) => pages.get(id) ?? { items: [], total: 0, limit: query.limit, offset: query.offset },
                );
              }),
          );
          const page = await loader.load(chat.id);
          return { data: page.items, total: page.total };
        },
      },
      Subscription: {
        messageAdded: {
          // Checked when subscribing (UNAUTHENTICATED / FORBIDDEN answer at once, not on the first event).
          subscribe: (_: unknown, args: { chatId?: string | null }, context: GraphqlContext) => {
            const caller = callerOf(context);
            for (const permission of chats.messages.access.requires) requirePermission(caller, permission);
            return messagesOf(context.pubsub.subscribe(messageAddedTopic(caller.tenantId)), args.chatId);
          },
          resolve: (payload: TMessageDto) => payload,
        },
      },
    },
  ),
};
