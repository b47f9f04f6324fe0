/** A database problem an operator can act on: printed as a clear message, never a bare stack. */
export class DatabaseSetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseSetupError";
  }
}

const describe = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as Error & { code?: string }).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
};

/** Rewrites a failed PostgreSQL connection into a message naming the server (never the password). */
export const connectionError = (connectionString: string, error: unknown): DatabaseSetupError => {
  let where = "the configured server";
  try {
    const url = new URL(connectionString);
    where = `${url.hostname}:${url.port || "5432"}/${url.pathname.replace(/^\//, "")} as ${decodeURIComponent(url.username) || "(default user)"}`;
  } catch {
    // keep the generic wording; the URL itself was validated at boot
  }
  return new DatabaseSetupError(
    `Cannot connect to PostgreSQL at ${where} (${describe(error)}). Is the server running and DATABASE_URL right?`,
    { cause: error },
  );
};
