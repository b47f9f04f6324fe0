import { createRecordService, crudPermissions, existsIn, type RecordDeps } from "@hisob/crud";
import { Prisma } from "@hisob/db";
import {
  AppError,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import {
  CHAT_SORT_FIELDS,
  type TChatDto,
  type TListMessagesQuery,
  type TMessageDto,
  ZCreateChatInput,
  ZListMessagesQuery,
  ZPostMessageInput,
  ZUpdateChatInput,
} from "./chats.schema";

const chatSelect = {
  id: true,
  clientId: true,
  channel: true,
  subject: true,
  status: true,
  lastMessageAt: true,
  createdBy: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.CrmChatSelect;

type ChatRow = Prisma.CrmChatGetPayload<{ select: typeof chatSelect }>;

const messageSelect = {
  id: true,
  chatId: true,
  direction: true,
  authorUserId: true,
  body: true,
  sentAt: true,
} satisfies Prisma.CrmMessageSelect;

type MessageRow = Prisma.CrmMessageGetPayload<{ select: typeof messageSelect }>;

const toMessageDto = (row: MessageRow): TMessageDto => ({ ...row, sentAt: row.sentAt.toISOString() });

/** The event every new message raises (after commit it feeds the `messageAdded` subscription). */
export const MESSAGE_ADDED = "CrmMessageAdded";

/**
 * Chats with clients and their messages. Chats are records (the building block); messages are
 * append-only: added to an open chat, listed, never changed (the database role cannot update or delete them).
 */
export const createChatsService = (deps: RecordDeps) => {
  const clock = deps.clock ?? systemClock;
  const chats = createRecordService(
    {
      name: "Chat",
      auditEntity: "crm_chat",
      missing: { reason: "crm.chat_not_found", message: "Chat not found" },
      permissions: crudPermissions("chats"),
      model: (tx) => tx.crmChat,
      select: chatSelect,
      toDto: (row: ChatRow): TChatDto => ({
        ...row,
        lastMessageAt: row.lastMessageAt?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
      createInput: ZCreateChatInput,
      updateInput: ZUpdateChatInput,
      sortFields: CHAT_SORT_FIELDS,
      defaultOrder: "desc",
      filters: {
        clientId: { kind: "uuid", operators: ["eq", "in"] },
        channel: {
          kind: "enum",
          values: ["phone", "email", "telegram", "whatsapp", "sms", "web", "visit", "other"],
        },
        status: { kind: "enum", values: ["open", "closed"] },
        subject: { kind: "string" },
        createdBy: { kind: "uuid", operators: ["eq"] },
        lastMessageAt: { kind: "time" },
        createdAt: { kind: "time" },
        updatedAt: { kind: "time" },
      },
      references: {
        clientId: { label: "Client", reason: "crm.client_not_found", exists: existsIn((tx) => tx.crmClient) },
      },
      toData: (input, ctx, operation) =>
        operation === "create" ? { ...input, createdBy: ctx.actor.userId } : input,
      conflicts: {
        inUse: {
          reason: "crm.chat_has_messages",
          message: "The chat has messages; close it instead of deleting it",
        },
      },
    },
    deps,
  );

  return {
    ...chats,

    /**
     * Adds a message to an open chat. The chat's row is updated first with `status = open` in its
     * condition, which takes its lock: a concurrent close waits for this message or makes it fail.
     */
    postMessage: async (ctx: TenantContext, chatId: string, raw: unknown): Promise<TMessageDto> => {
      requirePermission(ctx, "messages:create:all");
      const input = parseInput(ZPostMessageInput, raw);
      const now = clock.now();
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const chat = await chats.findRow(tx, ctx.tenantId, chatId);
        if (!chat) throw chats.missing();
        const touched = await tx.crmChat.updateMany({
          where: { tenantId: ctx.tenantId, id: chat.id, status: "open" },
          data: { lastMessageAt: now, updatedAt: now },
        });
        if (touched.count === 0) {
          throw new AppError("BUSINESS_RULE", {
            reason: "crm.chat_closed",
            message: "The chat is closed; reopen it to add messages",
          });
        }
        const row = await tx.crmMessage.create({
          data: {
            tenantId: ctx.tenantId,
            chatId: chat.id,
            direction: input.direction,
            authorUserId: ctx.actor.userId,
            body: input.body,
            sentAt: now,
          },
          select: messageSelect,
        });
        const message = toMessageDto(row);
        await deps.outbox.raise(tx, {
          type: MESSAGE_ADDED,
          tenantId: ctx.tenantId,
          payload: { ...message, clientId: chat.clientId },
        });
        return message;
      });
    },

    /** A chat's messages, oldest first by default (chats:read:all). */
    listMessages: async (
      ctx: TenantContext,
      chatId: string,
      rawQuery: TListMessagesQuery = {},
    ): Promise<Page<TMessageDto>> => {
      requirePermission(ctx, "chats:read:all");
      const query = parseInput(ZListMessagesQuery, rawQuery);
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const chat = await chats.findRow(tx, ctx.tenantId, chatId);
        if (!chat) throw chats.missing();
        const where = { tenantId: ctx.tenantId, chatId: chat.id };
        const [rows, total] = await Promise.all([
          tx.crmMessage.findMany({
            where,
            select: messageSelect,
            orderBy: [{ sentAt: query.order }, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          tx.crmMessage.count({ where }),
        ]);
        return { items: rows.map(toMessageDto), total, limit: query.limit, offset: query.offset };
      });
    },

    /**
     * The same page of messages of several chats (chats:read:all), in one transaction of two statements:
     * a page per chat (a LATERAL subquery over the chat's index) and the totals. GraphQL's nested
     * `Chat.messages` loads through it, so a page of chats costs one transaction, not one per chat.
     * A chat that is not the tenant's (or does not exist) is absent from the answer.
     */
    listMessagesOfChats: async (
      ctx: TenantContext,
      chatIds: readonly string[],
      rawQuery: TListMessagesQuery = {},
    ): Promise<Map<string, Page<TMessageDto>>> => {
      requirePermission(ctx, "chats:read:all");
      const query = parseInput(ZListMessagesQuery, rawQuery);
      const ids = [...new Set(chatIds.map((id) => id.toLowerCase()))].filter((id) => UUID_TEXT.test(id));
      const pages = new Map<string, Page<TMessageDto>>();
      if (ids.length === 0) return pages;
      const direction = Prisma.raw(query.order === "asc" ? "ASC" : "DESC");
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const chatsFound = await tx.crmChat.findMany({
          where: { tenantId: ctx.tenantId, id: { in: ids } },
          select: { id: true },
        });
        if (chatsFound.length === 0) return pages;
        const found = chatsFound.map((chat) => chat.id);
        const rows = await tx.$queryRaw<MessageRow[]>`
          SELECT m.id::text AS "id", m.chat_id::text AS "chatId", m.direction::text AS "direction",
                 m.author_user_id::text AS "authorUserId", m.body, m.sent_at AS "sentAt"
          FROM unnest(${found}::uuid[]) AS c(id)
          CROSS JOIN LATERAL (
            SELECT * FROM crm_messages
            WHERE tenant_id = ${ctx.tenantId}::uuid AND chat_id = c.id
            ORDER BY sent_at ${direction}, id ${direction}
            OFFSET ${query.offset} LIMIT ${query.limit}
          ) m
          ORDER BY m.chat_id, m.sent_at ${direction}, m.id ${direction}`;
        const totals = await tx.crmMessage.groupBy({
          by: ["chatId"],
          where: { tenantId: ctx.tenantId, chatId: { in: found } },
          _count: { _all: true },
        });
        for (const id of found)
          pages.set(id, { items: [], total: 0, limit: query.limit, offset: query.offset });
        for (const total of totals) {
          const page = pages.get(total.chatId);
          if (page) page.total = total._count._all;
        }
        for (const row of rows) pages.get(row.chatId)?.items.push(toMessageDto(row));
        return pages;
      });
    },
  };
};

/** A UUID as text: anything else names no chat (and must not reach the uuid cast). */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type ChatsService = ReturnType<typeof createChatsService>;
