-- CreateTable
CREATE TABLE "oidc_clients" (
    "id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT,
    "application_type" TEXT NOT NULL DEFAULT 'web',
    "redirect_uris" TEXT[],
    "post_logout_redirect_uris" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "grant_types" TEXT[],
    "response_types" TEXT[],
    "scopes" TEXT[],
    "require_pkce" BOOLEAN NOT NULL DEFAULT false,
    "is_first_party" BOOLEAN NOT NULL DEFAULT false,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oidc_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_signing_keys" (
    "id" UUID NOT NULL,
    "algorithm" TEXT NOT NULL DEFAULT 'RS256',
    "public_jwk" JSONB NOT NULL,
    "private_key_encrypted" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "oidc_signing_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_authorization_codes" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "nonce" TEXT,
    "code_challenge" TEXT,
    "code_challenge_method" TEXT,
    "auth_time" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "grant_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_authorization_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_grants" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "nonce" TEXT,
    "auth_time" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_tokens" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "grant_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "rotated_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oidc_clients_client_id_key" ON "oidc_clients"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "oidc_authorization_codes_code_hash_key" ON "oidc_authorization_codes"("code_hash");

-- CreateIndex
CREATE INDEX "oidc_authorization_codes_tenant_id_expires_at_idx" ON "oidc_authorization_codes"("tenant_id", "expires_at");

-- CreateIndex
CREATE INDEX "oidc_grants_tenant_id_user_id_idx" ON "oidc_grants"("tenant_id", "user_id");

-- CreateIndex
CREATE INDEX "oidc_grants_tenant_id_session_id_idx" ON "oidc_grants"("tenant_id", "session_id");

-- CreateIndex
CREATE UNIQUE INDEX "oidc_tokens_token_hash_key" ON "oidc_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "oidc_tokens_tenant_id_grant_id_idx" ON "oidc_tokens"("tenant_id", "grant_id");

-- AddForeignKey
ALTER TABLE "oidc_authorization_codes" ADD CONSTRAINT "oidc_authorization_codes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_authorization_codes" ADD CONSTRAINT "oidc_authorization_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_authorization_codes" ADD CONSTRAINT "oidc_authorization_codes_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_grants" ADD CONSTRAINT "oidc_grants_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_grants" ADD CONSTRAINT "oidc_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_grants" ADD CONSTRAINT "oidc_grants_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_tokens" ADD CONSTRAINT "oidc_tokens_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oidc_grants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Row-level security (hand-written: Prisma does not model it). Clients and signing keys are
-- platform-wide; codes, grants and tokens belong to the user's tenant.
SELECT hisob_platform_table('oidc_clients');
-- Signing keys are for the platform role alone (tenants have no reason to read even their public part here).
GRANT SELECT, INSERT, UPDATE, DELETE ON oidc_signing_keys TO hisob_platform;
SELECT hisob_protect_tenant_table('oidc_authorization_codes');
SELECT hisob_protect_tenant_table('oidc_grants');
SELECT hisob_protect_tenant_table('oidc_tokens');
