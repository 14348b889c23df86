/** Time's limits and messages (issue 37). No zod here: the web app imports it through the vocabulary door. */
export const worklogLimits = { minutesMax: 24 * 60, noteMax: 500, estimateMax: 10_000 } as const;

export const worklogMessages = {
  minutes: `minutes must be a whole number from 1 to ${worklogLimits.minutesMax}`,
  on: 'on must be a day (YYYY-MM-DD)',
  future: 'Work cannot be logged on a day that has not come yet',
  noteTooLong: `The note must be at most ${worklogLimits.noteMax} characters`,
  estimate: `estimate must be a number of hours from 0 to ${worklogLimits.estimateMax}, or null`,
  cannotLog: 'Only the developers the bug is assigned to, and admins, log time on it',
  cannotEstimate: "You don't have permission to estimate this bug",
  notFound: 'Worklog entry not found',
  notYours: 'Only whoever logged an entry (or an admin) deletes it',
} as const;
