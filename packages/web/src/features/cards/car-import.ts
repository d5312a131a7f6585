import type { CarImportReport } from '@csms/contract';
import { reportCsv as kitReportCsv } from '../../shared/import/import-report';

/** The car import's report as CSV: the kit's, keyed by plate. */
export const reportCsv = (report: CarImportReport, label: (key: string) => string, summary: string): string =>
  kitReportCsv(report, 'plate', label, summary);
