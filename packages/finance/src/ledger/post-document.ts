import { type SqlParams, sqlParams, type Tx } from "@hisob/db";
import { outOfRange } from "./ledger";
import { explainRefusal } from "./refused-posting";

/**
 * A payment or expense posted as ONE statement: the balance UPDATE with its overdraft condition, the
 * ledger entry (carrying the document's id) and the document are data-modifying CTEs of a single
 * statement, so the posting is one round trip and all-or-nothing by construction — an account that is unknown, in another currency
 * than the one stated or short of money updates no row, so nothing is inserted; an unknown
 * counterparty or category fails the document's tenant-scoped foreign key and the whole statement
 * with it. The UPDATE comes first: within one statement the account's row lock is held until commit
 * either way. Steps the caller adds (`then`: the outbox event, the audit entry) read from `document`,
 * so a refused posting writes none of them either; see `postDocumentRaw` (post-document-raw.ts).
 */
export type DocumentPosting = {
  tenantId: string;
  table: "payments" | "expenses";
  transactionType: "income" | "expense";
  /** Signed change of the account's balance (payments add, expenses subtract). */
  delta: bigint;
  accountId: string;
  /** The currency the caller stated: the account must hold it (else nothing moves); undefined: any. */
  currency?: string | undefined;
  /** Which side of the ledger entry the account is on. */
  side: "origin" | "destination";
  transactionId: string;
  documentId: string;
  amount: bigint;
  /** `YYYY-MM-DD`. */
  date: string;
  counterpartyId: string | null;
  categoryId: string | null;
  comment: string;
  createdBy: string;
  now: Date;
};

export type PostedRow = { currency_code: string | null };

/**
 * The posting statement with its values in `params`. `then` adds further data-modifying steps as
 * named CTEs, each an `INSERT … SELECT … FROM document` (see outbox.stage, stageAudit).
 */
export const postingStatement = (p: DocumentPosting, params: SqlParams, then: string[] = []): string => {
  const $ = (value: unknown) => params.add(value);
  const table = p.table === "payments" ? "payments" : "expenses";
  const origin = p.side === "origin" ? p.accountId : null;
  const destination = p.side === "destination" ? p.accountId : null;
  const tenant = $(p.tenantId);
  const account = $(p.accountId);
  const delta = $(p.delta);
  const amount = $(p.amount);
  const date = $(p.date);
  const now = $(p.now);
  const comment = $(p.comment);
  const createdBy = $(p.createdBy);
  const documentId = $(p.documentId);
  const currency = p.currency === undefined ? "" : ` AND currency_code = ${$(p.currency)}::text`;
  const steps = then.map((sql, i) => `, step${i} AS (${sql})`).join("");
  return `
      WITH moved AS (
        UPDATE money_accounts
           SET balance = balance + ${delta}::bigint, updated_at = ${now}::timestamptz
         WHERE tenant_id = ${tenant}::uuid AND id = ${account}::uuid${currency}
           AND (allow_overdraft OR balance + ${delta}::bigint >= 0)
     RETURNING currency_code
      ), entry AS (
        INSERT INTO transactions (id, tenant_id, type, amount, date, origin_account_id,
                                  destination_account_id, comment, created_by, created_at, document_id)
        SELECT ${$(p.transactionId)}::uuid, ${tenant}::uuid, ${$(p.transactionType)}::transaction_type,
               ${amount}::bigint, ${date}::date, ${$(origin)}::uuid, ${$(destination)}::uuid, ${comment}::text,
               ${createdBy}::uuid, ${now}::timestamptz, ${documentId}::uuid
          FROM moved
     RETURNING id
      ), document AS (
        INSERT INTO ${table} (id, tenant_id, account_id, counterparty_id, category_id, amount, date,
                              comment, transaction_id, created_by, created_at, updated_at)
        SELECT ${documentId}::uuid, ${tenant}::uuid, ${account}::uuid, ${$(p.counterpartyId)}::uuid,
               ${$(p.categoryId)}::uuid, ${amount}::bigint, ${date}::date, ${comment}::text, entry.id,
               ${createdBy}::uuid, ${now}::timestamptz, ${now}::timestamptz
          FROM entry
     RETURNING id
      )${steps}
      SELECT (SELECT currency_code FROM moved) AS currency_code`;
};

/** Posts `p` in a Prisma transaction `tx` (a debt settlement's); returns the account's currency. */
export const postDocument = async (tx: Tx, p: DocumentPosting): Promise<string> => {
  const params = sqlParams();
  const text = postingStatement(p, params);
  let rows: PostedRow[];
  try {
    rows = await tx.$queryRawUnsafe<PostedRow[]>(text, ...params.values);
  } catch (error) {
    throw outOfRange(error, "accountId");
  }
  const currency = rows[0]?.currency_code;
  if (!currency) {
    throw await explainRefusal((text, values) => tx.$queryRawUnsafe(text, ...values), p);
  }
  return currency;
};
