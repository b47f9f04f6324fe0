import type { Tx } from "./client";

/**
 * Callbacks to run after the transaction that registered them commits (never on rollback).
 * The outbox uses it to dispatch events only once they are durable.
 */
const hooks = new WeakMap<object, Array<() => void>>();

export const beginHooks = (tx: Tx): Array<() => void> => {
  const list: Array<() => void> = [];
  hooks.set(tx, list);
  return list;
};

export const afterCommit = (tx: Tx, callback: () => void): void => {
  const list = hooks.get(tx);
  if (!list)
    throw new Error("afterCommit() needs a transaction opened by withTenant/withSystem/withPlatform");
  list.push(callback);
};

export const runHooks = (list: Array<() => void>): void => {
  for (const callback of list) {
    try {
      callback();
    } catch {
      // A failing hook must not turn a committed transaction into an error for the caller.
    }
  }
};
