import { lazyLoaded, useLocale } from "@hisob/ui";
import { Card, Segmented, Skeleton } from "antd";
import { Suspense, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChartRow, ChartSeries } from "./report-chart";

// Recharts comes with the reports' code, beside their data; arrived, it draws with the data at once (0105).
const ReportChart = lazyLoaded(() => import("./report-chart").then((m) => m.default));
void ReportChart.preload().catch(() => undefined);

const CELL = { padding: "4px 8px", borderBottom: "1px solid #eee" } as const;

/** A chart and, a click away, a table of the very same figures (for reading, copying and screen readers). */
export const ChartCard = (props: {
  title: string;
  testId: string;
  rows: ChartRow[];
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  layout?: "horizontal" | "vertical";
  type?: "bar" | "line";
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const [view, setView] = useState<"chart" | "table">("chart");
  // The report's tables paint first; the charts draw in a render of their own just after, which a
  // click can interrupt (decision 0108). The box keeps its height meanwhile, so nothing moves.
  const drawn = useDeferredValue(true, false);
  const height = props.layout === "vertical" ? Math.max(200, 60 + props.rows.length * 36) : 300;
  return (
    <Card
      title={props.title}
      size="small"
      // Paper carries the report's tables (the same figures): a chart drawn for the screen's width would not fit.
      className="no-print"
      data-testid={props.testId}
      style={{ marginBottom: 16, breakInside: "avoid" }}
      extra={
        <Segmented
          aria-label={t("reports.view")}
          size="small"
          value={view}
          onChange={(value) => setView(value as "chart" | "table")}
          options={[
            { value: "chart", label: t("reports.chart") },
            { value: "table", label: t("reports.table") },
          ]}
        />
      }
    >
      {view === "chart" ? (
        <div style={{ height }} data-testid={`${props.testId}-chart`} aria-busy={!drawn}>
          {drawn ? (
            <Suspense fallback={<Skeleton active />}>
              <ReportChart {...props} locale={locale} />
            </Suspense>
          ) : null}
        </div>
      ) : (
        <table style={{ width: "100%", borderCollapse: "collapse" }} data-testid={`${props.testId}-table`}>
          <thead>
            <tr>
              <th style={{ ...CELL, textAlign: "left" }}>{props.xLabel}</th>
              {props.series.map((s) => (
                <th key={s.key} style={{ ...CELL, textAlign: "right" }}>
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr key={row.label}>
                <td style={CELL}>{row.label}</td>
                {props.series.map((s) => (
                  <td key={s.key} style={{ ...CELL, textAlign: "right", whiteSpace: "nowrap" }}>
                    {row.texts[s.key]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
};
