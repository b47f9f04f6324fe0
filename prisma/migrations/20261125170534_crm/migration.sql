-- CreateEnum
CREATE TYPE "CrmClientKind" AS ENUM ('person', 'company');

-- CreateEnum
CREATE TYPE "CrmChatChannel" AS ENUM ('phone', 'email', 'telegram', 'whatsapp', 'sms', 'web', 'visit', 'other');

-- CreateEnum
CREATE TYPE "CrmChatStatus" AS ENUM ('open', 'closed');

-- CreateEnum
CREATE TYPE "CrmMessageDirection" AS ENUM ('inbound', 'outbound');

-- CreateTable
CREATE TABLE "crm_clients" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" "CrmClientKind" NOT NULL DEFAULT 'person',
    "name" TEXT NOT NULL,
    "phone" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "tin" TEXT NOT NULL DEFAULT '',
    "notes" TEXT NOT NULL DEFAULT '',
    "counterparty_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crm_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crm_chats" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "channel" "CrmChatChannel" NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "status" "CrmChatStatus" NOT NULL DEFAULT 'open',
    "last_message_at" TIMESTAMPTZ(3),
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crm_chats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crm_messages" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "chat_id" UUID NOT NULL,
    "direction" "CrmMessageDirection" NOT NULL,
    "author_user_id" UUID NOT NULL,
    "body" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crm_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "crm_clients_tenant_id_name_idx" ON "crm_clients"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "crm_clients_tenant_id_counterparty_id_idx" ON "crm_clients"("tenant_id", "counterparty_id");

-- CreateIndex
CREATE UNIQUE INDEX "crm_clients_tenant_id_id_key" ON "crm_clients"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "crm_chats_tenant_id_client_id_idx" ON "crm_chats"("tenant_id", "client_id");

-- CreateIndex
CREATE INDEX "crm_chats_tenant_id_status_updated_at_idx" ON "crm_chats"("tenant_id", "status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "crm_chats_tenant_id_id_key" ON "crm_chats"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "crm_messages_tenant_id_chat_id_sent_at_id_idx" ON "crm_messages"("tenant_id", "chat_id", "sent_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "crm_messages_tenant_id_id_key" ON "crm_messages"("tenant_id", "id");

-- AddForeignKey
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_tenant_id_counterparty_id_fkey" FOREIGN KEY ("tenant_id", "counterparty_id") REFERENCES "counterparties"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crm_chats" ADD CONSTRAINT "crm_chats_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crm_chats" ADD CONSTRAINT "crm_chats_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "crm_clients"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crm_messages" ADD CONSTRAINT "crm_messages_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crm_messages" ADD CONSTRAINT "crm_messages_tenant_id_chat_id_fkey" FOREIGN KEY ("tenant_id", "chat_id") REFERENCES "crm_chats"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- Invariants the database keeps even if code forgets (hand-written: Prisma does not model CHECKs).
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_name_check" CHECK (btrim("name") <> '');
ALTER TABLE "crm_messages" ADD CONSTRAINT "crm_messages_body_check" CHECK (btrim("body") <> '');

-- Row-level security (hand-written: Prisma does not model it).
SELECT hisob_protect_tenant_table('crm_clients');
SELECT hisob_protect_tenant_table('crm_chats');
SELECT hisob_protect_tenant_table('crm_messages');
-- Messages are append-only: requests (the tenant role) may add and read them, never change or remove one.
REVOKE UPDATE, DELETE ON "crm_messages" FROM hisob_tenant;
