import type { Role } from '../core/event.js';

/**
 * Roles and the signup/login texts, with no schema library: the browser loads this
 * through `@bugtrail/domain/vocabulary`; `user.schemas.ts` builds its zod enum from it.
 */
export const roles = ['admin', 'tester', 'developer', 'auditor'] as const satisfies readonly Role[];

/** How screens name a role (the signup dropdown, the sidebar). */
export const roleDisplayNames = {
  admin: 'Admin',
  tester: 'Tester',
  developer: 'Developer',
  auditor: 'Auditor',
} as const satisfies Readonly<Record<Role, string>>;

/**
 * The signup dropdown's order (spec section 2): Tester (the default), Developer, Admin.
 * Never the auditor: only an admin grants that role.
 */
export const signupRoles = ['tester', 'developer', 'admin'] as const satisfies readonly Role[];

export const userMessages = {
  nameRequired: 'Please enter full name',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Please enter the password',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordTooLong: 'Password cannot exceed 128 characters',
  inviteRequired: 'Admin invite token is required for admin registration',
  inviteInvalid: 'Invalid admin invite token',
  userExists: 'User already exists',
  invalidCredentials: 'Invalid email or password',
  roleNotWritable: 'Role cannot be changed',
  nameTooLong: 'Name cannot exceed 100 characters',
  currentPasswordRequired: 'Current password is required',
  currentPasswordIncorrect: 'Current password is incorrect',
  roleInvalid: 'Role must be one of admin, tester, developer, auditor',
  lastAdmin: 'At least one admin must remain',
  cannotChangeRoles: 'Only an admin can change roles',
  readOnlyRole: 'Auditors can read everything but change nothing',
  deactivated: 'Your account has been deactivated',
  cannotManageUsers: 'Only an admin can deactivate or reactivate users',
  resetLinkInvalid: 'This reset link is invalid or has expired',
  resetRequested: 'If an account exists for this email, a reset link has been sent to it',
  resetNotMailed: 'Email is not set up here: ask an admin for a reset link',
  passwordReset: 'Your password has been reset. Please log in.',
  emailPreferenceInvalid: 'Email preference must be one of immediate, daily, off',
  unsubscribed: 'You will no longer receive notification emails',
  unsubscribeInvalid: 'This unsubscribe link is invalid',
} as const;

/**
 * Why a single sign-on did not sign anyone in (api.md "People"): the callback sends the
 * browser back to /login?sso_error=<code>, and the login page shows the text, so a link
 * cannot put words of its own on the page.
 */
export const ssoMessages = {
  notConfigured: 'Single sign-on is not set up here',
  state: 'Single sign-on failed: the answer did not match this browser’s sign-in. Please try again',
  unverified: 'Your identity provider has not verified your email address, so it cannot sign you in here',
  refused: 'The identity provider did not sign you in',
  deactivated: 'Your account has been deactivated',
  failed: 'Single sign-on failed. Please try again',
  expired: 'This sign-in has expired. Please try again',
  invitation: 'Sign-up here is by invitation only: ask an admin for an invitation',
} as const;
export type SsoErrorCode = keyof typeof ssoMessages;

/** Who may sign up: anyone, or only people an admin invited (issue 40). */
export const signupModes = ['open', 'invitation'] as const;
export type SignupMode = (typeof signupModes)[number];

/** The roles an admin invites with a code or link (an admin signup has its own invite code). */
export const invitedRoles = ['tester', 'developer'] as const satisfies readonly Role[];
export type InvitedRole = (typeof invitedRoles)[number];

export const signupMessages = {
  adminsOnly: 'Only an admin can change who may sign up',
  modeInvalid: 'Mode must be one of open, invitation',
  codeRequired: 'An invitation code is required: sign-up here is by invitation only',
  codeInvalid: 'Invalid invitation code',
  inviteRoleInvalid: 'Role must be one of admin, tester, developer',
} as const;

/** The basic email pattern the spec's forms use. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
