-- Failed sign-ins are counted, not listed: one audit entry per client network (an IPv4 address, an
-- IPv6 /64), audit owner (the user's tenant, or the platform for an unknown email), user and window
-- of 15 minutes, whose `after` carries the number of failures, the first ten distinct emails tried
-- and the time of the last one (docs/decisions/0001-sign-in-failures-per-network.md).
-- Before, every failure was a row of its own, and anyone could add rows without signing in.
--
-- The log stays append-only in substance: the one change the trigger lets through is a counter
-- growing on such an entry. Every column but `after` stays as written, and within `after` the keys
-- written with the entry (email, reason, windowFrom, windowTo) stay; `failures` only grows and `emails` only
-- gains. Nothing recorded can be removed or rewritten.

CREATE OR REPLACE FUNCTION hisob_audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted constant text[] := ARRAY['failures', 'emails', 'lastAt'];
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.action = 'sign_in_failed' AND OLD.entity = 'session'
     AND NEW.id = OLD.id
     AND NEW.tenant_id IS NOT DISTINCT FROM OLD.tenant_id
     AND NEW.occurred_at = OLD.occurred_at
     AND NEW.user_id IS NOT DISTINCT FROM OLD.user_id
     AND NEW.ip IS NOT DISTINCT FROM OLD.ip
     AND NEW.user_agent IS NOT DISTINCT FROM OLD.user_agent
     AND NEW.request_id IS NOT DISTINCT FROM OLD.request_id
     AND NEW.entity = OLD.entity
     AND NEW.entity_id IS NOT DISTINCT FROM OLD.entity_id
     AND NEW.action = OLD.action
     AND NEW.before IS NOT DISTINCT FROM OLD.before
     AND jsonb_typeof(OLD.after -> 'failures') = 'number'
     AND jsonb_typeof(NEW.after -> 'failures') = 'number'
     AND (NEW.after ->> 'failures')::numeric > (OLD.after ->> 'failures')::numeric
     AND (NEW.after -> 'emails') @> (OLD.after -> 'emails')
     AND (NEW.after - counted) = (OLD.after - counted)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

-- The system role (which records sign-in attempts before any tenant is known) finds a window's entry
-- by its id and adds to its counters; it reads and changes nothing else of the log.
GRANT SELECT (id, after), UPDATE (after) ON audit_log TO hisob_system;
CREATE POLICY system_count_sign_in_failures_read ON audit_log FOR SELECT TO hisob_system
  USING (action = 'sign_in_failed');
CREATE POLICY system_count_sign_in_failures ON audit_log FOR UPDATE TO hisob_system
  USING (action = 'sign_in_failed') WITH CHECK (action = 'sign_in_failed');
