import { crudOperations } from "../operations";
import {
  ZCounterpartyDto,
  ZCreateCounterpartyInput,
  ZListCounterpartiesQuery,
  ZUpdateCounterpartyInput,
} from "./counterparties.schema";

/** Customers and suppliers. */
export const counterpartiesOperations = crudOperations({
  path: "/finance/counterparties",
  tag: "finance: counterparties",
  service: (services) => services.counterparties,
  schemas: {
    list: ZListCounterpartiesQuery,
    listItem: ZCounterpartyDto,
    create: ZCreateCounterpartyInput,
    update: ZUpdateCounterpartyInput,
    item: ZCounterpartyDto,
  },
  access: {
    list: "counterparties:read:all",
    get: "counterparties:read:all",
    create: "counterparties:create:all",
    update: "counterparties:update:all",
    delete: "counterparties:delete:all",
  },
  summaries: {
    list: "List counterparties",
    get: "Get a counterparty",
    create: "Create a counterparty",
    update: "Change a counterparty's details",
    delete: "Delete a counterparty no payment, expense or debt refers to",
  },
});
