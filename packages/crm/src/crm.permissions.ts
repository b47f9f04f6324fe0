import { registerPermissions } from "@hisob/kernel";

/** The CRM module's permissions; the `admin` role of every organization gets them at start. */
export const CRM_PERMISSIONS = registerPermissions("crm", {
  "clients:create:all": "Create CRM clients",
  "clients:read:all": "Read CRM clients",
  "clients:update:all": "Update CRM clients",
  "clients:delete:all": "Delete CRM clients that have no chats",
  "chats:create:all": "Open chats with clients",
  "chats:read:all": "Read chats and their messages (and hear new messages live)",
  "chats:update:all": "Change a chat's subject, channel or status (close, reopen)",
  "chats:delete:all": "Delete chats that have no messages",
  "messages:create:all": "Add messages to open chats",
});
