import { crudOperations } from "../operations";
import {
  ZCreateCategoryInput,
  ZExpenseCategoryDto,
  ZListCategoriesQuery,
  ZPaymentCategoryDto,
  ZUpdateCategoryInput,
} from "./categories.schema";

const categoriesOf = (kind: "payment" | "expense", dto: typeof ZPaymentCategoryDto) => {
  const a = kind === "expense" ? "an" : "a";
  return crudOperations({
    path: `/finance/${kind}-categories`,
    tag: `finance: ${kind} categories`,
    service: (services) => (kind === "payment" ? services.paymentCategories : services.expenseCategories),
    schemas: {
      list: ZListCategoriesQuery,
      listItem: dto,
      create: ZCreateCategoryInput,
      update: ZUpdateCategoryInput,
      item: dto,
    },
    access: {
      list: "categories:read:all",
      get: "categories:read:all",
      create: "categories:create:all",
      update: "categories:update:all",
      delete: "categories:delete:all",
    },
    summaries: {
      list: `List ${kind} categories, e.g. the top level (root=true) or one category's children`,
      get: `Get ${a} ${kind} category`,
      create: `Create ${a} ${kind} category, top-level or under a parent`,
      update: `Rename, describe or move ${a} ${kind} category; it can never become its own ancestor`,
      delete: `Delete ${a} ${kind} category without subcategories that nothing uses`,
    },
  });
};

export const paymentCategoriesOperations = categoriesOf("payment", ZPaymentCategoryDto);
export const expenseCategoriesOperations = categoriesOf("expense", ZExpenseCategoryDto);
