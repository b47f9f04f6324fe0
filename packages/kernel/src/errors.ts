/**
 * The closed set of application error codes and the HTTP status each maps to.
 * Services throw AppError; each transport maps it once (REST, GraphQL, tRPC).
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BUSINESS_RULE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Default reason (a stable, dotted i18n key) and message per code. */
const DEFAULTS: Record<ErrorCode, { reason: string; message: string }> = {
  VALIDATION_ERROR: { reason: "validation.invalid", message: "validation error" },
  UNAUTHENTICATED: { reason: "auth.unauthenticated", message: "Unauthorized" },
  FORBIDDEN: { reason: "auth.forbidden", message: "Forbidden" },
  NOT_FOUND: { reason: "not_found", message: "Not found" },
  CONFLICT: { reason: "conflict", message: "Conflict" },
  BUSINESS_RULE: { reason: "business_rule", message: "The operation breaks a business rule" },
  RATE_LIMITED: { reason: "rate_limited", message: "Too many requests" },
  INTERNAL: { reason: "internal", message: "Internal server error" },
  UNAVAILABLE: { reason: "unavailable", message: "Service unavailable" },
};

/**
 * An amount an error names, kept as data so each language renders it in its own money format
 * (major units, the currency's digits): put it in `params` and name it `{{key}}` in the catalogue.
 */
export type MoneyParam = { minor: string; currency: string; minorUnits: number };

export const moneyParam = (minor: bigint, currency: string, minorUnits: number): MoneyParam => ({
  minor: minor.toString(),
  currency,
  minorUnits,
});

export const isMoneyParam = (value: unknown): value is MoneyParam =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as MoneyParam).minor === "string" &&
  /^-?[0-9]+$/.test((value as MoneyParam).minor) &&
  typeof (value as MoneyParam).currency === "string" &&
  Number.isInteger((value as MoneyParam).minorUnits);

/**
 * A market quote an error names, "1 base = rate quote" (rate: a plain decimal string), kept as data
 * so each language groups its digits its own way ("1 USD = 12,650 UZS", "1 USD = 12 650 UZS").
 */
export type QuoteParam = { base: string; quote: string; rate: string };

export const isQuoteParam = (value: unknown): value is QuoteParam =>
  typeof value === "object" &&
  value !== null &&
  /^[A-Z]{3}$/.test(String((value as QuoteParam).base)) &&
  /^[A-Z]{3}$/.test(String((value as QuoteParam).quote)) &&
  typeof (value as QuoteParam).rate === "string" &&
  /^[0-9]{1,40}(\.[0-9]{1,40})?$/.test((value as QuoteParam).rate);

/**
 * A calendar day an error names (`YYYY-MM-DD`), kept as data so each language writes it its own way
 * ("Jan 31, 2026", "31 янв. 2026 г.", "31.01.2026"), as the apps show dates.
 */
export type DateParam = { isoDate: string };

export const dateParam = (isoDate: string): DateParam => ({ isoDate });

export const isDateParam = (value: unknown): value is DateParam =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as DateParam).isoDate === "string" &&
  /^\d{4}-\d{2}-\d{2}$/.test((value as DateParam).isoDate);

/** One problem with one input field, as reported in VALIDATION_ERROR params. */
export type FieldIssue = { path: string; message: string };

export type AppErrorOptions = {
  /** Stable machine key, also the i18n key (e.g. `finance.insufficient_balance`). */
  reason?: string;
  /** Human-readable English message; transports may localize by `reason`. */
  message?: string;
  /** Values for the message template and extra detail (e.g. field issues). */
  params?: Record<string, unknown>;
  cause?: unknown;
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly reason: string;
  readonly params: Record<string, unknown>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const defaults = DEFAULTS[code];
    super(
      options.message ?? defaults.message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "AppError";
    this.code = code;
    this.reason = options.reason ?? defaults.reason;
    this.params = options.params ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** A VALIDATION_ERROR whose message follows the spec's form `validation error: <field> is required`. */
export const validationError = (issues: FieldIssue[], reason = "validation.invalid"): AppError => {
  const first = issues[0];
  const message = first ? `validation error: ${first.path || "input"} ${first.message}` : "validation error";
  return new AppError("VALIDATION_ERROR", { reason, message, params: { issues } });
};
