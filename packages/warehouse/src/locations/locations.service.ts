import { createRecordService, crudPermissions, type RecordDeps } from "@hisob/crud";
import type { Prisma } from "@hisob/db";
import {
  LOCATION_SORT_FIELDS,
  type TLocationDto,
  ZCreateLocationInput,
  ZUpdateLocationInput,
} from "./locations.schema";

const locationSelect = {
  id: true,
  code: true,
  name: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.WarehouseLocationSelect;

type LocationRow = Prisma.WarehouseLocationGetPayload<{ select: typeof locationSelect }>;

/** Where goods are kept (a warehouse, a shop, a shelf zone). */
export const createLocationsService = (deps: RecordDeps) =>
  createRecordService(
    {
      name: "Location",
      auditEntity: "warehouse_location",
      missing: { reason: "warehouse.location_not_found", message: "Location not found" },
      permissions: crudPermissions("locations"),
      model: (tx) => tx.warehouseLocation,
      select: locationSelect,
      toDto: (row: LocationRow): TLocationDto => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
      createInput: ZCreateLocationInput,
      updateInput: ZUpdateLocationInput,
      sortFields: LOCATION_SORT_FIELDS,
      filters: { code: { kind: "string" }, name: { kind: "string" } },
      // Rows left at zero by past movements are not stock: they go with it. Any quantity above zero refuses.
      beforeDelete: async (tx, ctx, current) => {
        await tx.warehouseStock.deleteMany({
          where: { tenantId: ctx.tenantId, locationId: current.id, quantity: 0 },
        });
      },
      conflicts: {
        unique: { reason: "warehouse.location_code_taken", message: "Another location has this code" },
        inUse: {
          reason: "warehouse.location_in_use",
          message: "Stock or orders refer to the location; it cannot be deleted",
        },
      },
    },
    deps,
  );

export type LocationsService = ReturnType<typeof createLocationsService>;
