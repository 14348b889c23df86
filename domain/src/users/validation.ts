import type { FieldIssue } from '../core/errors.js';
import type { Role } from '../core/event.js';
import { emailPattern, roles, signupRoles, userMessages } from './user-vocabulary.js';

export type RegistrationInput = {
  name?: unknown;
  email?: unknown;
  password?: unknown;
  role?: unknown;
  adminInviteToken?: unknown;
};

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** The invite code as typed, or as a JSON number (6 digits sent unquoted). */
const codeText = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v));

export function isValidEmail(email: string): boolean {
  return emailPattern.test(email.trim());
}

/** Password rules shared by signup, profile change and the server. */
export function validatePassword(password: string): string | null {
  if (password.length === 0) return userMessages.passwordRequired;
  if (password.length < 8) return userMessages.passwordTooShort;
  if (password.length > 128) return userMessages.passwordTooLong;
  return null;
}

/**
 * Signup rules in the spec's order, with its exact messages. The web form shows
 * them under the fields; the server answers them as 400 details.
 */
export function validateRegistration(input: RegistrationInput): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const name = str(input.name).trim();
  if (!name) issues.push({ field: 'name', message: userMessages.nameRequired });
  else if (name.length > 100) issues.push({ field: 'name', message: userMessages.nameTooLong });
  if (!isValidEmail(str(input.email))) issues.push({ field: 'email', message: userMessages.emailInvalid });
  const passwordIssue = validatePassword(str(input.password));
  if (passwordIssue) issues.push({ field: 'password', message: passwordIssue });
  if (resolveRole(input.role) === 'admin' && !codeText(input.adminInviteToken).trim()) {
    issues.push({ field: 'adminInviteToken', message: userMessages.inviteRequired });
  }
  return issues;
}

/** Role defaults to tester; anything that is not a known role is refused by the schema. */
export function resolveRole(role: unknown): Role | 'invalid' {
  if (role === undefined || role === null || role === '') return 'tester';
  if (typeof role !== 'string') return 'invalid';
  const lower = role.trim().toLowerCase();
  return (roles as readonly string[]).includes(lower) ? (lower as Role) : 'invalid';
}

/** A role signup offers (never the auditor: only an admin grants it), or 'invalid'. */
export function resolveSignupRole(role: unknown): (typeof signupRoles)[number] | 'invalid' {
  const resolved = resolveRole(role);
  return (signupRoles as readonly string[]).includes(resolved) ? (resolved as (typeof signupRoles)[number]) : 'invalid';
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
