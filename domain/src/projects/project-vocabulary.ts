/**
 * Projects' words (api.md "Projects", issue 35): limits, messages, roles and access modes, and
 * the answer's shape. No zod here: the web app imports it through the vocabulary door.
 */
export const projectLimits = { keyMin: 2, keyMax: 10, nameMax: 100, descriptionMax: 2000 } as const;
export const projectKeyPattern = /^[A-Z][A-Z0-9]+$/;
export const projectRoles = ['lead', 'member'] as const;
export type ProjectRole = (typeof projectRoles)[number];
/** `reporters`: the roles' rules of "Who sees what"; `team`: members work on every bug of it. */
export const projectAccessModes = ['reporters', 'team'] as const;
export type ProjectAccess = (typeof projectAccessModes)[number];

export const projectMessages = {
  keyInvalid: 'Project key must be 2 to 10 capital letters or digits, starting with a letter',
  keyTaken: 'Project key already in use',
  notFound: 'Project not found',
  nameRequired: 'Project name is required',
  nameTooLong: `Project name must be at most ${projectLimits.nameMax} characters`,
  descriptionTooLong: `Project description must be at most ${projectLimits.descriptionMax} characters`,
  privateNotBoolean: 'private must be true or false',
  archivedNotBoolean: 'archived must be true or false',
  accessInvalid: 'access must be "reporters" or "team"',
  roleInvalid: 'role must be "lead" or "member"',
  adminsCreate: 'Only admins can create projects',
  adminsAndLeads: 'Only admins and the project’s leads can change it',
  userNotFound: 'User not found',
  memberNotFound: 'Not a member of this project',
  lastLead: 'A project keeps at least one lead: make another member lead first',
  alreadyExists: 'Project already exists',
  defaultKeepsReporters: 'The default project keeps the reporters’ rules: choose another default first',
} as const;

/** Why a key is refused, or null. */
export function projectKeyIssue(key: string): string | null {
  return key.length >= projectLimits.keyMin && key.length <= projectLimits.keyMax && projectKeyPattern.test(key)
    ? null
    : projectMessages.keyInvalid;
}

/** Admins and auditors see every project, private ones included (api.md "Projects"). */
export const seesEveryProject = (actor: { role: string }): boolean =>
  actor.role === 'admin' || actor.role === 'auditor';

/** How a project's members are listed in every answer: leads first, then by name. */
export function byLeadThenName(
  a: { role: ProjectRole; user: { name: string } },
  b: { role: ProjectRole; user: { name: string } },
): number {
  if (a.role !== b.role) return a.role === 'lead' ? -1 : 1;
  return a.user.name.localeCompare(b.user.name);
}

/** A project in an answer (`projectDtoSchema` in project.schemas.ts is its zod twin). */
export type ProjectDto = {
  _id: string;
  key: string;
  name: string;
  description: string;
  private: boolean;
  access: ProjectAccess;
  archived: boolean;
  createdAt: string;
  members: { user: { _id: string; name: string; profileImageURL: string | null }; role: ProjectRole }[];
};
