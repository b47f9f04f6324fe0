import { createHash, randomBytes } from "node:crypto";

/** A new opaque credential: 256 random bits, base64url. Only its hash is ever stored. */
export const newSessionToken = (): string => randomBytes(32).toString("base64url");

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

/** Cheap shape check so garbage never reaches the database. */
export const looksLikeToken = (token: string): boolean => /^[A-Za-z0-9_-]{20,512}$/.test(token);
