import type { en } from "./locales/en";

/** The shape every language must have: en's keys, any strings. */
type StringShape<T> = { [K in keyof T]: T[K] extends string ? string : StringShape<T[K]> };
export type Messages = StringShape<typeof en>;

/** Dotted paths to the leaves of en, e.g. "login.submit". */
type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type MessageKey = Leaves<typeof en>;
