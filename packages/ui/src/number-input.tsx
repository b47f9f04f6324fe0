import { Input, type InputRef, Space, Typography } from "antd";
import type { ReactNode, Ref } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "./i18n";
import { formatMoney } from "./money";
import {
  amountRules,
  formatDecimal,
  type NumberReading,
  type NumberRules,
  type NumberSubject,
  numberMessage,
  readNumber,
} from "./numbers";

/*
 * The one input for amounts, rates and quantities. The text stays what the person typed; under it,
 * always, the value as it will be posted in the language's format ("Posts as 12 650,00 UZS"), or —
 * while the text is not a number of this field — how it was read and what to type instead. A form
 * refuses it through `numberRule` (the same reading, the same words) and posts `reading.scaled`.
 */

type Props = {
  id: string;
  /** The form library's handle (it focuses the field when the server names it). */
  ref?: Ref<InputRef>;
  name?: string;
  value: string;
  onChange: (text: string) => void;
  onBlur?: () => void;
  /** "error" once the form has refused the value: the message then stands in the field's error line. */
  status?: "" | "error";
  rules: NumberRules;
  subject: NumberSubject;
  /** The value as it will be posted, for a reading that is a number. */
  preview: (reading: Extract<NumberReading, { ok: true }>) => ReactNode;
  suffix?: ReactNode;
  /** A control joined to the input's start (a rate's "1 USD =" base); the preview stays below both. */
  before?: ReactNode;
  autoFocus?: boolean;
  "aria-label"?: string;
};

export const NumberInput = (props: Props) => {
  const locale = useLocale();
  const { t } = useTranslation();
  const reading = readNumber(props.value ?? "", locale, props.rules);
  const previewId = `${props.id}-preview`;
  let line: ReactNode;
  if (reading.ok) {
    line = <Typography.Text type="secondary">{props.preview(reading)}</Typography.Text>;
  } else if (reading.problem.code === "empty") {
    line = (
      <Typography.Text type="secondary">
        {t("ui:number.formatHint", { example: formatDecimal("1234567.89", locale) })}
      </Typography.Text>
    );
  } else if (props.status === "error") {
    // The field's error line, just below, says it: once is enough.
    line = null;
  } else {
    line = (
      // Refused as typed (the error colour, which the theme keeps readable), before the form says so.
      <Typography.Text type="danger">
        {numberMessage(reading.problem, props.value, locale, t, props.subject)}
      </Typography.Text>
    );
  }
  const input = (
    <Input
      ref={props.ref}
      id={props.id}
      name={props.name}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      onBlur={props.onBlur}
      status={props.status}
      suffix={props.suffix}
      autoFocus={props.autoFocus}
      aria-label={props["aria-label"]}
      aria-describedby={previewId}
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      // No number has more characters than this; a paste of a page does not reach the parser.
      maxLength={64}
    />
  );
  return (
    <>
      {props.before ? (
        <Space.Compact style={{ width: "100%" }}>
          {props.before}
          {input}
        </Space.Compact>
      ) : (
        input
      )}
      <div
        id={previewId}
        data-testid={previewId}
        aria-live="polite"
        style={line === null ? { display: "none" } : { marginTop: 4, minHeight: 22 }}
      >
        {line}
      </div>
    </>
  );
};

/** An amount of `currency` (with its minor units), previewed as the money it posts. */
export const AmountInput = ({
  currency,
  minorUnits,
  sign = "positive",
  ...props
}: Omit<Props, "rules" | "subject" | "preview"> & {
  currency: string | undefined;
  minorUnits: number;
  sign?: NumberRules["sign"];
}) => {
  const locale = useLocale();
  const { t } = useTranslation();
  return (
    <NumberInput
      {...props}
      suffix={props.suffix ?? currency ?? ""}
      rules={amountRules(currency, minorUnits, sign)}
      subject={{ kind: "amount", currency: currency ?? "" }}
      preview={(reading) =>
        t("ui:number.postsAs", {
          value: currency
            ? formatMoney(reading.scaled, currency, minorUnits, locale)
            : formatDecimal(reading.decimal, locale, { fractionDigits: minorUnits }),
        })
      }
    />
  );
};

/**
 * The form's check of a number field (react-hook-form `validate`): the reading's message, or true.
 * `optional`: an empty field passes.
 */
export const useNumberRule = () => {
  const locale = useLocale();
  const { t } = useTranslation();
  return (rules: NumberRules, subject: NumberSubject, options: { optional?: boolean } = {}) =>
    (text: string): string | true => {
      const reading = readNumber(text ?? "", locale, rules);
      if (reading.ok) return true;
      if (reading.problem.code === "empty" && options.optional) return true;
      return numberMessage(reading.problem, text ?? "", locale, t, subject);
    };
};
