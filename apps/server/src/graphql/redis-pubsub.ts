import { EventEmitter } from "node:events";
import { iterateTopic, type PubSub } from "@hisob/graphql";
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
  const counts = new Map<string, number>();

  subscriber.on("message", (channel: string, message: string) => {
    if (!channel.startsWith(GRAPHQL_PUBSUB_PREFIX)) return;
    try {
      local.emit(channel.slice(GRAPHQL_PUBSUB_PREFIX.length), JSON.parse(message));
    } catch (error) {
      log.warn({ err: error, channel }, "graphql pub/sub: unreadable message");
    }
  });

  const release = (topic: string) => {
    const left = (counts.get(topic) ?? 1) - 1;
    if (left > 0) {
      counts.set(topic, left);
      return;
    }
    counts.delete(topic);
    subscriber.unsubscribe(GRAPHQL_PUBSUB_PREFIX + topic).catch((error: unknown) => {
      log.warn({ err: error, topic }, "graphql pub/sub: unsubscribe failed");
    });
  };

  return {
    publish: async (topic, payload) => {
      await publisher.publish(GRAPHQL_PUBSUB_PREFIX + topic, JSON.stringify(payload));
    },
    subscribe: (topic, signal) => {
      const count = counts.get(topic) ?? 0;
      counts.set(topic, count + 1);
      const ready =
        count === 0
          ? subscriber.subscribe(GRAPHQL_PUBSUB_PREFIX + topic).then(
              () => undefined,
              (error: unknown) => log.warn({ err: error, topic }, "graphql pub/sub: subscribe failed"),
            )
          : Promise.resolve();
      const iterator = iterateTopic(local, topic, signal, () => release(topic));
      // The first payload waits for Redis to confirm the channel (nothing is published before that anyway).
      const next = iterator.next.bind(iterator);
      iterator.next = async () => {
        await ready;
        return next();
      };
      return iterator;
    },
    listeners: async (topic) => {
      const result = (await publisher.pubsub("NUMSUB", GRAPHQL_PUBSUB_PREFIX + topic)) as [string, number];
      return Number(result[1] ?? 0);
    },
    close: async () => {
      local.removeAllListeners();
      await Promise.all([
        publisher.quit().catch(() => publisher.disconnect()),
        subscriber.quit().catch(() => subscriber.disconnect()),
      ]);
    },
  };
};
