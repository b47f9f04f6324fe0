/** The shared UI's strings (namespace "ui"). ru and uz have the same keys (a test compares them). */
export const en = {
  loading: "Loading…",
  empty: "Nothing here yet",
  error: "Could not load this",
  retry: "Try again",
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  edit: "Edit",
  create: "Create",
  close: "Close",
  confirm: "Confirm",
  actions: "Actions",
  language: "Language",
  signOut: "Sign out",
  signingIn: "Signing in…",
  signInFailed: "Sign-in failed",
  signInAgain: "Sign in again",
  userMenu: "User menu",
  navigation: "Navigation",
  total: "Total",
  networkError: "The server cannot be reached. Check the connection and try again.",
  unexpectedError: "Something went wrong. Please try again.",
  keyboardHint: "Enter saves, Esc cancels",
  /** What a number field says about what was typed (numbers.ts): how it was read, what it expects. */
  number: {
    required: "Required",
    formatHint: "Type it like {{example}}",
    postsAs: "Posts as {{value}}",
    notANumber: "“{{typed}}” is not a number. Type digits, like {{example}}",
    exponent: "“{{typed}}” is how a computer writes {{full}}: type the number in full",
    exponentGeneric:
      "“{{typed}}” is how a computer writes numbers: type the number in full, like {{example}}",
    commaDecimal:
      "In English a comma separates thousands, so “{{typed}}” is not a number. For a fraction, type a point: {{reading}}",
    pointGrouping:
      "In English a point starts the fraction, so “{{typed}}” is not a number. Separate thousands with commas: {{reading}}",
    otherConvention:
      "“{{typed}}” is written the other way round: in English a point starts the fraction and commas separate thousands. Type {{reading}}",
    ambiguous: "“{{typed}}” can be read as {{first}} or as {{second}}: type the one you mean",
    grouping: "“{{typed}}” is not a number as written: thousands go in groups of three, like {{example}}",
    fractionDigitsAmount:
      "A {{currency}} amount has at most {{max}} digits after the point; “{{typed}}” has {{count}}",
    fractionDigitsWhole: "A {{currency}} amount is a whole number: type it without a fraction",
    fractionDigitsRate: "A rate has at most {{max}} digits after the point; “{{typed}}” has {{count}}",
    groupedHint: "Did you mean {{grouped}}?",
    tooLarge: "“{{typed}}” is too large: at most {{max}}",
    tooManyDigits: "A rate has at most {{max}} digits before the point",
    notPositive: "Must be greater than zero",
    negative: "Cannot be negative",
  },
  /** What a date field says about what was typed (dates.ts). */
  date: {
    pattern: "mm/dd/yyyy",
    format: "“{{typed}}” is not a date: type it as {{pattern}}, like {{example}}",
    noMonth: "“{{typed}}” is not a date: there is no month {{month}}",
    noDay: "“{{typed}}” is not a date: that month ends on {{lastDay}}",
    range: "“{{typed}}” is outside the books: type a date from {{first}} to {{last}}",
  },
} as const;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type UiMessages = Widen<typeof en>;
