import type { EventHandler } from "@hisob/kernel";
import { type PubSub, sessionDeletedTopic } from "./pubsub";

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
