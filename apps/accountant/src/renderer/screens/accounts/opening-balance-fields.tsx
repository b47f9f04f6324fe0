import { AmountInput, type amountRules, useNumberRule } from "@hisob/ui/numbers";
import { Input, Typography } from "antd";
import type { UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DateInput, useDateRule } from "../../components/date-input";
import { FormField } from "../../components/field";

import type { AccountValues } from "./account-values";

/**
 * What the account already held when its books moved here, and since when: locked (shown, not
 * changed) once entries depend on it.
 */
export const OpeningBalanceFields = (props: {
  form: UseFormReturn<AccountValues>;
  locked: boolean;
  currency: string;
  digits: number;
  rules: ReturnType<typeof amountRules>;
}) => {
  const { t } = useTranslation();
  const numberRule = useNumberRule();
  const dateRule = useDateRule();
  const { form, locked, currency, digits } = props;
  const openingRules = props.rules;
  return (
    <div style={{ marginTop: 16 }}>
      <FormField
        control={form.control}
        name="openingAmount"
        id="account-opening"
        label={t("accounts.opening")}
        hint={
          locked ? (
            <Typography.Text type="secondary" data-testid="opening-locked">
              {t("accounts.openingLocked")}
            </Typography.Text>
          ) : undefined
        }
        rules={{
          validate: (text: string) =>
            locked || numberRule(openingRules, { kind: "amount", currency }, { optional: true })(text),
        }}
        render={({ field, status }) =>
          locked ? (
            <Input id="account-opening" value={field.value} disabled />
          ) : (
            <AmountInput
              {...field}
              id="account-opening"
              currency={currency || undefined}
              minorUnits={digits}
              sign={openingRules.sign}
              status={status}
            />
          )
        }
      />
      <FormField
        control={form.control}
        name="openingDate"
        id="account-opening-date"
        label={t("accounts.openingDate")}
        rules={{
          // A date only for a balance to set.
          validate: (value: string) => locked || !form.getValues("openingAmount").trim() || dateRule()(value),
        }}
        render={({ bound }) => <DateInput {...bound} invalid="report" disabled={locked} />}
      />
    </div>
  );
};
