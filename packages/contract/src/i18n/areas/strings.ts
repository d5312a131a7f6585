/** The shape a translation must have: the same keys as the Chinese original, every leaf a string. */
export type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

/**
 * One area's share of the domain vocabulary. Each area keeps its Chinese and English copy in one
 * file under `areas/`, so areas can grow side by side; zh-CN.ts and en-US.ts merge them.
 */
export interface AreaVocabulary {
  fields: Record<string, Record<string, string>>;
  enums: Record<string, Record<string, string>>;
  /** Export sources this area adds (`enums.exportSource`). */
  exportSource: Record<string, string>;
  /** System-log operation kinds this area adds (`enums.operation`). */
  operation: Record<string, string>;
  errors: Record<string, Record<string, string>>;
  validation: Record<string, string>;
}
