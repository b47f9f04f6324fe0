import { describeFailure, numberLocale, useLocale } from "@hisob/ui";
import { App as AntApp, Button, Space, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHost } from "../../api-context";
import { type Download, withLang } from "../../components/downloads";

/*
 * A report's .xlsx, in the app's language. The file is read as a stream: a download that takes more
 * than a second shows how many bytes have arrived (of how many, when the server says) and a Cancel
 * that aborts the request (an AbortController), so a big period never leaves the user waiting blind.
 */

const SLOW_AFTER_MS = 1000;

type Progress = { bytes: number; total: number | null; slow: boolean };

/** Reads a response body to the end, telling each chunk's running count. */
const readAll = async (response: Response, onBytes: (bytes: number) => void): Promise<Uint8Array> => {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onBytes(received);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
};

export const ReportExport = ({ prepare }: { prepare: () => Promise<Download> }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const { bridge, serverUrl } = useHost();
  const { message } = AntApp.useApp();
  const [progress, setProgress] = useState<Progress | null>(null);
  const controller = useRef<AbortController | null>(null);
  // Leaving the screen stops a download nobody will save.
  useEffect(() => () => controller.current?.abort(), []);
  const kilobytes = new Intl.NumberFormat(numberLocale(locale), { maximumFractionDigits: 1 });
  const size = (bytes: number) => t("reports.kilobytes", { size: kilobytes.format(bytes / 1024) });

  const download = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ bytes: 0, total: null, slow: false });
    const slow = setTimeout(() => setProgress((p) => (p ? { ...p, slow: true } : p)), SLOW_AFTER_MS);
    try {
      const file = await prepare();
      const token = await bridge.accessToken();
      const response = await fetch(`${serverUrl}${withLang(file.url, locale)}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: abort.signal,
      });
      if (!response.ok) {
        const problem = (await response.json().catch(() => null)) as {
          detail?: string;
          title?: string;
        } | null;
        throw new Error(problem?.detail ?? problem?.title ?? `HTTP ${response.status}`);
      }
      const total = Number(response.headers.get("content-length")) || null;
      const bytes = await readAll(response, (received) =>
        setProgress((p) => (p ? { ...p, bytes: received, total } : p)),
      );
      if (await bridge.saveFile(file.fileName, bytes))
        void message.success(t("downloads.saved", { name: file.fileName }));
    } catch (error) {
      if (abort.signal.aborted) void message.info(t("reports.exportCancelled"));
      else void message.error(describeFailure(error, t).message);
    } finally {
      clearTimeout(slow);
      controller.current = null;
      setProgress(null);
    }
  };

  return (
    <Space className="no-print">
      <Button loading={progress !== null} onClick={() => void download()} data-testid="report-xlsx">
        {t("downloads.xlsx")}
      </Button>
      {progress?.slow ? (
        <>
          <Typography.Text role="status" data-testid="report-xlsx-progress">
            {progress.total
              ? t("reports.downloadedOf", { done: size(progress.bytes), total: size(progress.total) })
              : t("reports.downloaded", { done: size(progress.bytes) })}
          </Typography.Text>
          <Button danger onClick={() => controller.current?.abort()} data-testid="report-xlsx-cancel">
            {t("reports.cancel")}
          </Button>
        </>
      ) : null}
    </Space>
  );
};
