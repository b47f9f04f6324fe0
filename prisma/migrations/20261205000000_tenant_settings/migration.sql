-- CreateTable
CREATE TABLE "tenant_settings" (
    "tenant_id" UUID NOT NULL,
    "base_currency_code" CHAR(3),
    "setup_step" INTEGER,
    "setup_finished" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tenant_settings_pkey" PRIMARY KEY ("tenant_id")
);

-- AddForeignKey
ALTER TABLE "tenant_settings" ADD CONSTRAINT "tenant_settings_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tenant_settings" ADD CONSTRAINT "tenant_settings_base_currency_fkey" FOREIGN KEY ("tenant_id", "base_currency_code") REFERENCES "tenant_currencies"("tenant_id", "currency_code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Prisma does not model policies or grants. A tenant sees only its own settings.
SELECT hisob_protect_tenant_table('tenant_settings');
