-- A posting's audit entry checks its actor without planning a query each time
-- (docs/decisions/0110-ledger-speed.md).
--
-- hisob_audit_actor_may_write (20261130090000_audit_actor_guard) runs in the WITH CHECK of every audit
-- entry a tenant writes, so in every payment's one posting statement. As a SQL function that cannot be
-- inlined (SECURITY DEFINER, SET search_path) its body was parsed and planned again in every statement
-- that called it: 175 µs a call against 30 µs in PL/pgSQL, whose plan the session keeps (median of 200
-- alternating rounds in one session; the posting profile, bench/profile-posting.ts, had it at 596 µs of
-- a payment's database time at a load average of ~25). Same question, same answer, same owner,
-- privileges and search_path.
CREATE OR REPLACE FUNCTION hisob_audit_actor_may_write(p_user_id uuid, p_tenant_id uuid)
RETURNS boolean LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM users u JOIN tenants t ON t.id = u.tenant_id
     WHERE u.id = p_user_id AND (u.tenant_id = p_tenant_id OR t.is_platform));
END
$$;
