import net from "node:net";

/**
 * Forwards to a TCP server (PostgreSQL, say); `cut()` drops every connection and refuses new ones
 * until `restore()`: a database outage a test controls without touching the shared server.
 */
export const startTcpProxy = async (target: { host: string; port: number }) => {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) => server.listen(port, "127.0.0.1", () => resolve(portOf(server))));
  const port = await listen(0);
  return {
    port,
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: async () => {
      await listen(port);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
