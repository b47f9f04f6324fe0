import { z } from "zod";

/** A session's public id (UUID) or the secret token `authenticate` returned. */
export const ZSessionRef = z.string().trim().min(1).max(512);

/** A login session as the API shows it (never its token). */
export const ZSessionDto = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  /** Whose it is, by email (decision 0085: the organization's list names its users). */
  userEmail: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.date().transform((date) => date.toISOString()),
  expiresAt: z.date().transform((date) => date.toISOString()),
  /** When it was last used, to the minute (decision 0055). */
  lastAccessAt: z.date().transform((date) => date.toISOString()),
  /** What used it last: the browser (its cookie), the API (its token as a bearer) or an OIDC client. */
  client: z.object({
    kind: z.enum(["browser", "api", "oidc"]),
    /** The OIDC client_id and its name, for kind "oidc" (the name null once the client is gone). */
    clientId: z.string().nullable(),
    name: z.string().nullable(),
  }),
});

/**
 * GET /sessions: the organization's live sessions, most recently used first, optionally one user's
 * and/or those one client used last.
 */
export const ZListSessionsQuery = z.object({
  userId: z.uuid().optional(),
  /** What used them last: `browser`, `api`, or an OIDC client's client_id (decision 0085). */
  client: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, "must be browser, api or an OIDC client_id")
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type TListSessionsQuery = z.input<typeof ZListSessionsQuery>;
