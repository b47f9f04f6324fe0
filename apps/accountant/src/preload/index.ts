import { contextBridge, ipcRenderer } from "electron";
import type { HisobBridge } from "../shared/bridge";

/*
 * The sandboxed preload: window.hisob over IPC, one channel per operation (the main process checks
 * the sender and validates every argument). No Node, no ipcRenderer, nothing else reaches the page.
 */

const call =
  <T>(channel: string) =>
  (...args: unknown[]) =>
    ipcRenderer.invoke(channel, ...args) as Promise<T>;

const bridge: HisobBridge = {
  host: "electron",
  appVersion: call("hisob:appVersion"),
  serverUrl: call("hisob:serverUrl"),
  restoreSession: call("hisob:restoreSession"),
  signIn: call("hisob:signIn"),
  accessToken: call("hisob:accessToken"),
  signOut: call("hisob:signOut"),
  forgetSession: call("hisob:forgetSession"),
  openExternal: call("hisob:openExternal"),
  saveFile: call("hisob:saveFile"),
  printToPdf: call("hisob:printToPdf"),
};

contextBridge.exposeInMainWorld("hisob", bridge);
