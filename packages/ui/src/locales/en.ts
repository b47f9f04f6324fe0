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
} as const;

export type UiMessages = { [K in keyof typeof en]: string };
