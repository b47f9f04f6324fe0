import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * RFC 8252 §7.3: the desktop app receives the authorization response on a loopback listener at
 * 127.0.0.1 with a port the system picks (a fixed port could collide or be taken by another app).
 * It answers one request on /callback, shows a short page, and closes.
 */

export type Loopback = {
  redirectUri: string;
  /** The full callback URL the browser brought back. */
  result: Promise<URL>;
  close(): void;
};

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Hisob</title></head>
<body style="font-family:sans-serif;padding:2rem"><p>You can close this tab and return to Hisob.</p>
<p>Можно закрыть эту вкладку и вернуться в Hisob.</p><p>Bu oynani yopib, Hisobga qaytishingiz mumkin.</p></body></html>`;

export const startLoopback = async (timeoutMs = 5 * 60_000): Promise<Loopback> => {
  let settle: { resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;
  const result = new Promise<URL>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end(PAGE);
    const { port } = server.address() as AddressInfo;
    settle?.resolve(new URL(`http://127.0.0.1:${port}${url.pathname}${url.search}`));
    close();
  });
  const timer = setTimeout(() => {
    settle?.reject(new Error("sign-in timed out"));
    close();
  }, timeoutMs);
  timer.unref();
  const close = () => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, result, close };
};
