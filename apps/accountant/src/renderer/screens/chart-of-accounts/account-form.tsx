import {
  GL_ACCOUNT_TYPES,
  type TGlAccountDto,
  ZCreateGlAccountInput,
  ZUpdateGlAccountInput,
} from "@hisob/finance/schema";
import { describeFailure } from "@hisob/ui";
import { useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input, Select } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi, useCurrencies } from "../../api-context";
import { Field } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { checkWith, showFailure, showFieldErrors } from "../../forms";
import { GL_ACCOUNTS_KEY } from "./queries";

/** A new account (at the top or under a parent), or a change of an account's code, names or currency. */
export type AccountEdit =
  | { mode: "create"; parent: (TGlAccountDto & { name: string }) | null }
  | { mode: "edit"; account: TGlAccountDto };

type Values = {
  code: string;
  nameEn: string;
  nameRu: string;
  nameUz: string;
  type: TGlAccountDto["type"];
  currency: string | null;
};
const FIELDS = ["code", "nameEn", "nameRu", "nameUz", "type", "currency"] as const;
const TEXT_FIELDS = ["code", "nameEn", "nameRu", "nameUz"] as const;

/** The server's rules are its schemas': checked here first, its refusals shown at their fields. */
export const AccountForm = (props: { edit: AccountEdit; onClose: () => void }) => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const currencies = useCurrencies();
  const { edit } = props;
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const account = edit.mode === "edit" ? edit.account : null;
  const parent = edit.mode === "create" ? edit.parent : null;
  const form = useForm<Values>({
    defaultValues: {
      code: account?.code ?? parent?.code ?? "",
      nameEn: account?.nameEn ?? "",
      nameRu: account?.nameRu ?? "",
      nameUz: account?.nameUz ?? "",
      type: account?.type ?? parent?.type ?? "asset",
      currency: account?.currency ?? parent?.currency ?? null,
    },
  });
  const required = (path: string) =>
    (TEXT_FIELDS as readonly string[]).includes(path) && !form.getValues(path as keyof Values)
      ? t("form.required")
      : undefined;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const checked = account
      ? checkWith(
          ZUpdateGlAccountInput,
          {
            code: values.code,
            nameEn: values.nameEn,
            nameRu: values.nameRu,
            nameUz: values.nameUz,
            currency: values.currency,
          },
          required,
        )
      : checkWith(ZCreateGlAccountInput, { ...values, parentId: parent?.id ?? null }, required);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    setBusy(true);
    try {
      if (account) {
        await api.generalLedger.updateAccount.mutate({
          id: account.id,
          data: ZUpdateGlAccountInput.parse(checked.input),
        });
      } else {
        await api.generalLedger.createAccount.mutate(ZCreateGlAccountInput.parse(checked.input));
      }
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
      return;
    } finally {
      setBusy(false);
    }
    await queryClient.invalidateQueries({ queryKey: GL_ACCOUNTS_KEY });
    void message.success(t("chart.saved"));
    props.onClose();
  });

  const errors = form.formState.errors;
  const title = account
    ? t("chart.editTitle", { code: account.code })
    : parent
      ? t("chart.createUnderTitle", { code: parent.code, name: parent.name })
      : t("chart.createTitle");
  const text = (name: (typeof TEXT_FIELDS)[number], label: string, maxLength: number, autoFocus = false) => (
    <Field id={`gl-${name}`} label={label} error={errors[name]?.message}>
      <Controller
        name={name}
        control={form.control}
        render={({ field }) => (
          <Input
            {...field}
            id={`gl-${name}`}
            autoFocus={autoFocus}
            aria-invalid={!!errors[name]}
            maxLength={maxLength}
          />
        )}
      />
    </Field>
  );
  return (
    <FormModal
      id="gl-account-form"
      title={title}
      open
      busy={busy}
      error={formError}
      onSubmit={() => void submit()}
      onCancel={props.onClose}
    >
      {text("code", t("chart.code"), 20, true)}
      {text("nameEn", t("chart.nameEn"), 200)}
      {text("nameRu", t("chart.nameRu"), 200)}
      {text("nameUz", t("chart.nameUz"), 200)}
      {account ? null : (
        <Field
          id="gl-type"
          label={t("chart.type")}
          error={errors.type?.message}
          hint={parent ? t("chart.parentType") : undefined}
        >
          <Controller
            name="type"
            control={form.control}
            render={({ field }) => (
              <Select
                id="gl-type"
                aria-label={t("chart.type")}
                value={field.value}
                onChange={field.onChange}
                disabled={parent !== null}
                options={GL_ACCOUNT_TYPES.map((type) => ({ value: type, label: t(`chart.types.${type}`) }))}
                style={{ width: "100%" }}
              />
            )}
          />
        </Field>
      )}
      <Field id="gl-currency" label={t("chart.currency")} error={errors.currency?.message}>
        <Controller
          name="currency"
          control={form.control}
          render={({ field }) => (
            <Select
              id="gl-currency"
              aria-label={t("chart.currency")}
              value={field.value ?? undefined}
              onChange={(value) => field.onChange(value ?? null)}
              allowClear
              placeholder={t("chart.anyCurrency")}
              options={(currencies.data ?? []).map((currency) => ({
                value: currency.code,
                label: currency.code,
              }))}
              style={{ width: "100%" }}
            />
          )}
        />
      </Field>
    </FormModal>
  );
};
