/*
 * The number input and its reader (`@hisob/ui/numbers`): their own entry, loaded with the screens that
 * take numbers, not with the app's first screen.
 */
export { AmountInput, NumberInput, useNumberRule } from "./number-input";
export {
  amountRules,
  amountText,
  formatDecimal,
  type NumberProblem,
  type NumberReading,
  type NumberRules,
  type NumberSubject,
  numberMessage,
  RATE_RULES,
  readNumber,
} from "./numbers";
