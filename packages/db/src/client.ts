export { Prisma, PrismaClient } from "./generated/prisma/client";

import type { Prisma } from "./generated/prisma/client";

/** The transaction handle every repository works with. */
export type Tx = Prisma.TransactionClient;
