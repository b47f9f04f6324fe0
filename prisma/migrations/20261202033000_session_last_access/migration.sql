-- Sessions say when and through what they were last used (decision 0055): written at most once a
-- minute per session by the request that uses it, so reading a session list stays a plain select.
ALTER TABLE "sessions" ADD COLUMN     "last_access_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "last_client" TEXT NOT NULL DEFAULT 'browser';

-- Sessions already open were last known to be used when they began.
UPDATE "sessions" SET "last_access_at" = "created_at";
