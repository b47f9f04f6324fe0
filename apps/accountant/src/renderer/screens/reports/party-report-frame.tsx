import { formatDate, todayIso, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Select, Space, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { KEYS, useApi } from "../../api-context";
import { DateInput } from "../../components/date-input";
import { PrintButton } from "../../components/downloads";
import { CounterpartyPicker } from "../../components/pickers";
import { addDays, readCounterparty, readReportDate } from "./party-report-query";
import { periodFields, ReportFilterBar } from "./report-frame";
import { readReportParams } from "./report-query";

/*
 * The frame of the reports read at one day (aging, balances) or for one counterparty (its statement),
 * decision 0087: their filters written to the address beside the period the other reports share (so
 * switching report keeps both), and the same paper heading as every report — organization, report
 * name, the day or period, the filters, when it was made — printed through the one layout (print.css).
 */

export type PartyReportKind = "aging" | "balances" | "counterparty";

export type PartyParams = { date: string; start: string; end: string; counterpartyId: string | null };

/** The day, period and counterparty in the address, and a setter that keeps every other field there. */
export const usePartyParams = (): [PartyParams, (change: Partial<PartyParams>) => void] => {
  const [params, setParams] = useSearchParams();
  const today = todayIso();
  const { start, end } = readReportParams(params, today);
  const current = {
    date: readReportDate(params, today),
    start,
    end,
    counterpartyId: readCounterparty(params),
  };
  const update = (change: Partial<PartyParams>) => {
    const next = { ...current, ...change };
    const search = new URLSearchParams(params);
    if (change.date !== undefined) search.set("date", next.date);
    if (change.start !== undefined || change.end !== undefined) {
      search.set("start", next.start);
      search.set("end", next.end);
    }
    if (change.counterpartyId !== undefined) {
      if (next.counterpartyId) search.set("counterparty", next.counterpartyId);
      else search.delete("counterparty");
    }
    // Replacing, so Back leaves the report rather than stepping through its filters.
    setParams(search, { replace: true });
  };
  return [current, update];
};

const DAY_PRESETS = ["today", "endOfLastMonth", "endOfLastQuarter", "endOfLastYear"] as const;
type DayPreset = (typeof DAY_PRESETS)[number];

/** A preset's day on `today`: the last day of the month, quarter or year before this one. */
export const dayPresetDate = (preset: DayPreset, today: string): string => {
  const [year = 1970, month = 1] = today.split("-").map(Number);
  if (preset === "endOfLastMonth") return addDays(`${today.slice(0, 8)}01`, -1);
  if (preset === "endOfLastQuarter") {
    const first = Math.floor((month - 1) / 3) * 3 + 1;
    return addDays(`${year}-${String(first).padStart(2, "0")}-01`, -1);
  }
  if (preset === "endOfLastYear") return `${year - 1}-12-31`;
  return today;
};

/** The day a report is read at: a preset or any day. */
export const DayControls = (props: { date: string; onChange: (date: string) => void }) => {
  const { t } = useTranslation();
  const today = todayIso();
  const preset = DAY_PRESETS.find((key) => dayPresetDate(key, today) === props.date) ?? "custom";
  return (
    <ReportFilterBar>
      <Select
        aria-label={t("partyReports.day")}
        data-testid="report-day-preset"
        style={{ width: 220 }}
        value={preset}
        onChange={(key: DayPreset | "custom") =>
          key !== "custom" && props.onChange(dayPresetDate(key, today))
        }
        options={[
          ...DAY_PRESETS.map((key) => ({ value: key, label: t(`partyReports.dayPresets.${key}`) })),
          { value: "custom", label: t("partyReports.dayPresets.custom"), disabled: true },
        ]}
      />
      <label htmlFor="report-day">{t("partyReports.day")}</label>
      <DateInput
        id="report-day"
        width={140}
        value={props.date}
        onChange={(date) => date && props.onChange(date)}
      />
    </ReportFilterBar>
  );
};

/** The counterparty statement's period (the presets every report has) and its counterparty. */
export const CounterpartyControls = (props: {
  params: PartyParams;
  onChange: (change: Partial<PartyParams>) => void;
}) => {
  const { t } = useTranslation();
  const today = todayIso();
  const { params, onChange } = props;
  return (
    <ReportFilterBar>
      <div style={{ width: 260 }} data-testid="report-counterparty">
        <CounterpartyPicker
          id="report-counterparty"
          aria-label={t("partyReports.counterparty")}
          value={params.counterpartyId}
          onChange={(id) => onChange({ counterpartyId: id })}
          placeholder={t("partyReports.chooseCounterparty")}
        />
      </div>
      {periodFields(t, params, onChange, today)}
    </ReportFilterBar>
  );
};

/** The heading on screen and on paper; `when` is the day or the period line, `filters` what narrows it. */
export const PartyReportHeading = (props: {
  /** The report's title: its kind's, or the one given (the books' reports, decision 0101). */
  kind?: PartyReportKind;
  title?: string;
  when: string;
  filters: string;
  fileName: string;
  actions: ReactNode;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const me = useQuery({ queryKey: KEYS.me, queryFn: () => api.session.me.query() });
  const time = new Date().toLocaleTimeString(locale === "uz" ? "ru" : locale, {
    hour: "2-digit",
    minute: "2-digit",
  });
  const title = props.title ?? t(`partyReports.titles.${props.kind ?? "balances"}`);
  return (
    <header data-testid="report-heading" style={{ marginBottom: 16 }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }} wrap align="start">
        <div>
          <Typography.Text strong data-testid="report-organization">
            {me.data?.tenant.name ?? ""}
          </Typography.Text>
          <Typography.Title level={1} style={{ margin: "4px 0" }}>
            {title}
          </Typography.Title>
          <Typography.Text data-testid="report-period">{props.when}</Typography.Text>
          <br />
          <Typography.Text type="secondary" data-testid="report-filters">
            {props.filters}
          </Typography.Text>
          <br />
          <Typography.Text type="secondary" data-testid="report-generated">
            {t("reports.generatedAt", { date: `${formatDate(todayIso(), locale)} ${time}` })}
          </Typography.Text>
        </div>
        <Space className="no-print" wrap>
          {props.actions}
          <PrintButton name={`${title} ${props.fileName}.pdf`} testId="report-print" />
        </Space>
      </Space>
    </header>
  );
};
