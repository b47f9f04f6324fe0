import { z } from "zod";
import { isTrustedSender } from "./security";

/*
 * The only calls the renderer can make into the main process: each channel has a zod schema for
 * its arguments, and every call must come from the app's own top frame. Anything else is refused
 * before a handler runs.
 */

const ZNoArgs = z.tuple([]);

/** A bare file name: no directory separators, reserved characters or control characters. */
const isPlainFileName = (name: string) =>
  !/[/\\:*?"<>|]/.test(name) && [...name].every((char) => (char.codePointAt(0) ?? 0) >= 0x20);
export const IPC_CHANNELS = {
  "hisob:appVersion": ZNoArgs,
  "hisob:serverUrl": ZNoArgs,
  "hisob:restoreSession": ZNoArgs,
  "hisob:signIn": ZNoArgs,
  "hisob:accessToken": ZNoArgs,
  "hisob:signOut": ZNoArgs,
  "hisob:forgetSession": ZNoArgs,
  "hisob:openExternal": z.tuple([z.url({ protocol: /^https?$/ }).max(2048)]),
  "hisob:saveFile": z.tuple([
    z.string().min(1).max(200).refine(isPlainFileName, "a file name without a path"),
    z.instanceof(Uint8Array).refine((bytes) => bytes.byteLength <= 100 * 1024 * 1024, "at most 100 MiB"),
  ]),
  "hisob:printToPdf": z.tuple([z.string().min(1).max(200)]),
} as const;

export type IpcChannel = keyof typeof IPC_CHANNELS;
export type IpcHandlers = {
  [C in IpcChannel]: (...args: z.output<(typeof IPC_CHANNELS)[C]>) => Promise<unknown>;
};

type InvokeEvent = { senderFrame: { url: string; parent: unknown } | null };

/** Why a call is refused, or null: the sender and the arguments are checked. */
export const checkCall = (channel: string, event: InvokeEvent, args: unknown[]): string | null => {
  if (!(channel in IPC_CHANNELS)) return "unknown channel";
  const frame = event.senderFrame;
  if (!isTrustedSender(frame?.url, frame !== null && frame.parent === null)) return "untrusted sender";
  const parsed = IPC_CHANNELS[channel as IpcChannel].safeParse(args);
  return parsed.success ? null : `invalid arguments: ${parsed.error.issues[0]?.message ?? "invalid"}`;
};

type IpcMainLike = {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
};

export const registerIpc = (ipcMain: IpcMainLike, handlers: IpcHandlers): void => {
  for (const channel of Object.keys(IPC_CHANNELS) as IpcChannel[]) {
    ipcMain.handle(channel, async (event, ...args) => {
      const refused = checkCall(channel, event, args);
      if (refused) throw new Error(`${channel} refused: ${refused}`);
      const parsed = IPC_CHANNELS[channel].parse(args) as never[];
      return (handlers[channel] as (...a: never[]) => Promise<unknown>)(...parsed);
    });
  }
};
