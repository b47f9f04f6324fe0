import { DatabaseSetupError } from "@hisob/db";
import { isAppError } from "@hisob/kernel";
import { KeyDecryptionError, KeyStillNeededError } from "@hisob/oidc";
import { EnvError } from "./env";

/** The first start failed in its own process (first-start.ts): described there, reported by the server. */
export class FirstStartError extends Error {
  constructor(
    message: string,
    readonly expected: boolean,
  ) {
    super(message);
    this.name = "FirstStartError";
  }
}

/**
 * Turns the errors an operator can fix (bad configuration, unreachable or locked database,
 * a refused migration, invalid bootstrap credentials) into one clear message; anything else
 * is unexpected and keeps its stack.
 */
export const describeStartupError = (error: unknown): { message: string; expected: boolean } => {
  if (error instanceof EnvError) return { message: error.message, expected: true };
  if (error instanceof FirstStartError) return { message: error.message, expected: error.expected };
  if (error instanceof DatabaseSetupError) return { message: error.message, expected: true };
  if (error instanceof KeyStillNeededError) return { message: error.message, expected: true };
  if (error instanceof KeyDecryptionError) {
    return {
      message: `${error.message}: OIDC_CRYPTO_KEY differs from the key the signing keys were encrypted with`,
      expected: true,
    };
  }
  if (isAppError(error)) {
    const issues = Array.isArray(error.params.issues)
      ? (error.params.issues as Array<{ path: string; message: string }>)
      : [];
    const details =
      issues.length > 1 ? issues.map((issue) => `\n  ${issue.path}: ${issue.message}`).join("") : "";
    return { message: `${error.code}: ${error.message}${details}`, expected: true };
  }
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE" || code === "EACCES") {
    return {
      message: `Cannot listen: ${(error as Error).message}. Is another server using the port? Set PORT.`,
      expected: true,
    };
  }
  return {
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    expected: false,
  };
};
