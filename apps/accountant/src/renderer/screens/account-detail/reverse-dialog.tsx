import { type TAccountStatement, ZReverseInput } from "@hisob/finance/schema";
import { describeFailure } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Input, Modal, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { invalidateMoney, useApi } from "../../api-context";
import { useSubmitOnce } from "../../forms";

type Entry = TAccountStatement["entries"][number];

/** Reverses a transfer or an exchange: the server posts its exact opposite, with the reason given. */
export const ReverseDialog = ({ entry, onClose }: { entry: Entry; onClose: () => void }) => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  // One reversal per intent: a double click or a second Enter does nothing while the first runs, and
  // the server replays (never repeats) a request sent again under the dialog's key.
  const once = useSubmitOnce();
  const reverse = useMutation({
    mutationFn: (input: { id: string; data: { reason: string } }) => {
      const context = { context: { idempotencyKey: once.key } };
      return entry.type === "exchange"
        ? api.exchanges.reverse.mutate(input, context)
        : api.transfers.reverse.mutate(input, context);
    },
  });
  const submit = async () => {
    setError(null);
    const checked = ZReverseInput.safeParse({ reason });
    if (!checked.success) {
      setError(t("form.required"));
      return;
    }
    try {
      await reverse.mutateAsync({ id: entry.id, data: { reason: checked.data.reason } });
      await invalidateMoney(queryClient);
      void message.success(t("transfers.reversed"));
      onClose();
    } catch (failure) {
      setError(describeFailure(failure, t).message);
    }
  };
  return (
    <Modal
      open
      title={t("transfers.reverseTitle")}
      okText={t("transfers.reverse")}
      cancelText={t("ui:cancel")}
      okButtonProps={{ danger: true, loading: once.busy, id: "confirm-reverse" }}
      onOk={() => void once.run(submit)}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{t("transfers.reverseText")}</Typography.Paragraph>
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="reverse-error" />
      ) : null}
      <label htmlFor="reverse-reason" style={{ display: "block", marginBottom: 4, fontWeight: 500 }}>
        {t("transfers.reason")}
      </label>
      <Input
        id="reverse-reason"
        value={reason}
        maxLength={maxLengthOf(ZReverseInput.shape.reason)}
        onChange={(event) => setReason(event.target.value)}
        onPressEnter={() => void once.run(submit)}
      />
    </Modal>
  );
};
