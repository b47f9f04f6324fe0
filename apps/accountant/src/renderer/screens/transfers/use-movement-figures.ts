import { applyRatio, marketQuoteOf, naturalQuoteBase, quoteRatio } from "@hisob/finance/schema";
import { useLocale } from "@hisob/ui";
import { amountRules, RATE_RULES, readNumber } from "@hisob/ui/numbers";
import { useAllAccounts, useMinorUnits } from "../../api-context";
import { type Mode, quoteText, type Values } from "./movement-values";

/**
 * What the form's values mean, recomputed on every change: the two accounts and their currencies,
 * the quote's base and quote currency, what the destination receives and the rate it means (by the
 * server's own arithmetic, rates.ts), and the input the form posts.
 */
export const useMovementFigures = (mode: Mode, values: Values) => {
  const locale = useLocale();
  const minorUnits = useMinorUnits();
  const accounts = useAllAccounts();
  const accountOf = (id: string) => accounts.data?.items.find((a) => a.id === id);
  const from = accountOf(values.fromAccountId);
  const to = accountOf(values.toAccountId);
  const fromDigits = minorUnits(from?.currency ?? "");
  const toDigits = minorUnits(to?.currency ?? "");
  const fromCurrency = from ? { code: from.currency, minorUnits: fromDigits } : null;
  const toCurrency = to ? { code: to.currency, minorUnits: toDigits } : null;
  // The quote's base: as chosen, else the stronger currency ("1 USD = … UZS", "1 EUR = … USD").
  const base =
    values.quoteBase && [from?.currency, to?.currency].includes(values.quoteBase)
      ? values.quoteBase
      : from && to
        ? naturalQuoteBase(from.currency, to.currency)
        : (from?.currency ?? to?.currency ?? "");
  const quoteCurrency = base === from?.currency ? (to?.currency ?? "") : (from?.currency ?? "");
  // Each number as the language reads it (the fields' own rules refuse the rest before posting).
  const amountRead = readNumber(values.amount, locale, amountRules(from?.currency, fromDigits));
  const receivedRead = readNumber(values.amountReceived, locale, amountRules(to?.currency, toDigits));
  const rateRead = readNumber(values.quoteRate, locale, RATE_RULES);

  // What the destination receives and the rate it means.
  let destination: bigint | null = null;
  let reading: string | null = null;
  if (
    mode === "exchange" &&
    amountRead.ok &&
    fromCurrency &&
    toCurrency &&
    fromCurrency.code !== toCurrency.code
  ) {
    const amountIn = amountRead.scaled;
    if (values.how === "received" && receivedRead.ok) {
      destination = receivedRead.scaled;
    } else if (values.how === "quote" && rateRead.ok) {
      const ratio = quoteRatio(
        { base, quote: quoteCurrency, rate: rateRead.decimal },
        fromCurrency,
        toCurrency,
      );
      if (ratio) destination = applyRatio(amountIn, ratio);
    }
    if (destination !== null && destination > 0n) {
      reading = quoteText(marketQuoteOf(amountIn, destination, fromCurrency, toCurrency), locale);
    }
  }

  /** What the form posts: the numbers as read (exact), the rest as typed. */
  const inputOf = (current: Values): Record<string, unknown> => {
    const amount = readNumber(current.amount, locale, amountRules(from?.currency, fromDigits));
    const common = {
      fromAccountId: current.fromAccountId,
      toAccountId: current.toAccountId,
      amount: amount.ok ? amount.scaled.toString() : current.amount,
      date: current.date,
      comment: current.comment,
    };
    if (mode === "transfer") return common;
    if (current.how === "received") {
      const received = readNumber(current.amountReceived, locale, amountRules(to?.currency, toDigits));
      return { ...common, amountReceived: received.ok ? received.scaled.toString() : current.amountReceived };
    }
    const rate = readNumber(current.quoteRate, locale, RATE_RULES);
    return {
      ...common,
      marketRate: { base, quote: quoteCurrency, rate: rate.ok ? rate.decimal : current.quoteRate },
    };
  };

  const currencies = [from?.currency, to?.currency].filter((code): code is string => Boolean(code));
  return {
    accounts,
    accountOf,
    from,
    to,
    fromDigits,
    toDigits,
    base,
    quoteCurrency,
    currencies,
    destination,
    reading,
    inputOf,
  };
};

export type MovementFigures = ReturnType<typeof useMovementFigures>;
