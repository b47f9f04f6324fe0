import { EventEmitter } from "node:events";
import { iterateTopic, type PubSub } from "@hisob/graphql/events";
import type { FastifyBaseLogger } from "fastify";
import { connectRedis } from "../redis";

export const GRAPHQL_PUBSUB_PREFIX = "hisob:graphql:";

/**
 * Pub/sub over Redis channels (`hisob:graphql:<topic>`): one publishing and one subscribing connection
 * per instance; a channel is subscribed while at least one local subscription listens on it. Payloads
 * are JSON. ioredis re-subscribes its channels after a reconnect.
 */
export const createRedisPubSub = async (url: string, log: FastifyBaseLogger): Promise<PubSub> => {
  const purpose = "GraphQL subscriptions";
  const publisher = await connectRedis(url, { name: "hisob-graphql-publish", log, purpose });
  const subscriber = await connectRedis(url, { name: "hisob-graphql-subscribe", log, purpose }).catch(
    (error: unknown) => {
      publisher.disconnect();
      throw error;
    },
  );
  const local = new EventEmitter();
  local.setMaxListeners(0);

  subscriber.on("message", (channel: string, message: string) => {
    if (!channel.startsWith(GRAPHQL_PUBSUB_PREFIX)) return;
    try {
      local.emit(channel.slice(GRAPHQL_PUBSUB_PREFIX.length), JSON.parse(message));
    } catch (error) {
      log.warn({ err: error, channel }, "graphql pub/sub: unreadable message");
    }
  });

  /** Local subscriptions per topic, and the Redis SUBSCRIBE of its channel (confirmed once Redis answered). */
  const channels = new Map<string, { count: number; ready: Promise<void>; confirmed: boolean }>();

  const release = (topic: string) => {
    const channel = channels.get(topic);
    if (!channel) return;
    channel.count -= 1;
    if (channel.count > 0) return;
    channels.delete(topic);
    subscriber.unsubscribe(GRAPHQL_PUBSUB_PREFIX + topic).catch((error: unknown) => {
      log.warn({ err: error, topic }, "graphql pub/sub: unsubscribe failed");
    });
  };

  return {
    publish: async (topic, payload) => {
      await publisher.publish(GRAPHQL_PUBSUB_PREFIX + topic, JSON.stringify(payload));
    },
    subscribe: (topic, signal) => {
      let channel = channels.get(topic);
      if (!channel) {
        const created: { count: number; ready: Promise<void>; confirmed: boolean } = {
          count: 0,
          ready: Promise.resolve(),
          confirmed: false,
        };
        created.ready = subscriber.subscribe(GRAPHQL_PUBSUB_PREFIX + topic).then(
          () => {
            created.confirmed = true;
          },
          (error: unknown) => log.warn({ err: error, topic }, "graphql pub/sub: subscribe failed"),
        );
        channels.set(topic, created);
        channel = created;
      }
      channel.count += 1;
      const { ready } = channel;
      const iterator = iterateTopic(local, topic, signal, () => release(topic));
      // The first payload waits for Redis to confirm the channel (nothing is published before that anyway).
      const next = iterator.next.bind(iterator);
      iterator.next = async () => {
        await ready;
        return next();
      };
      return iterator;
    },
    // This instance's subscriptions on `topic`, once Redis confirmed its channel (0 before).
    listeners: async (topic) => (channels.get(topic)?.confirmed ? local.listenerCount(topic) : 0),
    close: async () => {
      local.removeAllListeners();
      await Promise.all([
        publisher.quit().catch(() => publisher.disconnect()),
        subscriber.quit().catch(() => subscriber.disconnect()),
      ]);
    },
  };
};
