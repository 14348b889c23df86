import { z } from 'zod';
import { normaliseViewQuery, viewLimits, viewMessages, viewPathPattern, viewQueryPattern } from './view-vocabulary.js';

export * from './view-vocabulary.js';

const viewId = z.string().min(1).max(100);

/** A user saved a named bug list in their own stream (`views-{userId}`). Stored as decided: trimmed, no leading "?". */
export const viewSavedData = z.object({
  viewId,
  userId: z.string().min(1),
  name: z.string().min(1).max(viewLimits.nameMax),
  path: z.string().min(1).max(viewLimits.pathMax),
  query: z.string().max(viewLimits.queryMax),
});
export type ViewSavedData = z.infer<typeof viewSavedData>;

export const viewDeletedData = z.object({ viewId, userId: z.string().min(1) });
export type ViewDeletedData = z.infer<typeof viewDeletedData>;

/** zod's message for a field that is missing (`required`) or is not a string. */
const text = (required: string, notText: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? required : notText) });

/**
 * `POST /api/views`: the request as write-api validates it (400 with each field's message).
 * `name` is trimmed; `query` may be empty, null or left out, with or without its "?".
 */
export const saveViewBody = z.object({
  name: text(viewMessages.nameRequired, viewMessages.nameNotText)
    .trim()
    .min(1, viewMessages.nameRequired)
    .max(viewLimits.nameMax, viewMessages.nameTooLong),
  // `abort`: one message per field, the first rule it breaks.
  path: text(viewMessages.pathRequired, viewMessages.pathNotText)
    .min(1, { error: viewMessages.pathRequired, abort: true })
    .max(viewLimits.pathMax, { error: viewMessages.pathTooLong, abort: true })
    .regex(viewPathPattern, viewMessages.pathInvalid),
  query: z
    .string({ error: viewMessages.queryNotText })
    // One more for the "?" it may start with.
    .max(viewLimits.queryMax + 1, { error: viewMessages.queryTooLong, abort: true })
    .refine((query) => normaliseViewQuery(query).length <= viewLimits.queryMax, {
      error: viewMessages.queryTooLong,
      abort: true,
    })
    .regex(viewQueryPattern, viewMessages.queryInvalid)
    .nullish(),
});
export type SaveViewBody = z.infer<typeof saveViewBody>;

/** A saved view in an answer (`GET /api/views`, `POST /api/views`). */
export const savedViewDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  path: z.string(),
  query: z.string().describe('The URL query string, without its leading "?" (may be empty)'),
  createdAt: z.string().describe('When it was saved (ISO 8601)'),
});

export const viewEventSchemas = {
  ViewSaved: { version: 1, data: viewSavedData },
  ViewDeleted: { version: 1, data: viewDeletedData },
} as const;
