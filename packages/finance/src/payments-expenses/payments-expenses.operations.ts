import type { FinanceServices } from "../finance-services";
import { crudOperations, op } from "../operations";
import {
  ZCreateDocumentInput,
  ZDocumentTotals,
  ZDocumentTotalsQuery,
  ZExpenseDto,
  ZExpenseListItem,
  ZListDocumentsQuery,
  ZPaymentDto,
  ZPaymentListItem,
  ZUpdateDocumentInput,
} from "./payments-expenses.schema";

const documents = { list: ZListDocumentsQuery, create: ZCreateDocumentInput, update: ZUpdateDocumentInput };

/** Payments (money in). */
const paymentsCrud = crudOperations({
  path: "/finance/payments",
  tag: "finance: payments",
  service: (services) => services.payments,
  idempotentCreate: true,
  schemas: { ...documents, listItem: ZPaymentListItem, item: ZPaymentDto },
  access: {
    list: {
      requires: ["payments:read:all"],
      own: { permission: "payments:read:own", which: "those one created" },
    },
    get: {
      requires: ["payments:read:all"],
      own: { permission: "payments:read:own", which: "those one created" },
    },
    create: "payments:create:all",
    update: "payments:update:all",
    delete: "payments:delete:all",
  },
  summaries: {
    list: "List payments",
    get: "Get a payment",
    create:
      "Create a payment: the payment, its transaction and the account balance in one database transaction",
    update: "Change a payment; balances follow in the same transaction",
    delete: "Delete a payment and its transaction, reversing its effect on the balance",
  },
});

/** Expenses (money out). */
const expensesCrud = crudOperations({
  path: "/finance/expenses",
  tag: "finance: expenses",
  service: (services) => services.expenses,
  idempotentCreate: true,
  schemas: { ...documents, listItem: ZExpenseListItem, item: ZExpenseDto },
  access: {
    list: {
      requires: ["expenses:read:all"],
      own: { permission: "expenses:read:own", which: "those one recorded" },
    },
    get: {
      requires: ["expenses:read:all"],
      own: { permission: "expenses:read:own", which: "those one recorded" },
    },
    create: "expenses:create:all",
    update: "expenses:update:all",
    delete: "expenses:delete:all",
  },
  summaries: {
    list: "List expenses",
    get: "Get an expense",
    create:
      "Create an expense: the expense, its transaction and the account balance in one database transaction",
    update: "Change an expense; balances follow in the same transaction",
    delete: "Delete an expense and its transaction, reversing its effect on the balance",
  },
});

/** `GET path/totals`: the count and per-currency sums of every document the list's filters match. */
const totalsOperation = (
  crud: typeof paymentsCrud,
  path: string,
  tag: string,
  service: (services: FinanceServices) => FinanceServices["payments"],
) =>
  op.query({
    http: { method: "GET", path: `${path}/totals`, status: 200 },
    input: ZDocumentTotalsQuery,
    output: ZDocumentTotals,
    // Whoever may read the list may read its totals (a `:own` reader: the totals of their own).
    access: crud.list.access,
    summary: "How many documents the list's filters match, and their sum per currency (every page)",
    tag,
    call: (services, ctx, input) => service(services).totals(ctx, input),
  });

export const paymentsOperations = {
  ...paymentsCrud,
  totals: totalsOperation(paymentsCrud, "/finance/payments", "finance: payments", (s) => s.payments),
};

export const expensesOperations = {
  ...expensesCrud,
  totals: totalsOperation(expensesCrud, "/finance/expenses", "finance: expenses", (s) => s.expenses),
};
