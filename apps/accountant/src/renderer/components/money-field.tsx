import { currencyOption, useLocale } from "@hisob/ui";
import { AmountInput, amountRules, type NumberRules, useNumberRule } from "@hisob/ui/numbers";
import { Input, Select } from "antd";
import type { ReactNode } from "react";
import type { Control, FieldPathByValue, FieldValues } from "react-hook-form";
import { useCurrencies, useMinorUnits } from "../api-context";
import { FormField } from "./field";

/*
 * The form kit's money fields (docs/decisions/0107-a-codebase-a-newcomer-can-carry-on.md): every form's
 * amount is one MoneyField and every form's currency one CurrencyField, as every form's date is one
 * DateField (date-input.tsx). A form keeps only what is its own: which currency, which sign, whether
 * the amount may be left empty.
 */

/**
 * An amount in a currency: typed as the language writes it, with as many digits after the separator
 * as the currency has (read from the organization's currencies), its refusal beside the field.
 * `locked`: shown, not changed, and not checked (an opening balance that entries depend on).
 */
export const MoneyField = <V extends FieldValues>(props: {
  control: Control<V>;
  name: FieldPathByValue<V, string>;
  id: string;
  label: string;
  /** The currency's code; empty or undefined while none is chosen. */
  currency: string | undefined;
  /** Which amounts are accepted (amountRules' sign): positive unless said. */
  sign?: NumberRules["sign"];
  /** An empty field is accepted (the form reads it as none or zero). */
  optional?: boolean;
  autoFocus?: boolean;
  hint?: ReactNode;
  locked?: boolean;
  /** Whether the amount matters now (the received amount only when the exchange is entered by it). */
  checked?: () => boolean;
}) => {
  const numberRule = useNumberRule();
  const minorUnits = useMinorUnits();
  const currency = props.currency || undefined;
  const digits = minorUnits(currency ?? "");
  const rules = amountRules(currency, digits, props.sign);
  const check = numberRule(rules, { kind: "amount", currency: currency ?? "" }, { optional: props.optional });
  return (
    <FormField
      control={props.control}
      name={props.name}
      id={props.id}
      label={props.label}
      hint={props.hint}
      rules={{
        validate: (text: string) => props.locked || (props.checked && !props.checked()) || check(text),
      }}
      render={({ field, status }) =>
        props.locked ? (
          <Input id={props.id} value={String(field.value ?? "")} disabled />
        ) : (
          <AmountInput
            {...field}
            id={props.id}
            autoFocus={props.autoFocus}
            currency={currency}
            minorUnits={digits}
            sign={rules.sign}
            status={status}
          />
        )
      }
    />
  );
};

/**
 * One of the organization's currencies: its code and its name in the reader's language, searched by
 * either. `fallback`: shown while the form's value is still empty (the base currency, once the list
 * has arrived).
 */
export const CurrencyField = <V extends FieldValues>(props: {
  control: Control<V>;
  name: FieldPathByValue<V, string>;
  id: string;
  label: string;
  disabled?: boolean;
  fallback?: string;
}) => {
  const locale = useLocale();
  const currencies = useCurrencies();
  return (
    <FormField
      control={props.control}
      name={props.name}
      id={props.id}
      label={props.label}
      render={({ field, status }) => (
        <Select
          {...field}
          value={field.value || props.fallback || undefined}
          id={props.id}
          disabled={props.disabled}
          loading={currencies.isPending}
          status={status}
          style={{ width: "100%" }}
          showSearch
          optionFilterProp="label"
          options={(currencies.data ?? []).map((c) => currencyOption(c, locale))}
        />
      )}
    />
  );
};
