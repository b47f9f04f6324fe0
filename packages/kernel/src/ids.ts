import { v7 as uuidv7 } from "uuid";
import { z } from "zod";

/** UUIDv7: time-ordered, so new rows land at the right edge of indexes. */
export const newId = (): string => uuidv7();

export const ZId = z.uuid({ message: "must be a UUID" });
