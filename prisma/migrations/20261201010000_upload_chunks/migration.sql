-- CreateTable
CREATE TABLE "upload_chunks" (
    "tenant_id" UUID NOT NULL,
    "upload_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upload_chunks_pkey" PRIMARY KEY ("tenant_id","upload_id","seq")
);

-- AddForeignKey
ALTER TABLE "upload_chunks" ADD CONSTRAINT "upload_chunks_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: uploaded files are mostly compressed already (images, PDFs, office documents), so
-- PostgreSQL stores chunks out of line without trying to compress them again.
ALTER TABLE "upload_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;

-- Prisma does not model policies or grants. A tenant sees only its own chunks.
SELECT hisob_protect_tenant_table('upload_chunks');
