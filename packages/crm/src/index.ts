export * from "./chats/chats.schema";
export { MESSAGE_ADDED } from "./chats/chats.service";
export * from "./clients/clients.schema";
export { crmOperations } from "./crm.operations";
export { CRM_PERMISSIONS } from "./crm.permissions";
export { type CrmServices, createCrmServices } from "./crm-services";
