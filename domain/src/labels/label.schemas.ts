import { z } from 'zod';

/**
 * Labels (api.md "Labels", issue 36): admin-managed, coloured names that bugs carry. A label is
 * one stream (`label-{id}`); its name is unique case-insensitively among the labels that exist
 * (write-api claims it in the append's transaction). Deleting a label takes it off every bug,
 * as events of those bugs (the label cleanup reactor).
 */
export const labelLimits = { nameMax: 50, descriptionMax: 500, perBug: 20 } as const;

export const labelMessages = {
  exists: 'Label already exists',
  notFound: 'Label not found',
  adminsOnly: 'Only admins can manage labels',
  nameRequired: 'Label name is required',
  nameTooLong: `Label name must be at most ${labelLimits.nameMax} characters`,
  colorInvalid: 'Color must be #rrggbb',
  descriptionTooLong: `Label description must be at most ${labelLimits.descriptionMax} characters`,
  unknown: 'Unknown label',
  tooMany: `A bug carries at most ${labelLimits.perBug} labels`,
  labelIdsInvalid: 'labelIds must be a list of label ids',
  cannotLabel: "You don't have permission to change this bug's labels",
} as const;

export const labelColorPattern = /^#[0-9a-fA-F]{6}$/;

const labelId = z.string().min(1).max(100);
const name = z.string().min(1).max(labelLimits.nameMax);
const color = z.string().regex(labelColorPattern);
const description = z.string().max(labelLimits.descriptionMax);

export const labelEventSchemas = {
  LabelCreated: { version: 1, data: z.object({ labelId, name, color, description }) },
  /** Only what changed is in it. */
  LabelChanged: {
    version: 1,
    data: z.object({ labelId, name: name.optional(), color: color.optional(), description: description.optional() }),
  },
  /** Its bugs lose it by their own events (BugLabelRemoved), appended by the label cleanup reactor. */
  LabelDeleted: { version: 1, data: z.object({ labelId, name }) },
} as const;

type Schemas = typeof labelEventSchemas;
export type LabelEventData<Type extends keyof Schemas> = z.infer<Schemas[Type]['data']>;

const nameField = z
  .string({ error: labelMessages.nameRequired })
  .trim()
  .min(1, { error: labelMessages.nameRequired, abort: true })
  .max(labelLimits.nameMax, labelMessages.nameTooLong);
const colorField = z
  .string({ error: labelMessages.colorInvalid })
  .trim()
  .regex(labelColorPattern, labelMessages.colorInvalid);
const descriptionField = z
  .string({ error: labelMessages.descriptionTooLong })
  .trim()
  .max(labelLimits.descriptionMax, labelMessages.descriptionTooLong)
  .nullish();

/** `POST /api/labels`. */
export const createLabelBody = z.object({ name: nameField, color: colorField, description: descriptionField });
/** `PATCH /api/labels/{id}`: only what is sent changes. */
export const updateLabelBody = z.object({
  name: nameField.optional(),
  color: colorField.optional(),
  description: descriptionField,
});
/** `PUT /api/bugs/{id}/labels`. */
export const bugLabelsBody = z.object({
  labelIds: z
    .array(z.string({ error: labelMessages.labelIdsInvalid }).trim().min(1).max(100), {
      error: labelMessages.labelIdsInvalid,
    })
    .max(labelLimits.perBug, labelMessages.tooMany),
});

/** A label in an answer (`GET /api/labels`, and `labels` on every bug without `description`). */
export const labelDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  color: z.string().describe('#rrggbb'),
  description: z.string(),
});
export type LabelDto = z.infer<typeof labelDtoSchema>;
export type LabelRef = Pick<LabelDto, '_id' | 'name' | 'color'>;

/** Two names are the same label when they differ only in case (or surrounding spaces). */
export const labelNameKey = (name: string): string => name.trim().toLocaleLowerCase('en');
