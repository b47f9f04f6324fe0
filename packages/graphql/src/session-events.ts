import { ACCESS_CHANGED } from "@hisob/core";
import type { EventHandler } from "@hisob/kernel";
import { accessChangedTopic, type PubSub, sessionDeletedTopic } from "./pubsub";

type EventSource = { subscribe(type: string, handler: EventHandler): () => void };

/**
 * SessionDeleted (from the outbox, after commit) → the owner's `sessionDeleted` topic. With Redis as the
 * pub/sub, the instance that dispatches the event reaches subscribers on every instance.
 */
export const bridgeSessionEvents = (events: EventSource, pubsub: PubSub): (() => void) =>
  events.subscribe("SessionDeleted", async (event) => {
    const userId = event.payload.userId;
    if (!event.tenantId || typeof userId !== "string") return;
    await pubsub.publish(sessionDeletedTopic(event.tenantId, userId), {
      ...event.payload,
      occurredAt: event.occurredAt.toISOString(),
    });
  });

/** The outbox events after which a caller's access may differ, and the users they concern (all when absent). */
const ACCESS_EVENTS: Record<string, (payload: Record<string, unknown>) => string[] | undefined> = {
  [ACCESS_CHANGED]: (payload) =>
    Array.isArray(payload.userIds) ? payload.userIds.filter((id) => typeof id === "string") : undefined,
  UserDeleted: (payload) => (typeof payload.userId === "string" ? [payload.userId] : []),
  TenantDeactivated: () => undefined,
};

/**
 * AccessChanged, UserDeleted and TenantDeactivated (from the outbox, after commit) → the organization's
 * access topic, on every instance when the pub/sub is Redis: the sockets of the users concerned resolve
 * their caller again, so a revoked permission or a deactivation reaches them at once.
 */
export const bridgeAccessEvents = (events: EventSource, pubsub: PubSub): (() => void) => {
  const stops = Object.entries(ACCESS_EVENTS).map(([type, usersOf]) =>
    events.subscribe(type, async (event) => {
      if (!event.tenantId) return;
      const userIds = usersOf(event.payload);
      await pubsub.publish(accessChangedTopic(event.tenantId), userIds ? { userIds } : {});
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
};
