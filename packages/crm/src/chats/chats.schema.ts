import { ZLine, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

export const CHAT_CHANNELS = [
  "phone",
  "email",
  "telegram",
  "whatsapp",
  "sms",
  "web",
  "visit",
  "other",
] as const;
export const CHAT_STATUSES = ["open", "closed"] as const;
export const MESSAGE_DIRECTIONS = ["inbound", "outbound"] as const;

export const ZCreateChatInput = z
  .object({
    clientId: z.uuid().transform((id) => id.toLowerCase()),
    channel: z.enum(CHAT_CHANNELS),
    subject: ZLine(200).default(""),
  })
  .strict();
export type TCreateChatInput = z.input<typeof ZCreateChatInput>;

/** A chat stays with its client; its subject, channel and status may change (closing stops new messages). */
export const ZUpdateChatInput = z
  .object({
    channel: z.enum(CHAT_CHANNELS).optional(),
    subject: ZLine(200).optional(),
    status: z.enum(CHAT_STATUSES).optional(),
  })
  .strict();
export type TUpdateChatInput = z.input<typeof ZUpdateChatInput>;

export const CHAT_SORT_FIELDS = ["updatedAt", "createdAt", "lastMessageAt"] as const;

export const ZChatDto = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  channel: z.enum(CHAT_CHANNELS),
  subject: z.string(),
  status: z.enum(CHAT_STATUSES),
  lastMessageAt: z.iso.datetime().nullable(),
  createdBy: z.uuid(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TChatDto = z.infer<typeof ZChatDto>;

export const ZPostMessageInput = z
  .object({
    /** inbound: what the client said (recorded by a user); outbound: what the organization said. */
    direction: z.enum(MESSAGE_DIRECTIONS).default("outbound"),
    body: ZText(10_000).pipe(z.string().min(1, { message: "must not be empty" })),
  })
  .strict();
export type TPostMessageInput = z.input<typeof ZPostMessageInput>;

export const ZListMessagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  /** Oldest first by default (a conversation reads top to bottom). */
  order: z.enum(["asc", "desc"]).default("asc"),
});
export type TListMessagesQuery = z.input<typeof ZListMessagesQuery>;

export const ZMessageDto = z.object({
  id: z.uuid(),
  chatId: z.uuid(),
  direction: z.enum(MESSAGE_DIRECTIONS),
  authorUserId: z.uuid(),
  body: z.string(),
  sentAt: z.iso.datetime(),
});
export type TMessageDto = z.infer<typeof ZMessageDto>;
