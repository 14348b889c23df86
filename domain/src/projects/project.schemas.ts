import { z } from 'zod';
import { fieldEventSchemas } from './fields.js';
import {
  type ProjectDto,
  projectAccessModes,
  projectKeyIssue,
  projectKeyPattern,
  projectLimits,
  projectMessages,
  projectRoles,
} from './project-vocabulary.js';
import { stateEventSchemas } from './states.js';

export * from './project-vocabulary.js';

/**
 * Projects (api.md "Projects", issue 35): one installation, several products, each with its
 * own key (WEB-7), people and privacy. A project is one stream (`project-{id}`); these are its
 * facts, the messages its refusals answer with, and the bodies write-api validates.
 */
const projectId = z.string().min(1).max(100);
const userId = z.string().min(1).max(100);
const key = z.string().min(projectLimits.keyMin).max(projectLimits.keyMax).regex(projectKeyPattern);
const name = z.string().min(1).max(projectLimits.nameMax);
const description = z.string().max(projectLimits.descriptionMax);

export const projectEventSchemas = {
  ProjectCreated: {
    version: 1,
    data: z.object({
      projectId,
      key,
      name,
      description,
      private: z.boolean(),
      access: z.enum(projectAccessModes),
    }),
  },
  ProjectRenamed: { version: 1, data: z.object({ projectId, name }) },
  ProjectDescriptionChanged: { version: 1, data: z.object({ projectId, description }) },
  /** The new key takes over; `previousKey` keeps resolving (`/api/bugs/by-key/OLD-7`). */
  ProjectKeyChanged: { version: 1, data: z.object({ projectId, key, previousKey: key }) },
  ProjectPrivacyChanged: { version: 1, data: z.object({ projectId, private: z.boolean() }) },
  ProjectAccessChanged: { version: 1, data: z.object({ projectId, access: z.enum(projectAccessModes) }) },
  ProjectArchived: { version: 1, data: z.object({ projectId }) },
  ProjectRestored: { version: 1, data: z.object({ projectId }) },
  ProjectMemberAdded: { version: 1, data: z.object({ projectId, userId, role: z.enum(projectRoles) }) },
  ProjectMemberRoleChanged: { version: 1, data: z.object({ projectId, userId, role: z.enum(projectRoles) }) },
  ProjectMemberRemoved: { version: 1, data: z.object({ projectId, userId }) },
  ...fieldEventSchemas,
  ...stateEventSchemas,
} as const;

type Schemas = typeof projectEventSchemas;
export type ProjectEventData<Type extends keyof Schemas> = z.infer<Schemas[Type]['data']>;

/** zod's message for a field that is missing (`required`) or is not a string. */
const text = (required: string, notText: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? required : notText) });
/** As sent: `web` is refused, not upper-cased (the key is what people will type and read). */
const keyField = z
  .string({ error: projectMessages.keyInvalid })
  .refine((k) => projectKeyIssue(k) === null, projectMessages.keyInvalid);
const nameField = text(projectMessages.nameRequired, projectMessages.nameRequired)
  .trim()
  .min(1, { error: projectMessages.nameRequired, abort: true })
  .max(projectLimits.nameMax, projectMessages.nameTooLong);
const descriptionField = z
  .string({ error: projectMessages.descriptionTooLong })
  .trim()
  .max(projectLimits.descriptionMax, projectMessages.descriptionTooLong)
  .nullish();
const accessField = z.enum(projectAccessModes, { error: projectMessages.accessInvalid });

/** `POST /api/projects`. */
export const createProjectBody = z.object({
  key: keyField,
  name: nameField,
  description: descriptionField,
  private: z.boolean({ error: projectMessages.privateNotBoolean }).optional(),
  access: accessField.optional(),
});
export type CreateProjectBody = z.infer<typeof createProjectBody>;

/** `PATCH /api/projects/{id}`: only what is sent changes. */
export const updateProjectBody = z.object({
  key: keyField.optional(),
  name: nameField.optional(),
  description: descriptionField,
  private: z.boolean({ error: projectMessages.privateNotBoolean }).optional(),
  archived: z.boolean({ error: projectMessages.archivedNotBoolean }).optional(),
  access: accessField.optional(),
});
export type UpdateProjectBody = z.infer<typeof updateProjectBody>;

/** `PUT /api/projects/{id}/members/{userId}`. */
export const projectMemberBody = z.object({ role: z.enum(projectRoles, { error: projectMessages.roleInvalid }) });

const memberDtoSchema = z.object({
  user: z.object({ _id: z.string(), name: z.string(), profileImageURL: z.string().nullable() }),
  role: z.enum(projectRoles),
});

/** A project in an answer. */
export const projectDtoSchema = z.object({
  _id: z.string(),
  key: z.string().describe('The current key, e.g. `WEB`; earlier keys keep resolving'),
  name: z.string(),
  description: z.string(),
  private: z.boolean().describe('Private: only its members, admins and auditors see it and its bugs'),
  access: z.enum(projectAccessModes).describe('"reporters": the roles’ rules; "team": members work on every bug'),
  archived: z.boolean(),
  createdAt: z.string().describe('ISO 8601'),
  members: z.array(memberDtoSchema),
});
/** The schema and the vocabulary's plain type describe one answer. */
const sameDto: z.infer<typeof projectDtoSchema> extends ProjectDto
  ? ProjectDto extends z.infer<typeof projectDtoSchema>
    ? true
    : false
  : false = true;
void sameDto;

/** Every event type of a project's stream. */
export const projectEventTypes = Object.keys(projectEventSchemas) as (keyof typeof projectEventSchemas)[];
