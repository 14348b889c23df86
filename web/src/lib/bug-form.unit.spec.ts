import { describe, expect, it } from 'vitest';
import {
  attachmentLinkError,
  type BugFormValues,
  cleanEntries,
  describeServerDetails,
  dueDateToIso,
  emptyBugForm,
  isoToDay,
  toBugPayload,
  validateAdminUpdate,
  validateAdminUpdateFields,
  validateBugForm,
} from './bug-form';
import { toggleChecklistItem } from './mutations';

const now = new Date(2030, 5, 15, 10, 0, 0);
const valid = (patch: Partial<BugFormValues> = {}): BugFormValues => ({
  ...emptyBugForm(),
  title: 'Login button broken',
  description: 'Nothing happens when clicking it',
  assignedTo: ['dev-1'],
  ...patch,
});

describe('the report/edit form', () => {
  it('accepts a complete form', () => {
    expect(validateBugForm(valid(), now)).toEqual({});
  });
  it('requires a title of 5 to 100 characters', () => {
    expect(validateBugForm(valid({ title: ' ' }), now).title).toBe('Title is required');
    expect(validateBugForm(valid({ title: 'Bug' }), now).title).toBe('Title must be at least 5 characters long');
    expect(validateBugForm(valid({ title: 'x'.repeat(101) }), now).title).toBe('Title cannot exceed 100 characters');
  });
  it('requires a description of at least 10 characters', () => {
    expect(validateBugForm(valid({ description: '' }), now).description).toBe('Description is required');
    expect(validateBugForm(valid({ description: 'too short' }), now).description).toBe(
      'Description must be at least 10 characters long',
    );
  });
  it('requires a developer', () => {
    expect(validateBugForm(valid({ assignedTo: [] }), now).assignedTo).toBe('At least one developer must be assigned');
  });
  it('accepts today as due date and refuses yesterday', () => {
    expect(validateBugForm(valid({ dueDate: '2030-06-15' }), now).dueDate).toBeUndefined();
    expect(validateBugForm(valid({ dueDate: '2030-06-14' }), now).dueDate).toBe('Due date must be in the future');
  });
  it('limits the module to 50 characters', () => {
    expect(validateBugForm(valid({ module: 'm'.repeat(51) }), now).module).toBe(
      'Module name cannot exceed 50 characters',
    );
    expect(validateBugForm(valid({ module: 'm'.repeat(50) }), now).module).toBeUndefined();
  });
  it('requires a due date on the tester edit', () => {
    expect(validateBugForm(valid(), now, { dueDateRequired: true }).dueDate).toBe('Due date is required');
  });
});

describe("the admin's update checks", () => {
  it('reports the first failure in the spec order, without requiring a due date (api.md)', () => {
    const empty = valid({ title: '', description: '', assignedTo: [] });
    expect(validateAdminUpdate(empty)).toBe('Title is required');
    expect(validateAdminUpdate({ ...empty, title: 'Title' })).toBe('Description is required');
    expect(validateAdminUpdate({ ...empty, title: 'Title', description: 'Desc' })).toBe(
      'Bug must be assigned to at least one developer',
    );
    expect(validateAdminUpdate(valid({ dueDate: '' }))).toBeNull();
    expect(validateAdminUpdate(valid({ dueDate: '2030-07-01' }))).toBeNull();
  });
  it('names the field of each failure', () => {
    expect(validateAdminUpdateFields(valid({ title: ' ', description: '', assignedTo: [] }))).toEqual({
      title: 'Title is required',
      description: 'Description is required',
      assignedTo: 'Bug must be assigned to at least one developer',
    });
  });
});

describe('attachment links', () => {
  it('takes absolute http(s) URLs only', () => {
    expect(attachmentLinkError('https://example.com/shot.png')).toBeNull();
    expect(attachmentLinkError('http://example.com')).toBeNull();
    for (const link of ['not a url', 'example.com/shot.png', 'ftp://example.com/a', 'javascript:alert(1)', '/a/b']) {
      expect(attachmentLinkError(link), link).toBe('Attachment must be an http or https URL');
    }
  });
});

describe('payload helpers', () => {
  it('trims entries and drops blank ones', () => {
    expect(cleanEntries(['  a ', '', '   ', 'b'])).toEqual(['a', 'b']);
    const payload = toBugPayload(
      valid({
        checklist: [
          { text: ' step ', completed: false },
          { text: ' ', completed: false },
        ],
        attachments: [' https://x.test ', ''],
      }),
    );
    expect(payload.checklist).toEqual([{ text: 'step', completed: false }]);
    expect(payload.attachments).toEqual(['https://x.test']);
    expect(payload.module).toBeNull();
    expect(payload.dueDate).toBeNull();
  });
  it('round-trips a picked day through ISO', () => {
    const iso = dueDateToIso('2030-06-20');
    expect(iso).not.toBeNull();
    expect(isoToDay(iso)).toBe('2030-06-20');
    expect(dueDateToIso('')).toBeNull();
  });
  it("lists server details as 'field: message' lines", () => {
    expect(
      describeServerDetails([
        { field: 'title', message: 'Title is required' },
        { field: 'assignedTo', message: 'At least one developer must be assigned' },
      ]),
    ).toBe('title: Title is required\nassignedTo: At least one developer must be assigned');
  });
  it('records who completed a checklist item and when, and clears it on untick', () => {
    const user = { _id: 'dev-1', name: 'Dev' };
    const at = new Date('2030-06-15T10:00:00Z');
    const ticked = toggleChecklistItem(
      [{ _id: 'i1', text: 'a', completed: false, completedBy: null, completedAt: null }],
      0,
      user,
      at,
    );
    expect(ticked[0]).toMatchObject({ completed: true, completedBy: user, completedAt: at.toISOString() });
    const unticked = toggleChecklistItem(ticked, 0, user, at);
    expect(unticked[0]).toMatchObject({ completed: false, completedBy: null, completedAt: null });
  });
});
