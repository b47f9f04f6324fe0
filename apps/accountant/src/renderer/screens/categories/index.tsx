import { describeFailure, QueryState } from "@hisob/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Popconfirm, Segmented, Space, Table, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { KEYS, useApi } from "../../api-context";
import { type CategoryEdit, CategoryForm } from "./category-form";
import { type CategoryKind, type CategoryNode, toParentOptions, toTree } from "./tree";

/** An organization has tens of categories: all of them, a page of 100 at a time, make the tree. */
const useAllCategories = (kind: CategoryKind) => {
  const api = useApi();
  const procedures = kind === "payments" ? api.paymentCategories : api.expenseCategories;
  return useQuery({
    queryKey: [...(kind === "payments" ? KEYS.paymentCategories : KEYS.expenseCategories), "all"],
    queryFn: async () => {
      const all = [];
      for (let offset = 0; ; offset += 100) {
        const page = await procedures.list.query({ limit: 100, offset, sortBy: "name", order: "asc" });
        all.push(...page.items);
        if (all.length >= page.total || page.items.length === 0) return all;
      }
    },
  });
};

/** Payment and expense categories as trees: create, rename, move under another parent, delete. */
export const CategoriesScreen = () => {
  const { t } = useTranslation();
  const [kind, setKind] = useState<CategoryKind>("payments");
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {t("categories.title")}
      </Typography.Title>
      <Segmented
        aria-label={t("categories.kind")}
        value={kind}
        onChange={(value) => setKind(value as CategoryKind)}
        options={[
          { value: "payments", label: t("categories.payments") },
          { value: "expenses", label: t("categories.expenses") },
        ]}
      />
      <CategoryTree key={kind} kind={kind} />
    </Space>
  );
};

const CategoryTree = ({ kind }: { kind: CategoryKind }) => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const categories = useAllCategories(kind);
  const tree = useMemo(() => toTree(categories.data ?? []), [categories.data]);
  const parents = useMemo(() => toParentOptions(tree), [tree]);
  const [edit, setEdit] = useState<CategoryEdit | null>(null);
  const procedures = kind === "payments" ? api.paymentCategories : api.expenseCategories;
  const remove = useMutation({
    mutationFn: (id: string) => procedures.delete.mutate({ id }),
    onSuccess: () => {
      void message.success(t("categories.deleted"));
      return queryClient.invalidateQueries({
        queryKey: kind === "payments" ? KEYS.paymentCategories : KEYS.expenseCategories,
      });
    },
    // The server says why: subcategories, or how many documents use it.
    onError: (error) => void message.error(describeFailure(error, t).message),
  });

  return (
    <>
      <Button
        type="primary"
        data-testid="new-category"
        onClick={() => setEdit({ mode: "create", parentId: null })}
      >
        {t("categories.new")}
      </Button>
      <QueryState query={categories}>
        {(all) => (
          <Table<CategoryNode>
            rowKey="id"
            dataSource={tree}
            pagination={false}
            expandable={{ expandedRowKeys: all.map((category) => category.id), showExpandColumn: true }}
            locale={{ emptyText: t("categories.empty") }}
            columns={[
              { key: "name", title: t("categories.name"), dataIndex: "name" },
              {
                key: "actions",
                title: t("categories.actions"),
                width: 360,
                render: (_: unknown, category: CategoryNode) => (
                  <Space size="small">
                    <Button size="small" onClick={() => setEdit({ mode: "create", parentId: category.id })}>
                      {t("categories.addChild")}
                    </Button>
                    <Button size="small" onClick={() => setEdit({ mode: "rename", category })}>
                      {t("categories.rename")}
                    </Button>
                    <Button size="small" onClick={() => setEdit({ mode: "move", category })}>
                      {t("categories.move")}
                    </Button>
                    <Popconfirm
                      title={t("categories.confirmDelete", { name: category.name })}
                      onConfirm={() => remove.mutate(category.id)}
                    >
                      <Button
                        size="small"
                        danger
                        loading={remove.isPending && remove.variables === category.id}
                      >
                        {t("categories.delete")}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {edit ? <CategoryForm kind={kind} edit={edit} parents={parents} onClose={() => setEdit(null)} /> : null}
    </>
  );
};
