import { formatDate, formatPercent, useLocale } from "@hisob/ui";
import { useTranslation } from "react-i18next";
import { useMoney } from "../../api-context";
import type { ComparePeriod } from "./report-query";
import { CELL, NUM, ReportTable } from "./report-table";

/*
 * A report's figures beside those of the period it is compared with: the chosen period, the compared
 * one, the change and the change in % — every figure as the server answered it (nothing is worked out
 * here), on screen and on paper (docs/decisions/0088-report-filters-and-comparison.md).
 */

type ComparedFigure = { value: string; change: string; changePercent: string | null };
type Dated = { startDate: string; endDate: string };

export const ComparisonTable = (props: {
  testId: string;
  currency: string;
  period: Dated;
  compared: Dated & { compare: ComparePeriod };
  /** The figures compared: label, the report's value and the compared figure. */
  columns: Array<{ key: string; label: string; value: string; figure: ComparedFigure | undefined }>;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const amount = (minor: string | undefined) => (minor === undefined ? "—" : money(minor, props.currency));
  const dates = (period: Dated) =>
    `${formatDate(period.startDate, locale)} – ${formatDate(period.endDate, locale)}`;
  const row = (
    kind: "current" | "compared" | "change" | "changePercent",
    label: string,
    cell: (column: (typeof props.columns)[number]) => string,
  ) => (
    <tr key={kind}>
      <th scope="row" style={{ ...CELL, textAlign: "left", fontWeight: kind === "current" ? 600 : 400 }}>
        {label}
      </th>
      {props.columns.map((column) => (
        <td key={column.key} style={NUM} data-testid={`${props.testId}-${kind}-${column.key}`}>
          {cell(column)}
        </td>
      ))}
    </tr>
  );
  return (
    <ReportTable
      testId={props.testId}
      head={[t("reports.compare.column"), ...props.columns.map((column) => column.label)]}
    >
      {row("current", `${t("reports.compare.current")}: ${dates(props.period)}`, (column) =>
        amount(column.value),
      )}
      {row(
        "compared",
        `${t(`reports.compare.${props.compared.compare}`)}: ${dates(props.compared)}`,
        (column) => amount(column.figure?.value),
      )}
      {row("change", t("reports.compare.change"), (column) => amount(column.figure?.change))}
      {row("changePercent", t("reports.compare.changePercent"), (column) =>
        column.figure?.changePercent == null ? "—" : formatPercent(column.figure.changePercent, locale),
      )}
    </ReportTable>
  );
};
