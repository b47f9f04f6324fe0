import { ZSelectCurrenciesInput } from "@hisob/core/schema";
import { currencyOption, describeFailure, QueryState, useLocale } from "@hisob/ui";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Select, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { KEYS, useApi, useCurrencies } from "../../api-context";
import { Field } from "../../components/field";
import { useSubmitOnce } from "../../forms";
import { StepButtons } from "./step-buttons";

/**
 * Step 1: the base currency and the other currencies the organization works in — the selection
 * accounts may use, replaced through the server's own operation. The base one comes first and
 * becomes the default of the next step's accounts.
 */
export const CurrenciesStep = (props: {
  base: string | null;
  onDone: (base: string) => void;
  onLater: () => void;
}) => {
  const api = useApi();
  const all = useQuery({
    queryKey: [...KEYS.currencies, "all"],
    queryFn: () => api.currencies.all.query(),
    staleTime: 5 * 60_000,
  });
  const selected = useCurrencies();
  return (
    <QueryState query={all} rows={4}>
      {(currencies) => (
        <QueryState query={selected} rows={4}>
          {(chosen) => (
            <CurrenciesForm
              all={currencies.filter((currency) => currency.active)}
              selected={chosen.map((currency) => currency.code)}
              {...props}
            />
          )}
        </QueryState>
      )}
    </QueryState>
  );
};

const CurrenciesForm = (props: {
  all: { code: string; name: string }[];
  selected: string[];
  base: string | null;
  onDone: (base: string) => void;
  onLater: () => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const once = useSubmitOnce();
  const initialBase = props.base && props.selected.includes(props.base) ? props.base : props.selected[0];
  const [base, setBase] = useState<string | undefined>(initialBase);
  const [others, setOthers] = useState<string[]>(props.selected.filter((code) => code !== initialBase));
  const [error, setError] = useState<string | null>(null);
  const options = props.all.map((currency) => currencyOption(currency, locale));

  const save = () =>
    once.run(async () => {
      setError(null);
      if (!base) {
        setError(t("form.required"));
        return;
      }
      const checked = ZSelectCurrenciesInput.safeParse({
        codes: [base, ...others.filter((code) => code !== base)],
      });
      if (!checked.success) {
        setError(t("form.required"));
        return;
      }
      try {
        await api.currencies.select.mutate(checked.data);
      } catch (failure) {
        // E.g. a currency an account already uses cannot leave the selection: the server says which.
        setError(describeFailure(failure, t).message);
        return;
      }
      await queryClient.invalidateQueries({ queryKey: KEYS.currencies });
      props.onDone(base);
    });

  return (
    <Space orientation="vertical" style={{ width: "100%", maxWidth: 560 }}>
      {error ? <Alert type="error" showIcon title={error} data-testid="setup-currencies-error" /> : null}
      <Field id="setup-base" label={t("setup.base")}>
        <Select
          id="setup-base"
          value={base}
          onChange={(code: string) => {
            setBase(code);
            setOthers((current) => current.filter((other) => other !== code));
          }}
          options={options}
          showSearch
          style={{ width: "100%" }}
        />
        <Typography.Text type="secondary">{t("setup.baseHint")}</Typography.Text>
      </Field>
      <Field id="setup-others" label={t("setup.others")}>
        <Select
          id="setup-others"
          mode="multiple"
          value={others}
          onChange={setOthers}
          options={options.filter((option) => option.value !== base)}
          style={{ width: "100%" }}
        />
      </Field>
      <StepButtons busy={once.busy} onNext={() => void save()} onLater={props.onLater} />
    </Space>
  );
};
