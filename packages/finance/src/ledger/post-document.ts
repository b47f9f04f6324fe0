import {
  type AuditWho,
  afterCommit,
  type Outbox,
  type RawTenantTx,
  type SqlParams,
  sqlParams,
  stageAudit,
  type Tx,
} from "@hisob/db";
import type { DomainEvent } from "@hisob/kernel";
import { periodOpenSql } from "../periods/closed-period";
import { outOfRange } from "./ledger";
import { explainRefusal, type RunSql } from "./refused-posting";

/**
 * A payment or expense posted as ONE statement: the balance UPDATE with its overdraft condition, the
 * ledger entry (carrying the document's id) and the document are data-modifying CTEs of a single
 * statement, so the posting is one round trip and all-or-nothing by construction — an account that is unknown, in another currency
 * than the one stated or short of money updates no row, so nothing is inserted; an unknown
 * counterparty or category fails the document's tenant-scoped foreign key and the whole statement
 * with it. The UPDATE comes first: within one statement the account's row lock is held until commit
 * either way. A date in a closed period moves nothing either (periods/closed-period.ts). The outbox event and the audit entry are further steps that read from `document`, so
 * a refused posting writes none of them either.
 *
 * This is the ONE write path of a new payment or expense (docs/decisions/0091-tests-beside-their-features.md):
 * `postDocument` runs the same statement in either kind of transaction — the driver's (raw-tenant.ts;
 * `payments.create`) or Prisma's (`createIn`, a debt settlement that changes the debt in the same
 * transaction).
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

type PostedRow = { currency_code: string | null };

/**
 * The posting statement with its values in `params`. `then` adds further data-modifying steps as
 * named CTEs, each an `INSERT … SELECT … FROM document` (see outbox.stage, stageAudit).
 */
const postingStatement = (p: DocumentPosting, params: SqlParams, then: string[] = []): string => {
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
           AND ${periodOpenSql(tenant, date)}
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

/**
 * The transaction the posting runs in. `driver`: a driver transaction (raw-tenant.ts); a refused
 * posting changes nothing at all (its UPDATE matched no row), so the statement commits as it
 * returns (`commit`): on PostgreSQL the scoping statement and it are ONE round trip, the pipeline's
 * own transaction; `commit: false` when more of the transaction follows (an idempotency key's
 * answer, idempotency.ts). `prisma`: a Prisma transaction the caller holds and commits.
 */
export type PostingTx = { driver: RawTenantTx; commit: boolean } | { prisma: Tx };

/** What the posting records besides the money: its outbox event and its audit entry. */
export type PostingFacts = {
  event: DomainEvent;
  audit: { who: AuditWho; entity: string; after: Record<string, unknown> };
};

/**
 * Posts `p` with its event and its audit entry as ONE statement; returns the account's currency.
 * The event and the entry are written once per inserted document and carry the account's
 * currency, which the statement learns from its UPDATE. The outbox dispatches the event after
 * COMMIT (`outbox.stage` registers that on the transaction); a refusal is explained afterwards.
 */
export const postDocument = async (
  on: PostingTx,
  outbox: Outbox,
  p: DocumentPosting,
  facts: PostingFacts,
): Promise<string> => {
  const params = sqlParams();
  const currency = "jsonb_build_object('currency', (SELECT currency_code::text FROM moved))";
  const hooks =
    "driver" in on ? on.driver : { afterCommit: (callback: () => void) => afterCommit(on.prisma, callback) };
  // The steps read `document` and `moved`, the posting statement's CTEs (their placeholders are
  // numbered first; the order of numbering does not matter).
  const event = outbox.stage(hooks, params, facts.event, { from: "document", mergePayload: currency });
  const audit = stageAudit(
    params,
    facts.audit.who,
    facts.audit.entity,
    p.documentId,
    "create",
    { after: facts.audit.after },
    { from: "document", mergeAfter: currency },
  );
  const text = postingStatement(p, params, [event.sql, audit]);
  const run: RunSql =
    "driver" in on
      ? (sql, values) => on.driver.query(sql, values)
      : (sql, values) => on.prisma.$queryRawUnsafe(sql, ...values);
  let rows: PostedRow[];
  try {
    rows =
      "driver" in on
        ? // A few fixed texts (payment or expense, currency stated or not), run on every posting: prepared.
          // It changes nothing unless it posts, so it commits as it returns.
          await on.driver.query<PostedRow>(text, params.values, { prepared: true, commit: on.commit })
        : await on.prisma.$queryRawUnsafe<PostedRow[]>(text, ...params.values);
  } catch (error) {
    throw outOfRange(error, "accountId");
  }
  const posted = rows[0]?.currency_code;
  if (!posted) throw await explainRefusal(run, p);
  return posted;
};
