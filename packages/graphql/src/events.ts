import { MESSAGE_ADDED } from "@hisob/crm";
import { bridgeAccessEvents } from "./access-events";
import type { PubSub } from "./pubsub";
import type { EventSource } from "./registry";
import { bridgeSessionEvents } from "./session-events";

/*
 * What the server needs of GraphQL at start, without GraphQL: the pub/sub and the bridges from the
 * outbox to the subscriptions' topics. The outbox marks events of a type nobody subscribed to as
 * dispatched, so the bridges subscribe at start even though the schema, yoga and graphql-ws load on
 * the first GraphQL request (`@hisob/graphql/events` imports none of them; see README, "Memory").
 */

export {
  accessChangedTopic,
  createMemoryPubSub,
  iterateTopic,
  OIDC_CLIENTS_TOPIC,
  type PubSub,
  sessionDeletedTopic,
} from "./pubsub";
export type { EventSource } from "./registry";

/** The topic of one organization's new messages (CRM's `messageAdded` subscription). */
export const messageAddedTopic = (tenantId: string) => `crm-message-added:${tenantId}`;

/** CRM's committed new messages → their organization's `messageAdded` topic. */
export const bridgeCrmEvents = (events: EventSource, pubsub: PubSub): (() => void) =>
  events.subscribe(MESSAGE_ADDED, async (event) => {
    if (!event.tenantId) return;
    await pubsub.publish(messageAddedTopic(event.tenantId), event.payload);
  });

/**
 * Every subscription's feed from the outbox, for the modules the server serves (a module with a
 * subscription fed by domain events adds its bridge here). Returns the function that stops them all.
 */
export const bridgeGraphqlEvents = (events: EventSource, pubsub: PubSub): (() => void) => {
  const stops = [
    bridgeSessionEvents(events, pubsub),
    bridgeAccessEvents(events, pubsub),
    bridgeCrmEvents(events, pubsub),
  ];
  return () => {
    for (const stop of stops) stop();
  };
};
