import { coreOperations, SESSION_END_REASONS, type TSessionDto, type TUserDto } from "@hisob/core";
import { AppError } from "@hisob/kernel";
import { z } from "zod";
import { elementOf, fieldOf, pageArgsSdl, permissionsOf, routeOf } from "../catalog-sdl";
import { callerOf, type GraphqlContext } from "../context";
import { sessionDeletedTopic } from "../pubsub";
import type { GraphqlModule } from "../registry";
import { argumentsSdl, enumValuesOf, objectTypeSdl } from "../zod-sdl";

/*
 * Core: users, their roles and groups, sessions. The user's types and the lists' arguments and
 * permissions are the catalog's (`coreOperations`); every resolver calls the core services REST uses,
 * whose permissions, validation and tenancy they are. A session keeps GraphQL's own shape (its public
 * identifier is \`token\`, its end reason an enum), as it was before the catalog fed GraphQL.
 */

const { users, sessions } = coreOperations;

const typeDefs = /* GraphQL */ `
${objectTypeSdl("User", users.get.output, {
  fields: {
    // A string on the wire since the first schema; the values are the catalog's locales.
    uiLanguage: "String",
    roles: "Role",
    groups: "Group",
    permissions: { description: "Effective permissions (the user's roles and their groups' roles), sorted." },
  },
})}
${objectTypeSdl("Role", elementOf(fieldOf(users.get.output, "roles", "output"), "User.roles"))}
${objectTypeSdl("Group", elementOf(fieldOf(users.get.output, "groups", "output"), "User.groups"))}
  type PaginatedUsers {
    data: [User!]!
    total: Int64!
  }

  """
  A login session. \`token\` is its public identifier, never the secret credential (that one is returned
  only once, by \`authenticate\`).
  """
  type Session {
    token: String!
    userId: ID!
    "The address it signed in from (the admin screens show its network)."
    ip: String!
    "The browser or program that signed in, as it named itself."
    userAgent: String!
    expiresAt: Time!
    createdAt: Time!
    "Why the session ended: given by \`sessionDeleted\` only (null in lists, and for an end announced without a reason)."
    endReason: SessionEndReason
    "When it was last used, to the minute; null in \`sessionDeleted\`."
    lastAccessAt: Time
    "What used it last; null in \`sessionDeleted\`."
    client: SessionClient
  }

  "Why a session ended."
  enum SessionEndReason {
    "Its owner signed out (in this window or on another device)."
    SIGNED_OUT
    "An administrator ended it, or deactivated, deleted or changed the credentials of its user."
    ENDED_BY_ADMIN
    "Its owner changed their own password or email: the other sessions end."
    CREDENTIALS_CHANGED
    "The organization was deactivated."
    ORGANIZATION_DEACTIVATED
  }

  "How a session was used: our own pages (its cookie), the API (its token as a bearer) or an OIDC client."
  enum SessionClientKind {
    api
    browser
    oidc
  }

  "What used a session last."
  type SessionClient {
    kind: SessionClientKind!
    "The OIDC client's client_id (kind oidc)."
    clientId: String
    "The OIDC client's name (kind oidc; null once the client is gone)."
    name: String
  }

  type PaginatedSessions {
    data: [Session!]!
    total: Int64!
  }

  "What \`authenticate\` returns: the secret session token (shown only here) and the session."
  type AuthSession {
    "The secret session token: send it as \`Authorization: Bearer <token>\` (it is also set as the \`session\` cookie)."
    token: String!
    userId: ID!
    expiresAt: Time!
    session: Session!
  }

  "Where to send the browser to sign in through the configured upstream OpenID provider."
  type ExternalAuthorization {
    "The upstream authorization URL (with state, nonce and a PKCE S256 challenge)."
    url: String!
    "The provider's name, e.g. Google."
    provider: String!
    "The sign-in must finish before this time."
    expiresAt: Time!
  }

  type Query {
    "The signed-in user."
    me: User!
    "Users of the caller's organization (${permissionsOf(users.list)})."
    users(
      ${pageArgsSdl(users.list.input)}
      "Sort fields in order: ${enumValuesOf(fieldOf(users.list.input, "sortBy"), "users.sortBy").join(", ")} (id breaks ties)."
      sortBy: [String!]
      ascending: Boolean = true
      "Conditions on id, email, firstName, lastName, uiLanguage, active, createdAt, updatedAt."
      filters: [Filter!]
    ): PaginatedUsers!
    user(id: ID!): User!
    "The caller's own live sessions, newest first."
    mySessions: [Session!]!
    """
    The organization's live sessions, most recently used first (${permissionsOf(sessions.listForTenant)}), as ${routeOf(sessions.listForTenant)}:
    optionally one user's, and/or those last used by \`client\` (browser, api or an OIDC client_id).
    """
    sessions(${argumentsSdl(sessions.listForTenant.input, "sessions", { omit: ["offset", "limit"] })}, ${pageArgsSdl(sessions.listForTenant.input)}): PaginatedSessions!
  }

  type Mutation {
    "Signs in: a new session, its secret token returned once and set as the \`session\` cookie."
    authenticate(email: String!, password: String!): AuthSession!
    """
    Ends a session named by its public identifier (\`Session.token\`) or by the secret token
    \`authenticate\` returned. One's own sessions; another user's with \`sessions:delete:all\`.
    """
    deleteSession(token: String!): Boolean!
    """
    Starts a sign-in through the configured upstream OpenID provider (Google or another issuer): sets a
    short-lived flow cookie and returns the URL to send the browser to. The provider sends the browser back
    to /auth/external/callback, which sets the \`session\` cookie and redirects to \`next\` (a local path;
    default /account). UNAVAILABLE (auth.external_not_configured) when no provider is configured.
    """
    googleAuthenticate(next: String): ExternalAuthorization!
  }

  type Subscription {
    "The caller's sessions as they end (sign-out, deleteSession, deactivation, password reset)."
    sessionDeleted: Session!
  }
`;

