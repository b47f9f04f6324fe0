import { EventEmitter, on } from "node:events";

/**
 * Subscriptions' pub/sub: in memory for one process, or a shared broker (Redis, in the server) so an
 * event published by one instance reaches subscribers connected to another.
 */
export type PubSub = {
  publish(topic: string, payload: unknown): Promise<void>;
  /** Payloads published to `topic` from now on, until the iterator is returned or `signal` aborts. */
  subscribe(topic: string, signal?: AbortSignal): AsyncIterableIterator<unknown>;
  /** How many subscriptions of this instance listen on `topic` (and would hear a publish now): for tests. */
  listeners(topic: string): Promise<number>;
  close(): Promise<void>;
};

/**
 * Turns an emitter's `topic` events into an async iterator. Payloads are queued (never dropped) while
 * the consumer is busy; returning the iterator removes the listener.
 */
export const iterateTopic = (
  emitter: EventEmitter,
  topic: string,
  signal?: AbortSignal,
  onEnd?: () => void,
): AsyncIterableIterator<unknown> => {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener("abort", abort, { once: true });
  const events = on(emitter, topic, { signal: controller.signal });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    signal?.removeEventListener("abort", abort);
    controller.abort();
    onEnd?.();
  };
  // Already aborted: its abort event is gone, so nothing would ever remove the listener.
  if (signal?.aborted) end();
  const iterator: AsyncIterableIterator<unknown> = {
    next: async () => {
      try {
        const result = await events.next();
        if (result.done) {
          end();
          return { done: true, value: undefined };
        }
        return { done: false, value: (result.value as unknown[])[0] };
      } catch (error) {
        end();
        if ((error as { name?: string }).name === "AbortError") return { done: true, value: undefined };
        throw error;
      }
    },
    return: async () => {
      end();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
};

/** One process: the default when no REDIS_URL is set. */
export const createMemoryPubSub = (): PubSub => {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: async (topic, payload) => {
      emitter.emit(topic, payload);
    },
    subscribe: (topic, signal) => iterateTopic(emitter, topic, signal),
    listeners: async (topic) => emitter.listenerCount(topic),
    close: async () => {
      emitter.removeAllListeners();
    },
  };
};

/** The topic of one user's session deletions (tenant and user in the name: no one else hears them). */
export const sessionDeletedTopic = (tenantId: string, userId: string) =>
  `session-deleted:${tenantId}:${userId}`;

/**
 * The topic of an organization's access changes (roles, groups, permissions, a user or the organization
 * deactivated or deleted): payload `{ userIds? }`, every user of the organization when absent. Open
 * sockets of those users resolve their caller again.
 */
export const accessChangedTopic = (tenantId: string) => `access-changed:${tenantId}`;

/**
 * Platform-wide: an OIDC client whose tokens no longer work (payload `{ clientId }`). Every socket opened
 * with an OIDC access token resolves its caller again.
 */
export const OIDC_CLIENTS_TOPIC = "oidc-clients-access";
