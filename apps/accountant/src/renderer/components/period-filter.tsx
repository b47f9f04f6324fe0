import { todayIso } from "@hisob/ui";
import { Select, Space } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { DateInput } from "./date-input";
import { PERIOD_PRESETS, type Period, type PeriodPreset, presetOf, presetPeriod } from "./period";

export type { Period };

/*
 * A period for a statement: a preset (this month, last month, this quarter, this year, last year,
 * all time) or any two dates. It lives in the address (`?start=…&end=…`, none for all time), so a
 * reload, a bookmark or the print view opened from the screen shows the same period.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The period in the address: both dates or neither (all time); anything else reads as all time. */
export const usePeriod = (): [Period, (next: Period) => void] => {
  const [params, setParams] = useSearchParams();
  const start = params.get("start");
  const end = params.get("end");
  const period =
    start && end && ISO_DATE.test(start) && ISO_DATE.test(end) ? { start, end } : { start: null, end: null };
  const setPeriod = (next: Period) =>
    setParams(next.start && next.end ? { start: next.start, end: next.end } : {}, { replace: true });
  return [period, setPeriod];
};

/** `?start=…&end=…` of a period, for a link that keeps it ("" for all time). */
export const periodSearch = (period: Period) =>
  period.start && period.end ? `?start=${period.start}&end=${period.end}` : "";

export const PeriodFilter = ({ value, onChange }: { value: Period; onChange: (next: Period) => void }) => {
  const { t } = useTranslation();
  const today = todayIso();
  const preset = presetOf(value, today);
  // Typing one date of an all-time period starts a custom one at today's edge.
  const custom = (change: Partial<Period>) => {
    const next = { start: value.start ?? today, end: value.end ?? today, ...change };
    onChange(next);
  };
  return (
    <Space wrap role="group" aria-label={t("accounts.period")}>
      <Select
        aria-label={t("accounts.period")}
        data-testid="period-preset"
        style={{ width: 190 }}
        value={preset}
        onChange={(key: PeriodPreset | "custom") => {
          if (key !== "custom") onChange(presetPeriod(key, today));
        }}
        options={[
          ...PERIOD_PRESETS.map((key) => ({ value: key, label: t(`accounts.periods.${key}`) })),
          { value: "custom", label: t("accounts.periods.custom"), disabled: true },
        ]}
      />
      <label htmlFor="period-from">{t("documents.from")}</label>
      <DateInput
        id="period-from"
        width={140}
        value={value.start ?? ""}
        onChange={(date) => date && custom({ start: date })}
      />
      <label htmlFor="period-to">{t("documents.to")}</label>
      <DateInput
        id="period-to"
        width={140}
        value={value.end ?? ""}
        onChange={(date) => date && custom({ end: date })}
      />
    </Space>
  );
};
