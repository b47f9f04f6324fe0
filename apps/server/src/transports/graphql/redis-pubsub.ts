import { EventEmitter } from "node:events";
import { iterateTopic, type PubSub } from "@hisob/graphql/events";
import type { FastifyBaseLogger } from "fastify";
import { connectRedis } from "../../redis";

export const GRAPHQL_PUBSUB_PREFIX = "hisob:graphql:";

/**
 * Pub/sub over Redis channels (`hisob:graphql:<topic>`): one publishing and one subscribing connection
 * per instance; a channel is subscribed while at least one local subscription listens on it. Payloads
 * are JSON.
 *
 * Redis pub/sub delivers at most once: what is published while the subscribing connection is away is
 * gone. So a subscription never silently outlives its channel: when Redis refuses a SUBSCRIBE, the
 * subscriptions waiting on it fail, and when the connection is lost every local subscription fails (the
 * server closes the sockets that watched through them, whose clients connect and resolve their caller
 * again). After a reconnect the channels are subscribed afresh by the subscriptions made then.
 */
export const createRedisPubSub = async (url: string, log: FastifyBaseLogger): Promise<PubSub> => {
  const purpose = "GraphQL subscriptions";
  const publisher = await connectRedis(url, { name: "hisob-graphql-publish", log, purpose });
  // After a reconnect the subscriptions made then subscribe their channels (the "close" handler), not ioredis.
  const subscriber = await connectRedis(url, {
    name: "hisob-graphql-subscribe",
    log,
    purpose,
    resubscribe: false,
  }).catch((error: unknown) => {
    publisher.disconnect();
    throw error;
  });
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let closing = false;

  subscriber.on("message", (channel: string, message: string) => {
    if (!channel.startsWith(GRAPHQL_PUBSUB_PREFIX)) return;
    try {
      local.emit(channel.slice(GRAPHQL_PUBSUB_PREFIX.length), JSON.parse(message));
    } catch (error) {
      log.warn({ err: error, channel }, "graphql pub/sub: unreadable message");
    }
  });

  /** Local subscriptions per topic, and the Redis SUBSCRIBE of its channel (confirmed once Redis answered). */
  type Channel = { count: number; ready: Promise<void>; confirmed: boolean };
  const channels = new Map<string, Channel>();

  subscriber.on("close", () => {
    if (closing) return;
    log.warn({}, "graphql pub/sub: the subscribing connection to Redis was lost; ending its subscriptions");
    // Nothing is subscribed on the next connection until someone subscribes again.
    channels.clear();
    // Every local subscription's iterator throws this (node's events.on rejects on "error").
    if (local.listenerCount("error") > 0) {
      local.emit("error", new Error("The connection to Redis was lost; subscribe again"));
    }
  });

  const release = (topic: string, channel: Channel) => {
    channel.count -= 1;
    // A channel dropped meanwhile (its SUBSCRIBE failed, or the connection was lost) has nothing to undo.
    if (channels.get(topic) !== channel || channel.count > 0) return;
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
        const created: Channel = { count: 0, ready: Promise.resolve(), confirmed: false };
        created.ready = subscriber.subscribe(GRAPHQL_PUBSUB_PREFIX + topic).then(
          () => {
            created.confirmed = true;
          },
          (error: unknown) => {
            log.warn({ err: error, topic }, "graphql pub/sub: subscribe failed");
            // The next subscription on the topic tries again.
            if (channels.get(topic) === created) channels.delete(topic);
            throw error;
          },
        );
        // Handled by each subscription's first `next` (below); none may have asked yet.
        created.ready.catch(() => {});
        channels.set(topic, created);
        channel = created;
      }
      channel.count += 1;
      const own = channel;
      const iterator = iterateTopic(local, topic, signal, () => release(topic, own));
      // The first payload waits for Redis to confirm the channel (nothing is published before that
      // anyway); a refused channel ends the subscription with Redis's error.
      const next = iterator.next.bind(iterator);
      iterator.next = async () => {
        try {
          await own.ready;
        } catch (error) {
          await iterator.return?.();
          throw error;
        }
        return next();
      };
      return iterator;
    },
    // This instance's subscriptions on `topic`, once Redis confirmed its channel (0 before).
    listeners: async (topic) => (channels.get(topic)?.confirmed ? local.listenerCount(topic) : 0),
    close: async () => {
      closing = true;
      local.removeAllListeners();
      await Promise.all([
        publisher.quit().catch(() => publisher.disconnect()),
        subscriber.quit().catch(() => subscriber.disconnect()),
      ]);
    },
  };
};
