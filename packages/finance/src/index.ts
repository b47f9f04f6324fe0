export { FINANCE_PERMISSIONS } from "./finance.permissions";
