import type { ChildProcess } from "node:child_process";
import { type AddressInfo, connect, createServer } from "node:net";

/** A loopback port nobody listens on now (for a server process a test starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = (probe.address() as AddressInfo) ?? { port: 0 };
      probe.close(() => resolve(port));
    });
  });

const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(socket.destroy() !== undefined));
    socket.once("error", () => resolve(false));
  });

/** Waits until `child` accepts connections on `port`; throws if it exits first or takes too long. */
export const waitForPort = async (port: number, child: ChildProcess, what: string, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepting(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
