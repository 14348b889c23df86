import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { evolveBug, initialBugState, type ReportedBug } from './bug.js';
import { toBugDto } from './bug-dto.js';
import type { BugEvent } from './bug-events.js';
import { admin, aReportedBug, BUG, command, developer, otherTester, tester } from './decide.fixture.js';
import { bugDecider } from './decide.js';
import { decideBugFiles } from './files.js';

const { given } = deciderSpec(bugDecider);
const auditorActor: Actor = { id: 'auditor-1', role: 'auditor' };

const file = (id: string, overrides: Partial<{ size: number; contentType: string; name: string }> = {}) => ({
  id,
  key: `bug/2030/06/${id}.png`,
  name: `${id}.png`,
  size: 120,
  contentType: 'image/png',
  ...overrides,
});
const added = (id: string): BugEvent => {
  const f = file(id);
  return {
    type: 'AttachmentFileAdded',
    data: { bugId: BUG, fileId: f.id, key: f.key, name: f.name, size: f.size, contentType: f.contentType },
  };
};
const removed = (id: string): BugEvent => ({
  type: 'AttachmentFileRemoved',
  data: { bugId: BUG, fileId: id, name: `${id}.png` },
});
const deleted: BugEvent = { type: 'BugDeleted', data: { bugId: BUG } };

describe('AddBugFiles', () => {
  it('names each stored file, for the reporter and admins', () => {
    for (const actor of [tester, admin]) {
      given(...aReportedBug())
        .when(
          command('AddBugFiles', { bugId: BUG, files: [file('f1'), file('f2', { contentType: 'text/plain' })] }, actor),
        )
        .then([added('f1'), { ...added('f2'), data: { ...added('f2').data, contentType: 'text/plain' } } as BugEvent]);
    }
  });

  it('refuses who may not edit the bug: the assigned developer, strangers, auditors; 404 for a missing or deleted bug', () => {
    const add = (actor: Actor) => command('AddBugFiles', { bugId: BUG, files: [file('f1')] }, actor);
    given(...aReportedBug())
      .when(add(developer))
      .thenThrows('forbidden', "You don't have permission to add files to this bug");
    given(...aReportedBug())
      .when(add(otherTester))
      .thenThrows('forbidden', "You don't have permission to view this bug");
    given(...aReportedBug())
      .when(add(auditorActor))
      .thenThrows('forbidden', "You don't have permission to add files to this bug");
    given().when(add(admin)).thenThrows('not_found', 'Bug not found');
    given(...aReportedBug(), deleted)
      .when(add(admin))
      .thenThrows('not_found', 'Bug not found');
    expect(() => decideBugFiles({ ...add(admin), metadata: { actor: null, now: '' } }, initialBugState())).toThrow(
      'Not authorized, no token',
    );
  });

  it('keeps the limits: no file, more than 5 at once, more than 20 on a bug, empty, too large, a type not allowed', () => {
    const add = (files: ReturnType<typeof file>[]) => command('AddBugFiles', { bugId: BUG, files }, tester);
    const field = (message: string) => [{ field: 'file', message }];
    given(...aReportedBug())
      .when(add([]))
      .thenThrows(
        'validation',
        'Choose a file to attach (multipart form field "file")',
        field('Choose a file to attach (multipart form field "file")'),
      );
    given(...aReportedBug())
      .when(add(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => file(id))))
      .thenThrows('validation', 'At most 5 files per upload');
    const twenty = Array.from({ length: 20 }, (_, i) => added(`f${i}`));
    given(...aReportedBug(), ...twenty)
      .when(add([file('one-more')]))
      .thenThrows('validation', 'A bug can have at most 20 files');
    given(...aReportedBug())
      .when(add([file('f1', { size: 0 })]))
      .thenThrows('validation', 'Files cannot be empty');
    given(...aReportedBug())
      .when(add([file('f1', { size: 20 * 1024 * 1024 + 1 })]))
      .thenThrows('validation', 'Each file must be at most 20 MB');
    given(...aReportedBug())
      .when(add([file('f1', { contentType: 'text/html', name: 'x.html' })]))
      .thenThrows('validation', 'File type not allowed: images, PDF, text, logs and zip files only (x.html)');
  });

  it('decides nothing for files the bug already names (the same upload decided again)', () => {
    given(...aReportedBug(), added('f1'))
      .when(command('AddBugFiles', { bugId: BUG, files: [file('f1')] }, tester))
      .thenNothing();
  });
});

describe('RemoveBugFile', () => {
  it('removes a file the bug holds, naming it, for who may edit', () => {
    given(...aReportedBug(), added('f1'))
      .when(command('RemoveBugFile', { bugId: BUG, fileId: 'f1' }, admin))
      .then([removed('f1')]);
    given(...aReportedBug(), added('f1'))
      .when(command('RemoveBugFile', { bugId: BUG, fileId: 'f1' }, developer))
      .thenThrows('forbidden', "You don't have permission to remove files from this bug");
    given(...aReportedBug(), added('f1'), removed('f1'))
      .when(command('RemoveBugFile', { bugId: BUG, fileId: 'f1' }, tester))
      .thenThrows('not_found', 'File not found');
  });
});

describe('files in the state and the answer', () => {
  it('folds adds and removals in order, keeps the key out of the DTO, leaves `attachments` the links', () => {
    let state = initialBugState();
    for (const e of [...aReportedBug(), added('f1'), added('f2'), added('f1'), removed('f1')]) {
      state = evolveBug(state, e);
    }
    const bug = state as ReportedBug;
    expect(bug.files.map((f) => f.id)).toEqual(['f2']);
    const dto = toBugDto(
      bug,
      4,
      () => undefined,
      () => undefined,
      () => undefined,
    );
    expect(dto.files).toEqual([
      { _id: 'f2', name: 'f2.png', size: 120, contentType: 'image/png', url: `/api/bugs/${BUG}/attachments/f2` },
    ]);
    expect(dto.attachments).toEqual([]);
    expect(JSON.stringify(dto)).not.toContain('bug/2030');
  });
});
