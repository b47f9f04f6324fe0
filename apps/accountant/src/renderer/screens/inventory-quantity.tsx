import type { Locale } from "@hisob/ui";
import { formatDecimal, NumberInput, type NumberRules } from "@hisob/ui/numbers";
import type { InputRef } from "antd";
import type { Ref } from "react";
import { useTranslation } from "react-i18next";

/** Every inventory view (the list, an item's movements): a movement refreshes them all. */
export const INVENTORY_KEY = ["inventory"] as const;

/** A quantity as the server keeps it: NUMERIC(20, 6), so 14 digits before the point and 6 after. */
export const quantityRules = (sign: NumberRules["sign"]): NumberRules => ({
  fractionDigits: 6,
  maxWholeDigits: 14,
  sign,
});

/** "1234.5" as the language writes it ("1,234.5" / "1 234,5"). */
export const showQuantity = (quantity: string, locale: Locale) => formatDecimal(quantity, locale);

/** A quantity typed as the language writes numbers, previewed with its unit as it will be recorded. */
export const QuantityInput = (props: {
  id: string;
  ref?: Ref<InputRef>;
  value: string;
  onChange: (text: string) => void;
  onBlur?: () => void;
  status?: "" | "error";
  unit: string;
  sign: NumberRules["sign"];
  locale: Locale;
}) => {
  const { t } = useTranslation();
  return (
    <NumberInput
      id={props.id}
      ref={props.ref}
      value={props.value}
      onChange={props.onChange}
      onBlur={props.onBlur}
      status={props.status}
      suffix={props.unit}
      rules={quantityRules(props.sign)}
      subject={{ kind: "amount", currency: props.unit }}
      preview={(reading) =>
        t("inventory.quantityAs", { value: formatDecimal(reading.decimal, props.locale), unit: props.unit })
      }
    />
  );
};
