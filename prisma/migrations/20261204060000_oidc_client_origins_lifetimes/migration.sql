-- A client's browser origins (CORS on the token, userinfo, keys and revoke endpoints) and its own token
-- lifetimes, null meaning the server's settings (decision 0085).
ALTER TABLE "oidc_clients" ADD COLUMN     "web_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "access_token_lifetime" INTEGER,
ADD COLUMN     "refresh_token_lifetime" INTEGER,
ADD COLUMN     "id_token_lifetime" INTEGER;