const ZUuidArg = z.uuid();

const toSession = (session: TSessionDto) => ({
  token: session.id,
  userId: session.userId,
  ip: session.ip,
  userAgent: session.userAgent,
  expiresAt: session.expiresAt,
  createdAt: session.createdAt,
  lastAccessAt: session.lastAccessAt,
  client: session.client,
});

/** The SessionDeleted event's payload as a `Session` (fields an older event lacks are empty). */
const ZSessionDeletedPayload = z.object({
  sessionId: z.string(),
  userId: z.string(),
  ip: z.string().default(""),
  userAgent: z.string().default(""),
  createdAt: z.string().optional(),
  expiresAt: z.string().optional(),
  occurredAt: z.string(),
  // An unknown reason (a newer server's, during a rolling update) is as good as none.
  reason: z.enum(SESSION_END_REASONS).optional().catch(undefined),
});

export const toSessionDeleted = (payload: unknown) => {
  const event = ZSessionDeletedPayload.parse(payload);
  return {
    token: event.sessionId,
    userId: event.userId,
    ip: event.ip,
    userAgent: event.userAgent,
    createdAt: event.createdAt ?? event.occurredAt,
    expiresAt: event.expiresAt ?? event.occurredAt,
    endReason: event.reason ? event.reason.toUpperCase() : null,
    lastAccessAt: null,
    client: null,
  };
};

const userNotFound = () => new AppError("NOT_FOUND", { reason: "user.not_found", message: "User not found" });

export const coreModule: GraphqlModule = {
  name: "core",
  typeDefs,
  resolvers: {
    Query: {
      me: (_: unknown, __: unknown, context: GraphqlContext) =>
        context.services.profile.get(callerOf(context)),
      users: async (
        _: unknown,
        args: {
          offset?: number;
          limit?: number;
          sortBy?: string[] | null;
          ascending?: boolean | null;
          filters?: unknown;
        },
        context: GraphqlContext,
      ) => {
        const page = await context.services.users.list(
          callerOf(context),
          {
            offset: args.offset ?? 0,
            limit: args.limit ?? 20,
            order: args.ascending === false ? "desc" : "asc",
          },
          { sortBy: args.sortBy ?? undefined, filters: args.filters ?? undefined },
        );
        return { data: page.items, total: page.total };
      },
      user: (_: unknown, args: { id: string }, context: GraphqlContext): Promise<TUserDto> => {
        const caller = callerOf(context);
        // A malformed id names nothing: NOT_FOUND, as REST answers for it.
        if (!ZUuidArg.safeParse(args.id).success) throw userNotFound();
        return context.services.users.get(caller, args.id.toLowerCase());
      },
      mySessions: async (_: unknown, __: unknown, context: GraphqlContext) =>
        (await context.services.sessions.listOwn(callerOf(context))).map(toSession),
      sessions: async (
        _: unknown,
        args: {
          userId?: string | null;
          client?: string | null;
          offset?: number | null;
          limit?: number | null;
        },
        context: GraphqlContext,
      ) => {
        // The REST query's own schema checks the arguments (a malformed one: VALIDATION_ERROR).
        const page = await context.services.sessions.listForTenant(callerOf(context), {
          userId: args.userId ?? undefined,
          client: args.client ?? undefined,
          offset: args.offset ?? 0,
          limit: args.limit ?? 50,
        });
        return { data: page.items.map(toSession), total: page.total };
      },
    },
    Mutation: {
      authenticate: async (
        _: unknown,
        args: { email: string; password: string },
        context: GraphqlContext,
      ) => {
        // The login service REST uses: same checks, same per email + IP throttle.
        const { token, session } = await context.services.auth.login(
          { email: args.email, password: args.password },
          context.client,
        );
        context.sessionCookie.set(token, session.expiresAt);
        return {
          token,
          userId: session.userId,
          expiresAt: session.expiresAt,
          session: {
            token: session.id,
            userId: session.userId,
            ip: context.client.ip.slice(0, 64),
            userAgent: context.client.userAgent.slice(0, 512),
            expiresAt: session.expiresAt,
            createdAt: session.createdAt,
            // Just made: used now, by the caller's cookie or token.
            lastAccessAt: session.createdAt,
            client: { kind: "browser", clientId: null, name: null },
          },
        };
      },
      googleAuthenticate: async (_: unknown, args: { next?: string | null }, context: GraphqlContext) => {
        const external = context.externalSignIn;
        if (!external) {
          throw new AppError("UNAVAILABLE", {
            reason: "auth.external_not_configured",
            message: "Sign-in through an external identity provider is not configured on this server",
          });
        }
        const started = await external.start(args.next ?? undefined);
        return { url: started.url, provider: external.provider, expiresAt: started.expiresAt };
      },
      deleteSession: async (_: unknown, args: { token: string }, context: GraphqlContext) => {
        const caller = callerOf(context);
        const ended = await context.services.sessions.end(caller, args.token);
        if (ended.id === caller.actor.sessionId) context.sessionCookie.clear();
        return true;
      },
    },
    Subscription: {
      sessionDeleted: {
        subscribe: (_: unknown, __: unknown, context: GraphqlContext) => {
          const caller = callerOf(context);
          return context.pubsub.subscribe(sessionDeletedTopic(caller.tenantId, caller.actor.userId));
        },
        resolve: (payload: unknown) => toSessionDeleted(payload),
      },
    },
  },
};
