import { z } from "zod";

/** A session's public id (UUID) or the secret token `authenticate` returned. */
export const ZSessionRef = z.string().trim().min(1).max(512);

/** A login session as the API shows it (never its token). */
export const ZSessionDto = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.date().transform((date) => date.toISOString()),
  expiresAt: z.date().transform((date) => date.toISOString()),
});
