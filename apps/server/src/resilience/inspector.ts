import { createWriteStream } from "node:fs";
import WebSocket from "ws";

/**
 * A small Chrome DevTools Protocol client for an instance started with --inspect: its heap in use
 * (the soak samples it) and heap snapshots written to a file (the soak compares two).
 */
export const connectInspector = async (inspectorPort: number) => {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${inspectorPort}`);
  const socket = new WebSocket(url, { maxPayload: 1024 * 1024 * 1024 });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, (params: Record<string, unknown>) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: Record<string, unknown>;
    };
    if (message.id !== undefined) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    } else if (message.method) listeners.get(message.method)?.(message.params ?? {});
  });
  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });

  return {
    /** V8's heap in use, in MiB (what is live plus garbage not yet collected). */
    heapUsedMiB: async () =>
      (await send<{ usedSize: number }>("Runtime.getHeapUsage")).usedSize / 1024 / 1024,
    /** A full GC, then the heap in use: what the instance really keeps. */
    heapAfterGcMiB: async () => {
      await send("HeapProfiler.collectGarbage");
      return (await send<{ usedSize: number }>("Runtime.getHeapUsage")).usedSize / 1024 / 1024;
    },
    /** A heap snapshot (taken after a full GC, as V8 always does) written to `file`. */
    snapshot: async (file: string) => {
      const out = createWriteStream(file);
      listeners.set("HeapProfiler.addHeapSnapshotChunk", (params) => out.write(String(params.chunk)));
      await send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      listeners.delete("HeapProfiler.addHeapSnapshotChunk");
      await new Promise((resolve) => out.end(resolve));
    },
    close: () => socket.close(),
  };
};
