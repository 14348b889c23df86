/**
 * The spec's bug texts, copied from domain's bugMessages so the
 * read-only screens need not load domain's schemas (and zod) to show one sentence.
 */
export const bugMessages = {
  noPermissionToView: "You don't have permission to view this bug",
  notFound: 'Bug not found',
  notFoundOrForbidden: "Bug not found or you don't have permission to view it",
} as const;
