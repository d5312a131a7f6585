/*
 * Packages only some requests or deployments need, loaded by the first use instead of at start-up
 * (bench/startup.mjs): exceljs (≈ 0.3 s of loading with its zip reader) for spreadsheet imports and
 * templates, archiver for the files' zip download, ftp-srv (≈ 0.2 s) only when CSMS_FTP_PORT is set.
 * Node keeps a module once loaded.
 */
export const loadExcel = async () => (await import('exceljs')).default;
export const loadJsZip = async () => (await import('jszip')).default;
export const loadArchiver = async () => (await import('archiver')).ZipArchive;
export const loadFtpSrv = async () => {
  const m = await import('ftp-srv');
  return { FtpSrv: m.FtpSrv, FileSystem: m.FileSystem };
};
