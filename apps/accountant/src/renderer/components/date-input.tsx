import { DATE_RANGE, dateMessage, type Locale, readDate, todayIso, useLocale } from "@hisob/ui";
import { DatePicker, Tooltip } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { type KeyboardEvent, useRef, useState } from "react";
import type { Control, FieldPathByValue, FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormField } from "./field";

/*
 * A calendar date typed or picked in the app's language, not the browser's: an en-US browser showing
 * the app in Russian or Uzbek still reads and types dd.mm.yyyy (a native <input type="date"> follows
 * the browser's locale and would show mm/dd/yyyy). The value stays an ISO date string ("2026-03-06").
 * The first format is how the date is shown; the others are also accepted when typed.
 *
 * What was typed is never replaced: a text that is not a real date of the books (readDate) stays in
 * the field, and — leaving the field or pressing Enter — either becomes the form's value, for the
 * form's check to refuse it with the reason beside the field (`invalid: "report"`, forms), or keeps
 * the value as it was and says why next to the field (`invalid: "hold"`, filters).
 */
export const DATE_FORMATS: Record<Locale, string[]> = {
  en: ["MM/DD/YYYY", "M/D/YYYY", "YYYY-MM-DD"],
  ru: ["DD.MM.YYYY", "D.M.YYYY", "DDMMYYYY", "YYYY-MM-DD"],
  uz: ["DD.MM.YYYY", "D.M.YYYY", "DDMMYYYY", "YYYY-MM-DD"],
};

const ISO = "YYYY-MM-DD";

const MIN = dayjs(DATE_RANGE.first, ISO);
const MAX = dayjs(DATE_RANGE.last, ISO);

/** The value as a day when it is an ISO date of the books (else it is a refused text, or nothing). */
const asDay = (value: string): Dayjs | null =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && readDate(value, "en").ok ? dayjs(value, ISO, true) : null;

/** The form's check of a date field (react-hook-form `validate`): the refusal's words, or true. */
export const useDateRule = () => {
  const locale = useLocale();
  const { t } = useTranslation();
  return (options: { optional?: boolean } = {}) =>
    (value: string): string | true => {
      if (!value) return options.optional ? true : t("ui:number.required");
      // The value is an ISO date (read in every language), or the text a person left in the field.
      const reading = readDate(value, locale);
      return reading.ok ? true : dateMessage(reading.problem, value, locale, t, todayIso());
    };
};

export const DateInput = (props: {
  id: string;
  value: string;
  onChange: (isoDate: string) => void;
  onBlur?: () => void;
  status?: "" | "error";
  /** "report" (a form): a text that is not a date becomes the value, for the form to refuse; "hold": see above. */
  invalid?: "report" | "hold";
  /** Shown when empty (a filter: "any date"). */
  placeholder?: string;
  width?: number | string;
  allowClear?: boolean;
  disabled?: boolean;
  "aria-label"?: string;
}) => {
  const locale = useLocale();
  const { t } = useTranslation();
  const formats = DATE_FORMATS[locale];
  const day = asDay(props.value);
  // While the field holds a text that is not a date, the picker keeps its last date (a value of null
  // would empty the text that is being refused).
  const lastDay = useRef<Dayjs | null>(day);
  if (day || !props.value) lastDay.current = day;
  const [refusal, setRefusal] = useState<string | null>(null);
  // Esc with the calendar open closes just the calendar, not the dialog around it (as a select's list).
  const [open, setOpen] = useState(false);

  /** The text as it stands, read: a date becomes the value; anything else is reported or held. */
  const commit = (text: string) => {
    const typed = text.trim();
    if (typed === "") {
      setRefusal(null);
      if (props.value !== "" && (props.allowClear || props.invalid === "report")) props.onChange("");
      return;
    }
    const reading = readDate(typed, locale);
    if (reading.ok) {
      setRefusal(null);
      if (reading.iso !== props.value) props.onChange(reading.iso);
    } else if (props.invalid === "report") {
      props.onChange(typed);
    } else {
      setRefusal(dateMessage(reading.problem, typed, locale, t, todayIso()));
    }
  };

  const picker = (
    <DatePicker
      id={props.id}
      aria-label={props["aria-label"]}
      value={day ?? lastDay.current}
      format={formats}
      minDate={MIN}
      maxDate={MAX}
      placeholder={props.placeholder ?? t("form.datePlaceholder")}
      allowClear={props.allowClear ?? false}
      disabled={props.disabled}
      // A text that is not a date stays as typed (the default would silently put the old date back).
      preserveInvalidOnBlur
      status={refusal ? "error" : props.status}
      style={{ width: props.width ?? "100%" }}
      onBlur={(event) => {
        commit((event.target as HTMLInputElement).value);
        props.onBlur?.();
      }}
      open={open}
      onOpenChange={setOpen}
      onKeyDown={(event: KeyboardEvent<HTMLElement>) => {
        if (event.key === "Escape" && open) event.stopPropagation();
        if (event.key === "Enter") {
          // Before the form's own Enter: the form then checks what is in the field, not the last date.
          const text = (event.target as HTMLInputElement).value;
          commit(text);
          // A text that is not a date: the calendar would cover the reason given under the field.
          if (text.trim() && !readDate(text, locale).ok) setOpen(false);
        }
      }}
      onChange={(date: Dayjs | null) => {
        setRefusal(null);
        props.onChange(date ? date.format(ISO) : "");
      }}
    />
  );
  if (props.invalid === "report") return picker;
  return (
    <Tooltip title={refusal} open={refusal !== null} color="red" placement="bottom">
      <span data-testid={refusal ? `${props.id}-refused` : undefined}>{picker}</span>
    </Tooltip>
  );
};

/**
 * A form's date field: the label, the typed date read as the language writes it (useDateRule) and
 * its refusal beside the field. Every form's date is this one field.
 * `optional`: may be left empty (cleared with its ✕); `checked`: whether the date matters now (an
 * opening balance's date only with an amount; not when `disabled`).
 */
export const DateField = <V extends FieldValues>(props: {
  control: Control<V>;
  name: FieldPathByValue<V, string>;
  id: string;
  label: string;
  optional?: boolean;
  disabled?: boolean;
  checked?: () => boolean;
}) => {
  const dateRule = useDateRule();
  const check = dateRule({ optional: props.optional });
  return (
    <FormField
      control={props.control}
      name={props.name}
      id={props.id}
      label={props.label}
      rules={{
        validate: (value: string) => props.disabled || (props.checked && !props.checked()) || check(value),
      }}
      render={({ bound }) => (
        <DateInput
          {...bound}
          value={String(bound.value ?? "")}
          invalid="report"
          allowClear={props.optional}
          disabled={props.disabled}
        />
      )}
    />
  );
};
