import { type AuditWho, type Outbox, type RawTenantTx, sqlParams, stageAudit } from "@hisob/db";
import type { DomainEvent } from "@hisob/kernel";
import { outOfRange } from "./ledger";
import { type DocumentPosting, type PostedRow, postingStatement } from "./post-document";
import { explainRefusal } from "./refused-posting";

/**
 * A payment or expense posted in a driver transaction (raw-tenant.ts) as ONE statement that also
 * writes the outbox event and the audit entry: balance, entry, document, event and audit travel
 * together. A refused posting changes nothing at all (its UPDATE matched no row), so the statement
 * commits as it returns (`commit`): on PostgreSQL the scoping statement and it are ONE round trip,
 * the pipeline's own transaction. The event and the entry are written once per inserted document and carry the
 * account's currency, which the statement learns from its UPDATE. The outbox dispatches the event
 * after COMMIT (`outbox.stage` registers that on `tx`); a refusal is explained afterwards.
 */
export const postDocumentRaw = async (
  tx: RawTenantTx,
  outbox: Outbox,
  p: DocumentPosting,
  facts: {
    event: DomainEvent;
    audit: { who: AuditWho; entity: string; after: Record<string, unknown> };
  },
  /** False when more of the transaction follows (an idempotency key's answer, idempotency.ts). */
  options: { commit: boolean } = { commit: true },
): Promise<string> => {
  const params = sqlParams();
  const currency = "jsonb_build_object('currency', (SELECT currency_code::text FROM moved))";
  // The steps read `document` and `moved`, the posting statement's CTEs (their placeholders are
  // numbered first; the order of numbering does not matter).
  const event = outbox.stage(tx, params, facts.event, { from: "document", mergePayload: currency });
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
  let rows: PostedRow[];
  try {
    // A few fixed texts (payment or expense, currency stated or not), run on every posting: prepared.
    // It changes nothing unless it posts, so it commits as it returns.
    rows = await tx.query<PostedRow>(text, params.values, { prepared: true, commit: options.commit });
  } catch (error) {
    throw outOfRange(error, "accountId");
  }
  const posted = rows[0]?.currency_code;
  if (!posted) throw await explainRefusal((sql, values) => tx.query(sql, values), p);
  return posted;
};
