/** What differs between a payment and an expense; everything else is one implementation. */
export type PaymentOrExpenseKind = {
  name: "payment" | "expense";
  resource: "payments" | "expenses";
  transactionType: "income" | "expense";
  /** 1n: money enters the account (payment); -1n: it leaves (expense). */
  direction: 1n | -1n;
  events: { created: string; updated: string; deleted: string };
};

export const PAYMENT: PaymentOrExpenseKind = {
  name: "payment",
  resource: "payments",
  transactionType: "income",
  direction: 1n,
  events: { created: "PaymentCreated", updated: "PaymentUpdated", deleted: "PaymentDeleted" },
};

export const EXPENSE: PaymentOrExpenseKind = {
  name: "expense",
  resource: "expenses",
  transactionType: "expense",
  direction: -1n,
  events: { created: "ExpenseRecorded", updated: "ExpenseUpdated", deleted: "ExpenseDeleted" },
};
