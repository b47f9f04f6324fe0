import { type TDebtDetailDto, ZSettleDebtInput } from "@hisob/finance/schema";
import { describeFailure, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { amountRules, amountText, readNumber } from "@hisob/ui/numbers";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input, Select, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { invalidateMoney, useAllAccounts, useApi, useMinorUnits, useMoney } from "../../api-context";
import { DateField } from "../../components/date-input";
import { FormField } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { MoneyField } from "../../components/money-field";
import { CategoryPicker } from "../../components/pickers";
import { checkWith, onReasonField, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";

type Values = { amount: string; accountId: string; date: string; categoryId: string | null; comment: string };
const FIELDS = ["amount", "accountId", "date", "categoryId", "comment"] as const;
const COMMENT_MAX = maxLengthOf(ZSettleDebtInput.shape.comment);
/** The refusals about one field that the server gives as a reason only. */
const REASON_FIELDS = { "finance.debt_over_settlement": "amount" };

/**
 * Settles all or part of a debt from (we owe) or into (owed to us) an account in its currency; the
 * amount starts as everything outstanding, written as the language writes it.
 */
export const DebtSettleForm = (props: { debt: TDebtDetailDto; onClose: () => void }) => {
  const { debt } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useAllAccounts();
  const digits = useMinorUnits()(debt.currency);
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const inCurrency = (accounts.data?.items ?? []).filter((account) => account.currency === debt.currency);
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: {
      amount: amountText(debt.outstanding, digits, locale),
      accountId: "",
      date: todayIso(),
      categoryId: null,
      comment: "",
    },
  });
  const settle = useMutation({
    mutationFn: (data: Record<string, unknown>) =>
      api.debts.settle.mutate(
        { id: debt.id, data: data as Parameters<typeof api.debts.settle.mutate>[0]["data"] },
        {
          context: { idempotencyKey: once.key },
        },
      ),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const reading = readNumber(values.amount, locale, amountRules(debt.currency, digits));
    const input = { ...values, amount: reading.ok ? reading.scaled.toString() : values.amount };
    const messageFor = (path: string) =>
      path === "accountId" ? t("debts.chooseAccount", { currency: debt.currency }) : undefined;
    const checked = checkWith(ZSettleDebtInput, input, messageFor);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await settle.mutateAsync(input);
      await invalidateMoney(queryClient);
      void message.success(t("debts.settledMessage"));
      props.onClose();
    } catch (error) {
      showFailure(onReasonField(describeFailure(error, t), REASON_FIELDS), form, FIELDS, setFormError);
    }
  });

  return (
    <FormModal
      id="settle-form"
      title={t("debts.settleTitle")}
      open
      busy={once.busy}
      error={formError}
      submitLabel={t("debts.settle")}
      onSubmit={() => void once.run(submit)}
      onCancel={props.onClose}
    >
      <Typography.Paragraph data-testid="settle-outstanding">
        {t("debts.settleHint", { amount: money(debt.outstanding, debt.currency) })}
      </Typography.Paragraph>
      <MoneyField
        control={form.control}
        name="amount"
        id="settle-amount"
        label={t("debts.amount")}
        currency={debt.currency}
        autoFocus
      />
      <FormField
        control={form.control}
        name="accountId"
        id="settle-account"
        label={t("debts.account")}
        render={({ field, status }) => (
          <Select
            {...field}
            id="settle-account"
            showSearch
            optionFilterProp="label"
            status={status}
            style={{ width: "100%" }}
            loading={accounts.isPending}
            placeholder={t("debts.chooseAccount", { currency: debt.currency })}
            options={inCurrency.map((a) => ({ value: a.id, label: `${a.name} (${a.currency})` }))}
          />
        )}
      />
      <DateField control={form.control} name="date" id="settle-date" label={t("debts.date")} />
      <FormField
        control={form.control}
        name="categoryId"
        id="settle-category"
        label={t("debts.category")}
        render={({ bound }) => (
          <CategoryPicker kind={debt.kind === "receivable" ? "payments" : "expenses"} {...bound} />
        )}
      />
      <FormField
        control={form.control}
        name="comment"
        id="settle-comment"
        label={t("debts.comment")}
        render={({ field, status }) => (
          <Input {...field} id="settle-comment" maxLength={COMMENT_MAX} status={status} />
        )}
      />
    </FormModal>
  );
};
