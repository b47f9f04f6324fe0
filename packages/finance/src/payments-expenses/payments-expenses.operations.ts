import { crudOperations } from "../operations";
import {
  ZCreateDocumentInput,
  ZExpenseDto,
  ZListDocumentsQuery,
  ZPaymentDto,
  ZUpdateDocumentInput,
} from "./payments-expenses.schema";

const documents = { list: ZListDocumentsQuery, create: ZCreateDocumentInput, update: ZUpdateDocumentInput };

/** Payments (money in). */
export const paymentsOperations = crudOperations({
  path: "/finance/payments",
  tag: "finance: payments",
  service: (services) => services.payments,
  schemas: { ...documents, listItem: ZPaymentDto, item: ZPaymentDto },
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
export const expensesOperations = crudOperations({
  path: "/finance/expenses",
  tag: "finance: expenses",
  service: (services) => services.expenses,
  schemas: { ...documents, listItem: ZExpenseDto, item: ZExpenseDto },
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
