import { type TMoneyAccountDto, ZCreateMoneyAccountInput } from "@hisob/finance/schema";
import { describeFailure, QueryState, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { amountRules, readNumber } from "@hisob/ui/numbers";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Button, Card, Input, List, Space, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  invalidateMoney,
  useAllAccounts,
  useApi,
  useCurrencies,
  useMinorUnits,
  useMoney,
} from "../../api-context";
import { FormField } from "../../components/field";
import { CurrencyField } from "../../components/money-field";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";
import { OpeningBalanceFields, showOpeningFailure } from "../accounts/opening-balance-fields";
import { StepButtons } from "./step-buttons";

type Values = { name: string; currency: string; openingAmount: string; openingDate: string };
const FIELDS = ["name", "currency"] as const;
const NAME_MAX = maxLengthOf(ZCreateMoneyAccountInput.shape.name);

/** Step 3: the money accounts the organization holds, each with what it holds today. */
export const AccountsStep = (props: {
  base: string | null;
  onBack: () => void;
  onDone: () => void;
  onLater: () => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const accounts = useAllAccounts();
  const count = accounts.data?.items.length ?? 0;
  return (
    <Space orientation="vertical" style={{ width: "100%", maxWidth: 720 }}>
      <Typography.Paragraph>{t("setup.accountsIntro")}</Typography.Paragraph>
      <QueryState
        query={accounts}
        rows={3}
        isEmpty={(page) => page.items.length === 0}
        empty={t("setup.noAccountsYet")}
      >
        {(page) => (
          <List
            bordered
            size="small"
            data-testid="setup-accounts"
            dataSource={page.items}
            renderItem={(account) => (
              <List.Item extra={money(account.balance, account.currency)}>{account.name}</List.Item>
            )}
          />
        )}
      </QueryState>
      <NewAccountForm base={props.base} />
      <StepButtons
        onBack={props.onBack}
        onNext={props.onDone}
        onLater={props.onLater}
        nextDisabled={count === 0}
      />
    </Space>
  );
};

const NewAccountForm = ({ base }: { base: string | null }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const currencies = useCurrencies();
  const minorUnits = useMinorUnits();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  /** Created, but its opening balance was refused: a retry only sets the balance (no second account). */
  const [created, setCreated] = useState<TMoneyAccountDto | null>(null);
  const firstCurrency =
    currencies.data?.find((c) => c.code === base)?.code ?? currencies.data?.[0]?.code ?? "";
  const empty = (): Values => ({
    name: "",
    currency: firstCurrency,
    openingAmount: "",
    openingDate: todayIso(),
  });
  const form = useForm<Values>({ mode: "onTouched", defaultValues: empty() });
  const currency = form.watch("currency") || firstCurrency;
  const digits = minorUnits(currency);
  const rules = amountRules(currency || undefined, digits, "nonNegative");
  const required = (path: string) =>
    (path === "name" || path === "currency") && !form.getValues(path as keyof Values)
      ? t("form.required")
      : undefined;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    let account = created;
    if (!account) {
      const checked = checkWith(
        ZCreateMoneyAccountInput,
        { name: values.name, currency: values.currency || currency },
        required,
      );
      if (!checked.ok) {
        const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
        if (rest.length) setFormError(rest.join(" "));
        return;
      }
      try {
        account = await api.accounts.create.mutate(checked.input, { context: { idempotencyKey: once.key } });
      } catch (error) {
        showFailure(describeFailure(error, t), form, FIELDS, setFormError);
        return;
      }
      setCreated(account);
    }
    const reading = readNumber(values.openingAmount, locale, rules);
    if (reading.ok && reading.scaled !== 0n) {
      try {
        // A PUT that sets the balance: sent again after a lost answer, it sets the same balance.
        await api.accounts.setOpeningBalance.mutate({
          id: account.id,
          data: { amount: reading.scaled.toString(), date: values.openingDate, comment: "" },
        });
      } catch (error) {
        await invalidateMoney(queryClient);
        showOpeningFailure(describeFailure(error, t), form, setFormError);
        return;
      }
    }
    await invalidateMoney(queryClient);
    void message.success(t("setup.accountAdded"));
    setCreated(null);
    form.reset({ ...empty(), currency: values.currency || currency });
    // Added: the next account is a new intent.
    once.renew();
  });

  return (
    <Card size="small" title={t("setup.addAccount")}>
      <form
        id="setup-account-form"
        noValidate
        aria-label={t("setup.addAccount")}
        onSubmit={(event) => {
          event.preventDefault();
          void once.run(submit);
        }}
      >
        {formError ? (
          <Alert
            type="error"
            showIcon
            title={formError}
            style={{ marginBottom: 16 }}
            data-testid="form-error"
          />
        ) : null}
        <FormField
          control={form.control}
          name="name"
          id="setup-account-name"
          label={t("accounts.name")}
          render={({ field, status }) => (
            <Input
              {...field}
              id="setup-account-name"
              maxLength={NAME_MAX}
              status={status}
              disabled={!!created}
            />
          )}
        />
        <CurrencyField
          control={form.control}
          name="currency"
          id="setup-account-currency"
          label={t("accounts.currency")}
          disabled={!!created}
          fallback={currency}
        />
        <OpeningBalanceFields form={form} id="setup-account" currency={currency} sign="nonNegative" />
        <Button htmlType="submit" loading={once.busy} data-testid="setup-add-account">
          {t("setup.addAccount")}
        </Button>
      </form>
    </Card>
  );
};
