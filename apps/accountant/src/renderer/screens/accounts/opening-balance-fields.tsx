import type { ApiFailure } from "@hisob/ui";
import type { NumberRules } from "@hisob/ui/numbers";
import { Typography } from "antd";
import type { FieldPathByValue, FieldValues, UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DateField } from "../../components/date-input";
import { MoneyField } from "../../components/money-field";
import { showFailure } from "../../forms";

/** What a form with an opening balance holds for it: the amount as typed ("" for none) and its date. */
export type OpeningValues = { openingAmount: string; openingDate: string };

/**
 * What the account already held when its books moved here, and since when: locked (shown, not
 * changed) once entries depend on it. The account form and the setup's accounts step show the same
 * two fields (`id`: the form's prefix, "account" → `account-opening`, `account-opening-date`).
 */
export const OpeningBalanceFields = <V extends FieldValues & OpeningValues>(props: {
  form: UseFormReturn<V>;
  id: string;
  locked?: boolean;
  currency: string;
  sign: NumberRules["sign"];
}) => {
  const { t } = useTranslation();
  const { form, locked } = props;
  const amount = "openingAmount" as FieldPathByValue<V, string>;
  return (
    <>
      <MoneyField
        control={form.control}
        name={amount}
        id={`${props.id}-opening`}
        label={t("accounts.opening")}
        currency={props.currency}
        sign={props.sign}
        optional
        locked={locked}
        hint={
          locked ? (
            <Typography.Text type="secondary" data-testid="opening-locked">
              {t("accounts.openingLocked")}
            </Typography.Text>
          ) : undefined
        }
      />
      <DateField
        control={form.control}
        name={"openingDate" as FieldPathByValue<V, string>}
        id={`${props.id}-opening-date`}
        label={t("accounts.openingDate")}
        disabled={locked}
        // A date only for a balance to set.
        checked={() => String(form.getValues(amount) ?? "").trim() !== ""}
      />
    </>
  );
};

/** The server's refusal of an opening balance, beside its two fields (its `amount` and `date`). */
export const showOpeningFailure = <V extends FieldValues & OpeningValues>(
  failure: ApiFailure,
  form: Pick<UseFormReturn<V>, "setError" | "setFocus">,
  setFormError: (message: string | null) => void,
) =>
  showFailure(failure, form, ["openingAmount", "openingDate"], setFormError, (errors) =>
    Object.fromEntries(
      Object.entries(errors).map(([path, text]) => [
        path === "amount" ? "openingAmount" : path === "date" ? "openingDate" : path,
        text,
      ]),
    ),
  );
