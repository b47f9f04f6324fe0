-- The platform role announces platform-wide facts through the outbox, in the transaction that makes
-- them: an OIDC client deactivated (its tokens stop working in every organization) is raised with the
-- client's update, as hisob_platform. It may write and read back (Prisma's INSERT … RETURNING) only
-- events that belong to no tenant; a tenant's events stay invisible to it.
CREATE POLICY platform_events ON outbox_events TO hisob_platform
  USING (tenant_id IS NULL) WITH CHECK (tenant_id IS NULL);
GRANT SELECT, INSERT ON outbox_events TO hisob_platform;
