import {
  type TMoneyAccountDto,
  type TOpeningBalanceDto,
  ZCreateMoneyAccountInput,
  ZUpdateMoneyAccountInput,
} from "@hisob/finance/schema";
import { describeFailure, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { amountRules, amountText, readNumber } from "@hisob/ui/numbers";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Checkbox, Input } from "antd";
import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { invalidateMoney, KEYS, useApi, useMinorUnits } from "../../api-context";
import { FormField } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { CurrencyField } from "../../components/money-field";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";

import type { AccountValues } from "./account-values";
import { OpeningBalanceFields, showOpeningFailure } from "./opening-balance-fields";

const FIELDS = ["name", "number", "currency", "allowOverdraft", "description"] as const;
const MAX_LENGTH = {
  name: maxLengthOf(ZCreateMoneyAccountInput.shape.name),
  number: maxLengthOf(ZCreateMoneyAccountInput.shape.number),
  description: maxLengthOf(ZCreateMoneyAccountInput.shape.description),
};

/** The account's opening balance (null: none), loaded before its form opens. */
const useOpening = (account: TMoneyAccountDto | null) => {
  const api = useApi();
  const { t } = useTranslation();
  return useQuery({
    queryKey: [...KEYS.accounts, "opening", account?.id],
    enabled: account !== null,
    queryFn: async (): Promise<TOpeningBalanceDto | null> => {
      if (!account) return null;
      try {
        return await api.accounts.openingBalance.query({ id: account.id });
      } catch (error) {
        if (describeFailure(error, t).code === "NOT_FOUND") return null;
        throw error;
      }
    },
  });
};

/** A new account, or one to change, with its opening balance. */
export const AccountForm = ({
  account,
  onClose,
}: {
  account: TMoneyAccountDto | null;
  onClose: () => void;
}) => {
  const opening = useOpening(account);
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const failed = opening.isError;
  useEffect(() => {
    if (!failed) return;
    void message.error(describeFailure(opening.error, t).message);
    onClose();
  }, [failed, opening.error, message, t, onClose]);
  // The dialog opens once the opening balance is known (a moment; none to load for a new account).
  if (account && !opening.isSuccess) return null;
  return <AccountFormFields account={account} opening={opening.data ?? null} onClose={onClose} />;
};

const AccountFormFields = ({
  account,
  opening,
  onClose,
}: {
  account: TMoneyAccountDto | null;
  opening: TOpeningBalanceDto | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const minorUnits = useMinorUnits();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  /** The account once created: a retry after a refused opening balance only sets the balance. */
  const [created, setCreated] = useState<TMoneyAccountDto | null>(null);
  const form = useForm<AccountValues>({
    mode: "onTouched",
    defaultValues: {
      name: account?.name ?? "",
      number: account?.number ?? "",
      currency: account?.currency ?? "",
      allowOverdraft: account?.allowOverdraft ?? false,
      description: account?.description ?? "",
      openingAmount:
        account && opening ? amountText(opening.amount, minorUnits(account.currency), locale) : "",
      openingDate: opening?.date ?? todayIso(),
    },
  });
  const currency = form.watch("currency");
  const digits = minorUnits(currency);
  // An account that may go negative may also start owing.
  const openingRules = amountRules(
    currency || undefined,
    digits,
    form.watch("allowOverdraft") ? "any" : "nonNegative",
  );
  const locked = opening !== null && !opening.isEditable;
  const required = (path: string) =>
    (path === "name" || path === "currency") && !form.getValues(path) ? t("form.required") : undefined;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const { openingAmount, openingDate, ...fields } = values;
    const existing = account ?? created;
    const checked = existing
      ? checkWith(ZUpdateMoneyAccountInput, { ...fields, currency: undefined }, required)
      : checkWith(ZCreateMoneyAccountInput, fields, required);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    let saved: TMoneyAccountDto;
    try {
      if (existing) {
        const { currency: _fixed, ...changes } = fields;
        saved = await api.accounts.update.mutate({ id: existing.id, data: changes });
      } else {
        // One key per dialog: a retry after a lost answer gets the account the first request opened.
        saved = await api.accounts.create.mutate(fields, { context: { idempotencyKey: once.key } });
        setCreated(saved);
      }
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
      return;
    }
    const reading = readNumber(openingAmount, locale, openingRules);
    const wanted = reading.ok ? reading.scaled : 0n;
    const current = opening ? BigInt(opening.amount) : 0n;
    const changed = wanted !== current || (wanted !== 0n && openingDate !== opening?.date);
    if (!locked && changed) {
      try {
        await api.accounts.setOpeningBalance.mutate({
          id: saved.id,
          data: { amount: wanted.toString(), date: openingDate, comment: opening?.comment ?? "" },
        });
      } catch (error) {
        await queryClient.invalidateQueries({ queryKey: KEYS.accounts });
        // The account is saved; the balance's refusal stands next to its fields.
        showOpeningFailure(describeFailure(error, t), form, setFormError);
        return;
      }
    }
    await invalidateMoney(queryClient);
    void message.success(t(account ? "accounts.saved" : "accounts.created"));
    onClose();
  });

  return (
    <FormModal
      id="account-form"
      title={t(account || created ? "accounts.edit" : "accounts.new")}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={onClose}
    >
      <FormField
        control={form.control}
        name="name"
        id="account-name"
        label={t("accounts.name")}
        render={({ field, status }) => (
          <Input {...field} id="account-name" autoFocus maxLength={MAX_LENGTH.name} status={status} />
        )}
      />
      <FormField
        control={form.control}
        name="number"
        id="account-number"
        label={t("accounts.number")}
        render={({ field, status }) => (
          <Input {...field} id="account-number" maxLength={MAX_LENGTH.number} status={status} />
        )}
      />
      <CurrencyField
        control={form.control}
        name="currency"
        id="account-currency"
        label={t("accounts.currency")}
        disabled={account !== null || created !== null}
      />
      <FormField
        control={form.control}
        name="description"
        id="account-description"
        label={t("accounts.description")}
        render={({ field, status }) => (
          <Input {...field} id="account-description" maxLength={MAX_LENGTH.description} status={status} />
        )}
      />
      <Controller
        control={form.control}
        name="allowOverdraft"
        render={({ field }) => (
          <Checkbox
            id="account-overdraft"
            checked={field.value}
            onChange={(event) => field.onChange(event.target.checked)}
          >
            {t("accounts.allowOverdraft")}
          </Checkbox>
        )}
      />
      <div style={{ marginTop: 16 }}>
        <OpeningBalanceFields
          form={form}
          id="account"
          locked={locked}
          currency={currency}
          sign={openingRules.sign}
        />
      </div>
    </FormModal>
  );
};
