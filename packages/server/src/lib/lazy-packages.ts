/*
 * Packages only some requests need, loaded by the first of them instead of at start-up: exceljs
 * (≈ 0.3 s of loading with its zip reader) for spreadsheet imports and templates, archiver for the
 * files' zip download (bench/startup.mjs). Node keeps a module once loaded.
 */
export const loadExcel = async () => (await import('exceljs')).default;
export const loadArchiver = async () => (await import('archiver')).ZipArchive;
