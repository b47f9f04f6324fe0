-- CreateTable
CREATE TABLE "oidc_consents" (
    "tenant_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oidc_consents_pkey" PRIMARY KEY ("tenant_id","user_id","client_id")
);

-- AddForeignKey
ALTER TABLE "oidc_consents" ADD CONSTRAINT "oidc_consents_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_consents" ADD CONSTRAINT "oidc_consents_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Prisma does not model policies or grants. A tenant sees only its own users' consents.
SELECT hisob_protect_tenant_table('oidc_consents');
