import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type { Logger } from '@bugtrail/platform';
import ExcelJS from 'exceljs';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A cell a spreadsheet would not read as a formula: text starting with = + - @, a tab
 * or a carriage return gets a leading single quote (CSV/formula injection).
 */
export function neutralise(value: unknown): unknown {
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(value)) return `'${value}`;
  return value;
}

export type SheetColumn = { header: string; key: string; width?: number };

/**
 * Streams one worksheet to the response with exceljs' streaming writer: rows come
 * page by page from `pages`, each row is committed (and leaves memory) at once, and
 * the next page waits while the client is slower than the database.
 */
export function xlsxResponse(
  filename: string,
  sheet: { name: string; columns: SheetColumn[] },
  pages: AsyncIterable<Record<string, unknown>[]>,
  logger: Logger,
): Response {
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const worksheet = workbook.addWorksheet(sheet.name);
  worksheet.columns = sheet.columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 20 }));
  const fill = async () => {
    for await (const page of pages) {
      for (const row of page) {
        const safe: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(row)) safe[key] = neutralise(value);
        worksheet.addRow(safe).commit();
      }
      if (out.destroyed) return; // the client went away: stop reading the database
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    }
    worksheet.commit();
    await workbook.commit();
  };
  fill().catch((error: unknown) => {
    logger.error('export failed', { error, filename });
    out.destroy(error as Error);
  });
  return new Response(Readable.toWeb(out) as ReadableStream, {
    status: 200,
    headers: {
      'Content-Type': XLSX_TYPE,
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
