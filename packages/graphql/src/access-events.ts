import { ACCESS_CHANGED } from "@hisob/core";
import type { EventHandler } from "@hisob/kernel";
import { OIDC_CLIENT_ACCESS_REVOKED, OIDC_TOKENS_REVOKED } from "@hisob/oidc";
import { accessChangedTopic, OIDC_CLIENTS_TOPIC, type PubSub } from "./pubsub";

type EventSource = { subscribe(type: string, handler: EventHandler): () => void };

const userIdOf = (payload: Record<string, unknown>) =>
  typeof payload.userId === "string" ? [payload.userId] : [];

/**
 * The outbox events of an organization after which a caller's access may differ, and the users they
 * concern (all when absent).
 */
const ACCESS_EVENTS: Record<string, (payload: Record<string, unknown>) => string[] | undefined> = {
  [ACCESS_CHANGED]: (payload) =>
    Array.isArray(payload.userIds) ? payload.userIds.filter((id) => typeof id === "string") : undefined,
  UserDeleted: userIdOf,
  TenantDeactivated: () => undefined,
  // An OIDC grant or access token revoked: a socket on it must find it dead.
  [OIDC_TOKENS_REVOKED]: userIdOf,
};

/**
 * Access changes (from the outbox, after commit) → the topics open sockets watch, on every instance when
 * the pub/sub is Redis (docs/decisions/0011-graphql-socket-authorization.md): an organization's
 * (AccessChanged, UserDeleted, TenantDeactivated, OidcTokensRevoked) to its access topic, where the
 * sockets of the users concerned resolve their caller again; an OIDC client's tokens stopped (no
 * organization's) to the OIDC clients topic, which every socket on an OIDC access token watches.
 */
export const bridgeAccessEvents = (events: EventSource, pubsub: PubSub): (() => void) => {
  const stops = Object.entries(ACCESS_EVENTS).map(([type, usersOf]) =>
    events.subscribe(type, async (event) => {
      if (!event.tenantId) return;
      const userIds = usersOf(event.payload);
      // The organization's deactivation says so: a socket closed for it tells its client why.
      const deactivated = type === "TenantDeactivated" ? { tenantDeactivated: true } : {};
      await pubsub.publish(accessChangedTopic(event.tenantId), userIds ? { userIds } : deactivated);
    }),
  );
  stops.push(
    events.subscribe(OIDC_CLIENT_ACCESS_REVOKED, async (event) => {
      await pubsub.publish(OIDC_CLIENTS_TOPIC, { clientId: event.payload.clientId });
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
};
