import type { Locale } from "@hisob/ui";
import { numberLocale } from "@hisob/ui";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

/* Bars for a report (its own chunk: Recharts loads only when a chart is shown). Figures drawn as numbers,
 * told as the formatted money texts the table shows. */

export type ChartSeries = { key: string; name: string; color: string };
export type ChartRow = { label: string; values: Record<string, number>; texts: Record<string, string> };

const axisFormat = (locale: Locale) => {
  // Uzbek has no compact forms in browsers' data (they come out Russian): whole numbers instead.
  const format = new Intl.NumberFormat(numberLocale(locale), {
    notation: locale === "uz" ? "standard" : "compact",
    maximumFractionDigits: locale === "uz" ? 0 : 1,
  });
  return (value: number) => format.format(value);
};

const ReportChart = (props: {
  rows: ChartRow[];
  series: ChartSeries[];
  locale: Locale;
  xLabel: string;
  yLabel: string;
  layout?: "horizontal" | "vertical";
  /** A line (a balance over time) instead of bars (amounts per period). */
  type?: "bar" | "line";
}) => {
  const data = props.rows.map((row) => ({ label: row.label, ...row.values, texts: row.texts }));
  const vertical = props.layout === "vertical";
  const money = axisFormat(props.locale);
  const tooltip = (
    <Tooltip
      formatter={(_value, name, item) => {
        const series = props.series.find((s) => s.name === name);
        return [series ? item.payload.texts[series.key] : String(_value), name];
      }}
    />
  );
  if (props.type === "line")
    return (
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ left: 24, right: 16, bottom: 24 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="label"
            tick={{ fontSize: 11 }}
            label={{ value: props.xLabel, position: "insideBottom", offset: -16 }}
          />
          <YAxis
            tickFormatter={money}
            width={84}
            tick={{ fontSize: 11 }}
            label={{ value: props.yLabel, angle: -90, position: "insideLeft", offset: -16 }}
          />
          {tooltip}
          <Legend verticalAlign="top" />
          {props.series.map((series) => (
            <Line
              key={series.key}
              dataKey={series.key}
              name={series.name}
              stroke={series.color}
              strokeWidth={2}
              dot={data.length <= 62}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    );
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={data}
        layout={vertical ? "vertical" : "horizontal"}
        margin={{ left: 24, right: 16, bottom: 24 }}
      >
        <CartesianGrid strokeDasharray="3 3" />
        {vertical ? (
          <>
            <XAxis
              type="number"
              tickFormatter={money}
              tick={{ fontSize: 11 }}
              label={{ value: props.yLabel, position: "insideBottom", offset: -16 }}
            />
            <YAxis
              type="category"
              dataKey="label"
              width={140}
              tick={{ fontSize: 11 }}
              label={{ value: props.xLabel, angle: -90, position: "insideLeft", offset: -16 }}
            />
          </>
        ) : (
          <>
            <XAxis
              dataKey="label"
              tick={{ fontSize: 11 }}
              label={{ value: props.xLabel, position: "insideBottom", offset: -16 }}
            />
            <YAxis
              tickFormatter={money}
              width={84}
              tick={{ fontSize: 11 }}
              label={{ value: props.yLabel, angle: -90, position: "insideLeft", offset: -16 }}
            />
          </>
        )}
        <Tooltip
          formatter={(_value, name, item) => {
            const series = props.series.find((s) => s.name === name);
            return [series ? item.payload.texts[series.key] : String(_value), name];
          }}
        />
        <Legend verticalAlign="top" />
        {props.series.map((series) => (
          // No growing animation: a screenshot or a printout never catches a bar half drawn.
          <Bar
            key={series.key}
            dataKey={series.key}
            name={series.name}
            fill={series.color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
};

export default ReportChart;
