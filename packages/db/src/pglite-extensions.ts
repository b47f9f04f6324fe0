import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * The extensions every embedded database loads: the migrations create them (users_search_trgm:
 * pg_trgm's trigram indexes make the users' substring search fast). Every `new PGlite(…)` of ours
 * passes these, or a migration that needs one fails.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };
