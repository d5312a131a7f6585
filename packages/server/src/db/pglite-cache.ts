/**
 * PGlite's page cache (PostgreSQL's shared_buffers inside its WebAssembly memory, all of it resident
 * once started) unless `CSMS_PGLITE_CACHE_MB` says otherwise. PostgreSQL's default of 128 MB made an
 * empty database's server about 100 MB heavier; pages beyond the cache come from the operating
 * system's file cache (bench/startup.mjs, bench/ocpp.mjs).
 */
export const DEFAULT_PGLITE_CACHE_MB = 32;
