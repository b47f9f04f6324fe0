import { PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import type { TJournalAttachmentDto } from "@hisob/finance/schema";
import { useLocale } from "@hisob/ui";
import { App as AntApp, Button, Space, Typography, Upload, type UploadFile } from "antd";
import { useTranslation } from "react-i18next";
import { useHost } from "../api-context";
import { DownloadButton } from "./downloads";

/*
 * Files attached to a record (docs/decisions/0111-books-features.md): uploaded through the server's
 * uploads route (multipart, the same bearer token as every call; `x-csrf-token` for a cookie session)
 * as soon as they are chosen, kept as upload ids by the form; shown on the record with download buttons.
 */

type Uploaded = { items: { id: string; name: string }[] };

/** An attachment the form already holds (a draft's), as the upload list shows it. */
export const attachedFile = (attachment: Pick<TJournalAttachmentDto, "id" | "name">): UploadFile => ({
  uid: attachment.id,
  name: attachment.name ?? attachment.id,
  status: attachment.name === null ? "error" : "done",
  response: { items: [{ id: attachment.id, name: attachment.name ?? "" }] } satisfies Uploaded,
});

/** The upload ids of the files that have arrived (none still uploading or refused). */
export const uploadedIds = (files: readonly UploadFile[]): string[] =>
  files.flatMap((file) => {
    const id = (file.response as Uploaded | undefined)?.items[0]?.id;
    return file.status === "done" && id ? [id] : [];
  });

export const AttachmentsUpload = (props: {
  id: string;
  files: UploadFile[];
  onChange: (files: UploadFile[]) => void;
  max: number;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const { bridge, serverUrl } = useHost();
  const { message } = AntApp.useApp();
  return (
    <Upload
      multiple
      maxCount={props.max}
      fileList={props.files}
      onChange={({ fileList }) => props.onChange(fileList)}
      customRequest={({ file, onSuccess, onError }) => {
        void (async () => {
          const body = new FormData();
          body.append("file", file as Blob, (file as File).name);
          const token = await bridge.accessToken();
          const response = await fetch(`${serverUrl}/uploads`, {
            method: "POST",
            body,
            headers: {
              "accept-language": locale,
              "x-csrf-token": "1",
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
          });
          const answer = (await response.json().catch(() => null)) as
            | (Uploaded & { error?: { message?: string } })
            | null;
          if (!response.ok || !answer?.items?.[0]) {
            const text = answer?.error?.message ?? `HTTP ${response.status}`;
            void message.error(t("attachments.refused", { name: (file as File).name, reason: text }));
            onError?.(new Error(text));
            return;
          }
          onSuccess?.(answer);
        })().catch((error: unknown) => {
          void message.error(t("attachments.refused", { name: (file as File).name, reason: String(error) }));
          onError?.(error as Error);
        });
      }}
    >
      <Button id={props.id} icon={<UploadOutlined />} data-testid="attachments-upload">
        {t("attachments.add")}
      </Button>
    </Upload>
  );
};

/** A record's attachments, each with a download button; a deleted upload is named as missing. */
export const AttachmentLinks = (props: { attachments: readonly TJournalAttachmentDto[] }) => {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={4} data-testid="attachments">
      {props.attachments.map((attachment) => {
        const { url, name } = attachment;
        return url && name ? (
          <Space key={attachment.id} size={4}>
            <PaperClipOutlined aria-hidden />
            <DownloadButton
              label={name}
              hint={t("attachments.download", { name })}
              testId="attachment-download"
              prepare={async () => ({ url, fileName: name })}
            />
          </Space>
        ) : (
          <Typography.Text key={attachment.id} type="secondary" data-testid="attachment-missing">
            {t("attachments.missing")}
          </Typography.Text>
        );
      })}
    </Space>
  );
};
