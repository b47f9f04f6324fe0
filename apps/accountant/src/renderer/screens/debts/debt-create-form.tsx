import { DEBT_KINDS, ZCreateDebtInput } from "@hisob/finance/schema";
import { describeFailure, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { amountRules, readNumber } from "@hisob/ui/numbers";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input, Segmented } from "antd";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { KEYS, useApi, useCurrencies, useMinorUnits } from "../../api-context";
import { DateField } from "../../components/date-input";
import { FormField } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { CurrencyField, MoneyField } from "../../components/money-field";
import { CounterpartyPicker } from "../../components/pickers";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";

type Values = {
  kind: (typeof DEBT_KINDS)[number];
  counterpartyId: string | null;
  amount: string;
  currency: string;
  dueDate: string;
  description: string;
};
const FIELDS = ["kind", "counterpartyId", "amount", "currency", "dueDate", "description"] as const;
const DESCRIPTION_MAX = maxLengthOf(ZCreateDebtInput.shape.description);

/** A new debt: owed to us or by us, to a counterparty, in one of the organization's currencies. */
export const DebtCreateForm = (props: {
  counterpartyId?: string;
  onClose: () => void;
  onCreated: (id: string) => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const currencies = useCurrencies();
  const minorUnits = useMinorUnits();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: {
      kind: "receivable",
      counterpartyId: props.counterpartyId ?? null,
      amount: "",
      currency: currencies.data?.[0]?.code ?? "",
      dueDate: "",
      description: "",
    },
  });
  // The organization's first currency once its list arrives (the form may open before it does).
  const firstCurrency = currencies.data?.[0]?.code;
  useEffect(() => {
    if (firstCurrency && !form.getValues("currency")) form.setValue("currency", firstCurrency);
  }, [firstCurrency, form]);
  const currency = form.watch("currency") || undefined;
  const digits = minorUnits(currency ?? "");
  const create = useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      api.debts.create.mutate(input as Parameters<typeof api.debts.create.mutate>[0], {
        context: { idempotencyKey: once.key },
      }),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const reading = readNumber(values.amount, locale, amountRules(currency, digits));
    const input = {
      ...values,
      amount: reading.ok ? reading.scaled.toString() : values.amount,
      dueDate: values.dueDate || null,
    };
    const messageFor = (path: string) => {
      if (path === "counterpartyId") return t("debts.chooseCounterparty");
      if (path === "currency") return t("debts.chooseCurrency");
      return undefined;
    };
    const checked = checkWith(ZCreateDebtInput, input, messageFor);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      const debt = await create.mutateAsync(input);
      await queryClient.invalidateQueries({ queryKey: KEYS.debts });
      void message.success(t("debts.created"));
      props.onCreated(debt.id);
    } catch (error) {
      // The form stays open with what was typed; the server's message is in the user's language.
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
    }
  });

  return (
    <FormModal
      id="debt-form"
      title={t("debts.new")}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={props.onClose}
    >
      <FormField
        control={form.control}
        name="kind"
        id="debt-kind"
        label={t("debts.kind")}
        render={({ field }) => (
          <Segmented
            id="debt-kind"
            value={field.value}
            onChange={field.onChange}
            options={DEBT_KINDS.map((kind) => ({ value: kind, label: t(`debts.kinds.${kind}`) }))}
          />
        )}
      />
      <FormField
        control={form.control}
        name="counterpartyId"
        id="debt-counterparty"
        label={t("debts.counterparty")}
        render={({ bound }) => <CounterpartyPicker {...bound} />}
      />
      <CurrencyField control={form.control} name="currency" id="debt-currency" label={t("debts.currency")} />
      <MoneyField
        control={form.control}
        name="amount"
        id="debt-amount"
        label={t("debts.amount")}
        currency={currency}
      />
      <DateField control={form.control} name="dueDate" id="debt-due" label={t("debts.dueDate")} optional />
      <FormField
        control={form.control}
        name="description"
        id="debt-description"
        label={t("debts.description")}
        render={({ field, status }) => (
          <Input {...field} id="debt-description" maxLength={DESCRIPTION_MAX} status={status} />
        )}
      />
    </FormModal>
  );
};
