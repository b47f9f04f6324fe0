import { z } from "zod";
import { op } from "../operations";
import { ZConsentClientId, ZConsentDto } from "./consents.schema";

const tag = "account";
const ZRevoked = z.object({ revoked: z.literal(true) });

/** Applications a user allowed (docs/decisions/0036-oidc-consent.md): one's own at /account, anyone's under /users. */
export const consentsOperations = {
  listOwn: op.query({
    http: { method: "GET", path: "/account/consents", status: 200 },
    output: z.array(ZConsentDto),
    access: { requires: [] },
    summary: "The third-party applications one allowed to use one's account, and what they may do",
    tag,
    call: (services, ctx) => services.consents.listOwn(ctx),
  }),
  revokeOwn: op.mutation({
    http: { method: "DELETE", path: "/account/consents/:clientId", status: 200 },
    input: z.object({ clientId: ZConsentClientId }),
    output: ZRevoked,
    access: { requires: [] },
    summary: "Take back an application's access: its tokens stop working and its next sign-in asks again",
    tag,
    call: (services, ctx, input) => services.consents.revokeOwn(ctx, input.clientId),
  }),
  listForUser: op.query({
    http: { method: "GET", path: "/users/:id/consents", status: 200 },
    input: z.object({ id: z.uuid() }),
    output: z.array(ZConsentDto),
    access: { requires: [], othersNeed: "users:read:all", wording: "one's own, or users:read:all" },
    summary: "The third-party applications a user allowed",
    tag: "users",
    call: (services, ctx, input) => services.consents.listForUser(ctx, input.id),
  }),
  revokeForUser: op.mutation({
    http: { method: "DELETE", path: "/users/:id/consents/:clientId", status: 200 },
    input: z.object({ id: z.uuid(), clientId: ZConsentClientId }),
    output: ZRevoked,
    access: { requires: [], othersNeed: "users:update:all", wording: "one's own, or users:update:all" },
    summary: "Take back an application's access for a user (its tokens for that user stop working)",
    tag: "users",
    call: (services, ctx, input) => services.consents.revokeForUser(ctx, input.id, input.clientId),
  }),
};
