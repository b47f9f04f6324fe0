import { ZPagination, ZQueryBoolean, ZRequiredLine, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

/*
 * Payment categories and expense categories: two trees of the same shape. A category may sit
 * under a parent of its own kind; it can never become its own ancestor.
 */

const ZName = ZRequiredLine(100);
const ZDescription = ZText(1000);

export const ZCreateCategoryInput = z
  .object({
    name: ZName,
    description: ZDescription.default(""),
    /** The parent category (same kind), or null for a top-level one. */
    parentId: z.uuid().nullable().default(null),
  })
  .strict();
export type TCreateCategoryInput = z.input<typeof ZCreateCategoryInput>;

export const ZUpdateCategoryInput = z
  .object({
    name: ZName.optional(),
    description: ZDescription.optional(),
    /** Moves the category (with its subtree); null makes it top-level. */
    parentId: z.uuid().nullable().optional(),
  })
  .strict();
export type TUpdateCategoryInput = z.input<typeof ZUpdateCategoryInput>;

export const CATEGORY_SORT_FIELDS = ["name", "createdAt", "updatedAt"] as const;

export const ZListCategoriesQuery = ZPagination.extend({
  sortBy: z.enum(CATEGORY_SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  /** Only the direct children of this category. */
  parentId: z.uuid().optional(),
  /** true: only top-level categories. */
  root: ZQueryBoolean.optional(),
  /** Substring of the name or description, case-insensitive. */
  search: ZRequiredLine(100).optional(),
}).refine((query) => !(query.root === true && query.parentId !== undefined), {
  message: "cannot be combined with parentId",
  path: ["root"],
});
export type TListCategoriesQuery = z.input<typeof ZListCategoriesQuery>;

const categoryDto = (id: string) =>
  z
    .object({
      id: z.uuid(),
      parentId: z.uuid().nullable(),
      name: z.string(),
      description: z.string(),
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .meta({ id });

export const ZPaymentCategoryDto = categoryDto("PaymentCategory");
export const ZExpenseCategoryDto = categoryDto("ExpenseCategory");
export type TCategoryDto = z.infer<typeof ZPaymentCategoryDto>;
