import { stringify } from 'csv-stringify/browser/esm/sync';
import { saveBlob } from '../../lib/api';

export type CsvTable = { header: string[]; rows: (string | number | null)[][] };

/** RFC 4180 text (quotes where needed, CRLF), the header first. */
export function toCsv({ header, rows }: CsvTable): string {
  return stringify([header, ...rows.map((row) => row.map((cell) => cell ?? ''))], { record_delimiter: 'windows' });
}

/** Saves the table as a .csv file, the way the report buttons save theirs. */
export function downloadCsv(fileName: string, table: CsvTable) {
  saveBlob(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }), fileName);
}

/** flow-<name>-<the answer's as-of day>.csv */
export function csvFileName(name: string, asOf: string | undefined): string {
  const day = asOf && !Number.isNaN(new Date(asOf).getTime()) ? new Date(asOf).toISOString().slice(0, 10) : '';
  return `flow-${name}${day ? `-${day}` : ''}.csv`;
}
