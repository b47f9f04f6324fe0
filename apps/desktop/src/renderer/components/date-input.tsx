import { FIRST_DATE, LAST_DATE } from "@hisob/finance/schema";
import { type Locale, useLocale } from "@hisob/ui";
import { DatePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/*
 * A calendar date typed or picked in the app's language, not the browser's: an en-US browser showing
 * the app in Russian or Uzbek still reads and types dd.mm.yyyy (a native <input type="date"> follows
 * the browser's locale and would show mm/dd/yyyy). The value stays an ISO date string ("2026-03-06").
 * The first format is how the date is shown; the others are also accepted when typed.
 */
export const DATE_FORMATS: Record<Locale, string[]> = {
  en: ["MM/DD/YYYY", "M/D/YYYY", "YYYY-MM-DD"],
  ru: ["DD.MM.YYYY", "D.M.YYYY", "DDMMYYYY", "YYYY-MM-DD"],
  uz: ["DD.MM.YYYY", "D.M.YYYY", "DDMMYYYY", "YYYY-MM-DD"],
};

const ISO = "YYYY-MM-DD";
const MIN = dayjs(FIRST_DATE, ISO);
const MAX = dayjs(LAST_DATE, ISO);

export const DateInput = (props: {
  id: string;
  value: string;
  onChange: (isoDate: string) => void;
  onBlur?: () => void;
  status?: "" | "error";
  /** Shown when empty (a filter: "any date"). */
  placeholder?: string;
  width?: number | string;
  allowClear?: boolean;
  "aria-label"?: string;
}) => {
  const locale = useLocale();
  const { t } = useTranslation();
  const formats = DATE_FORMATS[locale];
  const value: Dayjs | null = props.value ? dayjs(props.value, ISO, true) : null;
  // Esc with the calendar open closes just the calendar, not the dialog around it (as a select's list).
  const [open, setOpen] = useState(false);
  return (
    <DatePicker
      id={props.id}
      aria-label={props["aria-label"]}
      value={value?.isValid() ? value : null}
      format={formats}
      minDate={MIN}
      maxDate={MAX}
      placeholder={props.placeholder ?? t("form.datePlaceholder")}
      allowClear={props.allowClear ?? false}
      status={props.status}
      style={{ width: props.width ?? "100%" }}
      onBlur={props.onBlur}
      onOpenChange={setOpen}
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) event.stopPropagation();
      }}
      onChange={(date: Dayjs | null) => props.onChange(date ? date.format(ISO) : "")}
    />
  );
};
