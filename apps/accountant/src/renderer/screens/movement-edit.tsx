import { ZUpdateMovementInput } from "@hisob/finance/schema";
import { describeFailure } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { invalidateMoney, useApi } from "../api-context";
import { DateField } from "../components/date-input";
import { FormField } from "../components/field";
import { FormModal } from "../components/form-modal";
import { CounterpartyPicker } from "../components/pickers";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../forms";

/*
 * Corrects a posted transfer or exchange: its date, comment and counterparty — nothing that moves
 * money (a wrong amount or account is reversed instead). The same form as a payment's edit: Enter
 * saves, Esc cancels, the server's errors stand next to their field in the user's language, and the
 * dialog keeps everything typed on an error.
 */

export type Movement = {
  id: string;
  type: "transfer" | "exchange";
  date: string;
  comment: string;
  counterpartyId: string | null;
};

type Values = { date: string; comment: string; counterpartyId: string | null };
const FIELDS = ["date", "comment", "counterpartyId"] as const;
const COMMENT_MAX = maxLengthOf(ZUpdateMovementInput.shape.comment);

export const MovementEditDialog = ({ movement, onClose }: { movement: Movement; onClose: () => void }) => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: {
      date: movement.date,
      comment: movement.comment,
      counterpartyId: movement.counterpartyId,
    },
  });
  const save = useMutation({
    mutationFn: (input: { id: string; data: Values }) =>
      movement.type === "exchange" ? api.exchanges.update.mutate(input) : api.transfers.update.mutate(input),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const checked = checkWith(ZUpdateMovementInput, values, (path) =>
      path === "date" && !values.date ? t("form.required") : undefined,
    );
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await save.mutateAsync({ id: movement.id, data: values });
      await invalidateMoney(queryClient);
      void message.success(t("documents.saved"));
      onClose();
    } catch (error) {
      // The dialog stays open with what was typed; the server's message is in the user's language.
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
    }
  });

  return (
    <FormModal
      id="movement-edit-form"
      title={t(movement.type === "exchange" ? "transfers.editExchange" : "transfers.editTransfer")}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={onClose}
    >
      <DateField control={form.control} name="date" id="movement-edit-date" label={t("documents.date")} />
      <FormField
        control={form.control}
        name="counterpartyId"
        id="movement-edit-counterparty"
        label={t("documents.counterparty")}
        render={({ bound }) => <CounterpartyPicker {...bound} />}
      />
      <FormField
        control={form.control}
        name="comment"
        id="movement-edit-comment"
        label={t("documents.comment")}
        render={({ field, status }) => (
          <Input {...field} id="movement-edit-comment" autoFocus maxLength={COMMENT_MAX} status={status} />
        )}
      />
    </FormModal>
  );
};
