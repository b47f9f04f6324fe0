export { crudPermissions, recordListQuery, recordOperationsOf, ZRecordFilters } from "./record-operations";
export {
  createRecordReads,
  createRecordService,
  existsIn,
  notFound,
  type RecordDefinition,
  type RecordDelegate,
  type RecordDeps,
  type RecordReadDefinition,
  type RecordReference,
  type RecordService,
  recordOrder,
  recordWhere,
  type TRecordListQuery,
} from "./record-service";
