import { describeFailure, useLocale } from "@hisob/ui";
import { App as AntApp, Button, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useHost } from "../api-context";

/*
 * Downloads and printing. A file comes from the server's download route: the tRPC procedure checks
 * permission and input and answers with that route's URL (from the operation catalog, never a path
 * written here); the file is fetched with the same bearer token, in the app's language, and handed to
 * the host to save (the browser's download, or a save dialog in the desktop app).
 */

export type Download = { url: string; fileName: string };

/** The download route refused (its problem's message, already in the user's language). */
class DownloadRefused extends Error {}

/** Appends the app's language, so headers and money formats in the file match the screen. */
export const withLang = (url: string, lang: string) => `${url}${url.includes("?") ? "&" : "?"}lang=${lang}`;

export const DownloadButton = (props: {
  /** The tRPC download procedure's call: the file's URL and name. */
  prepare: () => Promise<Download>;
  label?: string;
  /** The tooltip (default: what an .xlsx download holds). */
  hint?: string;
  testId?: string;
  disabled?: boolean;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const { bridge, serverUrl } = useHost();
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const file = await props.prepare();
      const token = await bridge.accessToken();
      const response = await fetch(`${serverUrl}${withLang(file.url, locale)}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      if (!response.ok) {
        const problem = (await response.json().catch(() => null)) as {
          detail?: string;
          title?: string;
        } | null;
        throw new DownloadRefused(problem?.detail ?? problem?.title ?? `HTTP ${response.status}`);
      }
      const saved = await bridge.saveFile(file.fileName, new Uint8Array(await response.arrayBuffer()));
      if (saved) void message.success(t("downloads.saved", { name: file.fileName }));
    } catch (error) {
      void message.error(
        error instanceof DownloadRefused ? error.message : describeFailure(error, t).message,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Tooltip title={props.hint ?? t("downloads.xlsxHint")}>
      <Button
        className="no-print"
        loading={busy}
        disabled={props.disabled}
        onClick={() => void download()}
        data-testid={props.testId}
      >
        {props.label ?? t("downloads.xlsx")}
      </Button>
    </Tooltip>
  );
};

/** Prints the page as it is laid out for paper (the desktop app saves it as PDF). */
export const PrintButton = (props: { name: string; testId?: string }) => {
  const { t } = useTranslation();
  const { bridge } = useHost();
  return (
    <Button
      className="no-print"
      onClick={() => void bridge.printToPdf(props.name)}
      data-testid={props.testId}
    >
      {t("downloads.print")}
    </Button>
  );
};
