import { ZIdInput, ZPage } from "@hisob/kernel";
import { z } from "zod";
import { op } from "../operations";
import { ZListSessionsQuery, ZSessionDto } from "./sessions.schema";

const tag = "sessions";

/** Login sessions: list a user's, end one or all (ending one ends its OIDC grants too). */
export const sessionsOperations = {
  listForTenant: op.query({
    http: { method: "GET", path: "/sessions", status: 200 },
    input: ZListSessionsQuery,
    output: ZPage(ZSessionDto),
    access: { requires: ["sessions:read:all"], wording: "sessions:read:all" },
    summary:
      "The organization's live sessions, most recently used first (optionally one user's, or those a client used last)",
    tag,
    call: (services, ctx, input) => services.sessions.listForTenant(ctx, input),
  }),
  listForUser: op.query({
    http: { method: "GET", path: "/users/:id/sessions", status: 200 },
    input: ZIdInput,
    output: z.array(ZSessionDto),
    access: { requires: [], othersNeed: "sessions:read:all", wording: "one's own, or sessions:read:all" },
    summary: "A user's live sessions, newest first",
    tag,
    call: (services, ctx, input) => services.sessions.listForUser(ctx, input.id),
  }),
  endAllForUser: op.mutation({
    http: { method: "DELETE", path: "/users/:id/sessions", status: 200 },
    input: ZIdInput,
    output: z.object({ ended: z.number().int() }),
    access: { requires: [], othersNeed: "sessions:delete:all", wording: "one's own, or sessions:delete:all" },
    summary: "End every session of a user",
    tag,
    call: (services, ctx, input) => services.sessions.endAllForUser(ctx, input.id),
  }),
  end: op.mutation({
    http: { method: "DELETE", path: "/sessions/:id", status: 200 },
    input: ZIdInput,
    output: ZSessionDto,
    access: { requires: [], othersNeed: "sessions:delete:all", wording: "one's own, or sessions:delete:all" },
    summary: "End one session",
    tag,
    call: (services, ctx, input) => services.sessions.end(ctx, input.id),
  }),
};
