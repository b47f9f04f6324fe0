-- CreateTable
CREATE TABLE "employees" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "position" TEXT NOT NULL DEFAULT '',
    "department" TEXT NOT NULL DEFAULT '',
    "hire_date" DATE NOT NULL,
    "salary" BIGINT,
    "salary_currency" CHAR(3),
    "user_id" UUID,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "employees_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "employees_user_id_key" ON "employees"("user_id");

-- CreateIndex
CREATE INDEX "employees_tenant_id_last_name_first_name_idx" ON "employees"("tenant_id", "last_name", "first_name");

-- CreateIndex
CREATE INDEX "employees_tenant_id_department_idx" ON "employees"("tenant_id", "department");

-- CreateIndex
CREATE UNIQUE INDEX "employees_tenant_id_id_key" ON "employees"("tenant_id", "id");

-- AddForeignKey
ALTER TABLE "employees" ADD CONSTRAINT "employees_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "employees" ADD CONSTRAINT "employees_tenant_id_salary_currency_fkey" FOREIGN KEY ("tenant_id", "salary_currency") REFERENCES "tenant_currencies"("tenant_id", "currency_code") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "employees" ADD CONSTRAINT "employees_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Invariants the database keeps even if code forgets (hand-written: Prisma does not model CHECKs).
ALTER TABLE "employees" ADD CONSTRAINT "employees_salary_check" CHECK (
  ("salary" IS NULL) = ("salary_currency" IS NULL) AND ("salary" IS NULL OR "salary" >= 0)
);

-- Row-level security (hand-written: Prisma does not model it).
SELECT hisob_protect_tenant_table('employees');
