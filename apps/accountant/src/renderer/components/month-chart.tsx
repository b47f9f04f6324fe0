import type { Locale } from "@hisob/ui";
import { numberLocale } from "@hisob/ui";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/* The dashboard's twelve-month bar chart (its own chunk: Recharts loads only where a chart is shown). */

export type MonthBar = {
  label: string;
  income: number;
  expense: number;
  incomeText: string;
  expenseText: string;
};

const compact = (locale: Locale) => {
  // Uzbek has no compact forms in browsers' data (they come out Russian): whole numbers instead.
  const format = new Intl.NumberFormat(numberLocale(locale), {
    notation: locale === "uz" ? "standard" : "compact",
    maximumFractionDigits: locale === "uz" ? 0 : 1,
  });
  return (value: number) => format.format(value);
};

const MonthChart = ({ rows, locale }: { rows: MonthBar[]; locale: Locale }) => {
  const { t } = useTranslation();
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows} margin={{ left: 8, right: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="label"
          tick={{ fontSize: 11 }}
          interval={0}
          angle={-30}
          textAnchor="end"
          height={50}
        />
        <YAxis tickFormatter={compact(locale)} width={84} tick={{ fontSize: 11 }} />
        <Tooltip
          formatter={(_value, name, item) =>
            name === "income"
              ? [item.payload.incomeText, t("dashboard.income")]
              : [item.payload.expenseText, t("dashboard.expenses")]
          }
        />
        <Legend formatter={(name) => (name === "income" ? t("dashboard.income") : t("dashboard.expenses"))} />
        {/* Drawn at once, as the reports' charts are: a 1.5 s growth only delays the figures. */}
        <Bar dataKey="income" fill="#0f6e5c" isAnimationActive={false} />
        <Bar dataKey="expense" fill="#d4634a" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
};

export default MonthChart;
