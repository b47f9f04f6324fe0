import { Prisma } from "@hisob/db";

/** True when `error` is a unique-constraint violation (Prisma P2002). */
export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/** True when `error` is a foreign-key violation (Prisma P2003): a row something still refers to. */
export const isForeignKeyViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2003";
