import { type TDocumentDto, ZCreateDocumentInput, ZUpdateDocumentInput } from "@hisob/finance/schema";
import { describeFailure, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { amountRules, amountText, readNumber } from "@hisob/ui/numbers";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input, Select } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { invalidateMoney, useAllAccounts, useApi, useMinorUnits } from "../../api-context";
import { DateField } from "../../components/date-input";
import { FormField } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { MoneyField } from "../../components/money-field";
import { CategoryPicker, CounterpartyPicker } from "../../components/pickers";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";
import type { DocumentKind } from "./document-kind";

type Values = {
  accountId: string;
  amount: string;
  date: string;
  categoryId: string | null;
  counterpartyId: string | null;
  comment: string;
};
const FIELDS = ["accountId", "amount", "date", "categoryId", "counterpartyId", "comment"] as const;
const COMMENT_MAX = maxLengthOf(ZCreateDocumentInput.shape.comment);

/** A new payment or expense, or one to change. */
export const DocumentForm = (props: {
  kind: DocumentKind;
  document: TDocumentDto | null;
  onClose: () => void;
}) => {
  const { kind, document } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useAllAccounts();
  const minorUnits = useMinorUnits();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    // A field's own check (what was typed is a number, a date) speaks once the field is left.
    mode: "onTouched",
    defaultValues: {
      accountId: document?.accountId ?? "",
      // As the language writes it ("9 750 000,50" in Russian), the way it is typed back.
      amount: document ? amountText(document.amount, minorUnits(document.currency), locale) : "",
      date: document?.date ?? todayIso(),
      categoryId: document?.categoryId ?? null,
      counterpartyId: document?.counterpartyId ?? null,
      comment: document?.comment ?? "",
    },
  });
  const currencyOf = (accountId: string) => accounts.data?.items.find((a) => a.id === accountId)?.currency;
  const currency = currencyOf(form.watch("accountId"));
  const digits = minorUnits(currency ?? "");
  const save = useMutation({
    mutationFn: (input: Values & { currency?: string }) =>
      document
        ? api[kind].update.mutate({ id: document.id, data: input })
        : api[kind].create.mutate(input, { context: { idempotencyKey: once.key } }),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const reading = readNumber(values.amount, locale, amountRules(currency, digits));
    // The field's rule refused anything else; the currency goes along, so the server checks that the
    // amount was read with the account's own minor units.
    const input = {
      ...values,
      amount: reading.ok ? reading.scaled.toString() : values.amount,
      ...(currency ? { currency } : {}),
    };
    const messageFor = (path: string) => {
      if (path === "accountId") return t("form.chooseAccount");
      if (path === "date" && !values.date) return t("form.required");
      return undefined;
    };
    const checked = checkWith(document ? ZUpdateDocumentInput : ZCreateDocumentInput, input, messageFor);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await save.mutateAsync(input);
      await invalidateMoney(queryClient);
      void message.success(t(document ? "documents.saved" : "documents.created"));
      props.onClose();
    } catch (error) {
      // The form stays open with what was typed; the server's message is in the user's language.
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
    }
  });

  const title =
    kind === "payments"
      ? t(document ? "documents.editPayment" : "documents.newPayment")
      : t(document ? "documents.editExpense" : "documents.newExpense");
  return (
    <FormModal
      id="document-form"
      title={title}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={props.onClose}
    >
      <FormField
        control={form.control}
        name="accountId"
        id="document-account"
        label={t("documents.account")}
        render={({ field, status }) => (
          <Select
            {...field}
            id="document-account"
            autoFocus
            showSearch
            optionFilterProp="label"
            status={status}
            style={{ width: "100%" }}
            loading={accounts.isPending}
            options={(accounts.data?.items ?? []).map((a) => ({
              value: a.id,
              label: `${a.name} (${a.currency})`,
            }))}
          />
        )}
      />
      <MoneyField
        control={form.control}
        name="amount"
        id="document-amount"
        label={t("documents.amount")}
        currency={currency}
      />
      <DateField control={form.control} name="date" id="document-date" label={t("documents.date")} />
      <FormField
        control={form.control}
        name="categoryId"
        id="document-category"
        label={t("documents.category")}
        render={({ bound }) => <CategoryPicker kind={kind} {...bound} />}
      />
      <FormField
        control={form.control}
        name="counterpartyId"
        id="document-counterparty"
        label={t("documents.counterparty")}
        render={({ bound }) => <CounterpartyPicker {...bound} />}
      />
      <FormField
        control={form.control}
        name="comment"
        id="document-comment"
        label={t("documents.comment")}
        render={({ field, status }) => (
          <Input {...field} id="document-comment" maxLength={COMMENT_MAX} status={status} />
        )}
      />
    </FormModal>
  );
};
