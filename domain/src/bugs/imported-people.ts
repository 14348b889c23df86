/**
 * People an import names who have no account here (api.md "Integrations": matched by
 * email, then by name, else recorded by name). Such a person is kept as an id that
 * spells their name, so the same name across a file is one person, every answer can
 * show it, and no account is made for them.
 */
const PREFIX = 'imported:';
/** Ids are at most 100 characters (bug.schemas.ts). */
const MAX_NAME = 100 - PREFIX.length;

export function importedPersonId(name: string): string {
  return PREFIX + name.trim().slice(0, MAX_NAME);
}

/** The name an imported person's id spells, or undefined for any other id. */
export function importedPersonName(id: string): string | undefined {
  return id.startsWith(PREFIX) && id.length > PREFIX.length ? id.slice(PREFIX.length) : undefined;
}

/** The name to show for an id no user has. */
export const nameForUnknown = (id: string): string => importedPersonName(id) ?? 'Unknown user';
