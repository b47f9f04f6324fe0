import { ZCreateCategoryInput } from "@hisob/finance/schema";
import { describeFailure, QueryState, useLocale } from "@hisob/ui";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Checkbox, Col, Row, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { KEYS, useApi } from "../../api-context";
import { useSubmitOnce } from "../../forms";
import { DEFAULT_CATEGORIES } from "./default-categories";
import { StepButtons } from "./step-buttons";

type Kind = "income" | "expense";
const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * Step 4: a small set of categories in the user's language, created through the server's category
 * operations. A name the organization already has is shown as there and not created again, so the
 * step can be repeated after leaving it halfway.
 */
export const CategoriesStep = (props: { onBack: () => void; onDone: () => void; onLater: () => void }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const once = useSubmitOnce();
  const [error, setError] = useState<string | null>(null);
  const existing = useQuery({
    queryKey: [...KEYS.paymentCategories, "setup"],
    queryFn: async () => ({
      income: (await api.paymentCategories.list.query({ limit: 100 })).items.map((c) => c.name),
      expense: (await api.expenseCategories.list.query({ limit: 100 })).items.map((c) => c.name),
    }),
  });
  const defaults = DEFAULT_CATEGORIES[locale];
  const [chosen, setChosen] = useState<Record<Kind, string[]>>({
    income: defaults.income,
    expense: defaults.expense,
  });

  const create = () =>
    once.run(async () => {
      setError(null);
      const have = existing.data ?? { income: [], expense: [] };
      try {
        for (const kind of ["income", "expense"] as const) {
          const procedures = kind === "income" ? api.paymentCategories : api.expenseCategories;
          for (const name of chosen[kind].filter((n) => !have[kind].some((h) => same(h, n)))) {
            await procedures.create.mutate(ZCreateCategoryInput.parse({ name }));
          }
        }
      } catch (failure) {
        setError(describeFailure(failure, t).message);
        return;
      } finally {
        await Promise.all(
          [KEYS.paymentCategories, KEYS.expenseCategories].map((queryKey) =>
            queryClient.invalidateQueries({ queryKey }),
          ),
        );
      }
      void message.success(t("setup.categoriesCreated"));
      props.onDone();
    });

  const column = (kind: Kind, have: string[]) => (
    <Col xs={24} md={12}>
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t(kind === "income" ? "setup.income" : "setup.expense")}
      </Typography.Title>
      <Space orientation="vertical">
        {[...new Set([...defaults[kind], ...have])].map((name) => {
          const there = have.some((h) => same(h, name));
          return (
            <Checkbox
              key={name}
              checked={there || chosen[kind].includes(name)}
              disabled={there}
              onChange={(event) =>
                setChosen((current) => ({
                  ...current,
                  [kind]: event.target.checked
                    ? [...current[kind], name]
                    : current[kind].filter((n) => n !== name),
                }))
              }
            >
              {name} {there ? <Tag>{t("setup.exists")}</Tag> : null}
            </Checkbox>
          );
        })}
      </Space>
    </Col>
  );

  return (
    <Space orientation="vertical" style={{ width: "100%", maxWidth: 720 }}>
      <Typography.Paragraph>{t("setup.categoriesIntro")}</Typography.Paragraph>
      {error ? <Alert type="error" showIcon title={error} data-testid="setup-categories-error" /> : null}
      <QueryState query={existing} rows={6}>
        {(have) => (
          <Row gutter={[24, 16]} data-testid="setup-categories">
            {column("income", have.income)}
            {column("expense", have.expense)}
          </Row>
        )}
      </QueryState>
      <StepButtons
        busy={once.busy}
        nextLabel={t("setup.createCategories")}
        onBack={props.onBack}
        onNext={() => void create()}
        onLater={props.onLater}
      />
    </Space>
  );
};
