/** Payments (money in) or expenses (money out): the same list and form over their own procedures. */
export type DocumentKind = "payments" | "expenses";
