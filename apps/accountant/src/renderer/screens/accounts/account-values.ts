/** What the account form holds. */
export type AccountValues = {
  name: string;
  number: string;
  currency: string;
  allowOverdraft: boolean;
  description: string;
  /** What the account already held when its books moved here, as typed ("" for none). */
  openingAmount: string;
  openingDate: string;
};
