import { type TDebtDetailDto, ZWriteOffDebtInput } from "@hisob/finance/schema";
import { describeFailure, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { KEYS, useApi, useMoney } from "../../api-context";
import { FormField } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";

type Values = { reason: string };
const FIELDS = ["reason"] as const;
const REASON_MAX = maxLengthOf(ZWriteOffDebtInput.shape.reason);

/** What is outstanding will not be collected (or paid): recorded with the reason, who and when. */
export const DebtWriteOffForm = (props: { debt: TDebtDetailDto; onClose: () => void }) => {
  const { debt } = props;
  const { t } = useTranslation();
  const money = useMoney(useLocale());
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({ mode: "onTouched", defaultValues: { reason: "" } });
  const writeOff = useMutation({
    mutationFn: (data: Values) =>
      api.debts.writeOff.mutate({ id: debt.id, data }, { context: { idempotencyKey: once.key } }),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const input = { reason: values.reason.trim() };
    const checked = checkWith(ZWriteOffDebtInput, input, (path) =>
      path === "reason" && !input.reason ? t("form.required") : undefined,
    );
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await writeOff.mutateAsync(input);
      await queryClient.invalidateQueries({ queryKey: KEYS.debts });
      void message.success(t("debts.writtenOffMessage"));
      props.onClose();
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
    }
  });

  return (
    <FormModal
      id="write-off-form"
      title={t("debts.writeOffTitle")}
      open
      busy={once.busy}
      error={formError}
      submitLabel={t("debts.writeOff")}
      onSubmit={() => void once.run(submit)}
      onCancel={props.onClose}
    >
      <Typography.Paragraph>
        {t("debts.settleHint", { amount: money(debt.outstanding, debt.currency) })}
      </Typography.Paragraph>
      <FormField
        control={form.control}
        name="reason"
        id="write-off-reason"
        label={t("debts.reason")}
        render={({ field, status }) => (
          <Input.TextArea
            {...field}
            id="write-off-reason"
            autoFocus
            rows={3}
            maxLength={REASON_MAX}
            status={status}
          />
        )}
      />
    </FormModal>
  );
};
