/**
 * A domain event as written to the outbox. `type` is the event name (e.g. "PaymentCreated");
 * `payload` must be JSON-serialisable (bigints as decimal strings).
 */
export type DomainEvent<TType extends string = string, TPayload = Record<string, unknown>> = {
  type: TType;
  tenantId: string | null;
  payload: TPayload;
};

/** A dispatched event carries its outbox id (use it to make handlers idempotent) and time. */
export type DispatchedEvent = DomainEvent & { id: string; occurredAt: Date };

export type EventHandler = (event: DispatchedEvent) => Promise<void> | void;
