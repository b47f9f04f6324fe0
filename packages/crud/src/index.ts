export { crudPermissions, recordListQuery, recordOperationsOf, ZRecordFilters } from "./record-operations";
export {
  createRecordService,
  existsIn,
  notFound,
  type RecordDefinition,
  type RecordDelegate,
  type RecordDeps,
  type RecordReference,
  type RecordService,
  type TRecordListQuery,
} from "./record-service";
