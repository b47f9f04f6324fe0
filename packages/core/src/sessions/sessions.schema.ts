import { z } from "zod";

/** A session's public id (UUID) or the secret token `authenticate` returned. */
export const ZSessionRef = z.string().trim().min(1).max(512);
