import {
  COUNTERPARTY_TYPES,
  type TCounterpartyDto,
  ZCreateCounterpartyInput,
  ZUpdateCounterpartyInput,
} from "@hisob/finance/schema";
import { describeFailure } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input, Select, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { KEYS, useApi } from "../../api-context";
import { FormField } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";

type Values = {
  name: string;
  tin: string;
  type: TCounterpartyDto["type"];
  phone: string;
  email: string;
  address: string;
  notes: string;
};
const FIELDS = ["name", "tin", "type", "phone", "email", "address", "notes"] as const;
const TEXT_FIELDS = ["name", "tin", "phone", "email", "address"] as const;
const shape = ZCreateCounterpartyInput.shape;
const MAX = Object.fromEntries(TEXT_FIELDS.map((name) => [name, maxLengthOf(shape[name])]));

/** A new counterparty or its edit, checked by the server's own rules (the TIN's, the phone's, the email's). */
export const CounterpartyForm = (props: {
  counterparty: TCounterpartyDto | null;
  onClose: () => void;
  onSaved?: (saved: TCounterpartyDto) => void;
}) => {
  const { counterparty } = props;
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: {
      name: counterparty?.name ?? "",
      tin: counterparty?.tin ?? "",
      type: counterparty?.type ?? "customer",
      phone: counterparty?.phone ?? "",
      email: counterparty?.email ?? "",
      address: counterparty?.address ?? "",
      notes: counterparty?.notes ?? "",
    },
  });
  const save = useMutation({
    mutationFn: (input: Values) =>
      counterparty
        ? api.counterparties.update.mutate({ id: counterparty.id, data: input })
        : api.counterparties.create.mutate(input, { context: { idempotencyKey: once.key } }),
  });

  const submit = form.handleSubmit(async (raw) => {
    setFormError(null);
    const values = { ...raw, name: raw.name.trim(), tin: raw.tin.trim() };
    const messageFor = (path: string) => (path === "name" && !values.name ? t("form.required") : undefined);
    const checked = checkWith(
      counterparty ? ZUpdateCounterpartyInput : ZCreateCounterpartyInput,
      values,
      messageFor,
    );
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      const saved = await save.mutateAsync(values);
      await queryClient.invalidateQueries({ queryKey: KEYS.counterparties });
      void message.success(t(counterparty ? "counterparties.saved" : "counterparties.created"));
      props.onSaved?.(saved);
      props.onClose();
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
    }
  });

  const text = (name: (typeof TEXT_FIELDS)[number], autoFocus = false, hint?: string) => (
    <FormField
      control={form.control}
      name={name}
      id={`counterparty-${name}`}
      label={t(`counterparties.${name}`)}
      hint={hint ? <Typography.Text type="secondary">{hint}</Typography.Text> : undefined}
      render={({ field, status }) => (
        <Input
          {...field}
          id={`counterparty-${name}`}
          autoFocus={autoFocus}
          maxLength={MAX[name]}
          status={status}
        />
      )}
    />
  );
  return (
    <FormModal
      id="counterparty-form"
      title={t(counterparty ? "counterparties.edit" : "counterparties.new")}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={props.onClose}
    >
      {text("name", true)}
      {text("tin", false, t("counterparties.tinHint"))}
      <FormField
        control={form.control}
        name="type"
        id="counterparty-type"
        label={t("counterparties.type")}
        render={({ field, status }) => (
          <Select
            {...field}
            id="counterparty-type"
            status={status}
            style={{ width: "100%" }}
            options={COUNTERPARTY_TYPES.map((type) => ({
              value: type,
              label: t(`counterparties.types.${type}`),
            }))}
          />
        )}
      />
      {text("phone")}
      {text("email")}
      {text("address")}
      <FormField
        control={form.control}
        name="notes"
        id="counterparty-notes"
        label={t("counterparties.notes")}
        render={({ field, status }) => (
          <Input.TextArea
            {...field}
            id="counterparty-notes"
            rows={2}
            maxLength={maxLengthOf(shape.notes)}
            status={status}
          />
        )}
      />
    </FormModal>
  );
};
