import { en } from "./en";
import { ru } from "./ru";
import { uz } from "./uz";

export const APP_MESSAGES = { app: { en, ru, uz } };
