import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { evolveBug, initialBugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { bugProjectMessages } from './bug-project.js';
import {
  admin,
  aReportedBug,
  assigned,
  BUG,
  command,
  developer,
  general,
  NOW,
  otherDeveloper,
  otherTester,
  reported,
  tester,
} from './decide.fixture.js';
import { bugDecider, bugWriteMessages } from './decide.js';
import { bugMessages } from './permissions.js';
import { bugLimitMessages } from './validation.js';

const { given } = deciderSpec(bugDecider);

const deleted: BugEvent = { type: 'BugDeleted', data: { bugId: BUG } };
const itemAdded = (itemId: string, text: string): BugEvent => ({
  type: 'ChecklistItemAdded',
  data: { bugId: BUG, itemId, text },
});

const report = (overrides: Partial<Parameters<typeof command<'ReportBug'>>[1]> = {}, actor: Actor | null = tester) =>
  command(
    'ReportBug',
    {
      bugId: BUG,
      number: 7,
      project: general,
      projectNumber: 3,
      title: 'Login button broken',
      description: 'Clicking login does nothing at all',
      assigneeIds: [developer.id],
      newItemIds: ['i1', 'i2', 'i3'],
      ...overrides,
    },
    actor,
  );

describe('ReportBug', () => {
  describe('when the bug does not exist yet', () => {
    it('reports it Open, then assigns, then adds checklist items and links in that order', () => {
      given()
        .when(
          report({
            priority: 'High',
            severity: 'Critical',
            module: '  Auth ',
            dueDate: '2030-06-20',
            checklist: [' Open the page ', '   ', 'Click login'],
            attachments: ['https://example.com/a.png', ' ', 'https://example.com/a.png'],
          }),
        )
        .then([
          {
            type: 'BugReported',
            data: {
              bugId: BUG,
              title: 'Login button broken',
              description: 'Clicking login does nothing at all',
              priority: 'High',
              severity: 'Critical',
              status: 'Open',
              module: 'Auth',
              dueDate: '2030-06-20T00:00:00.000Z',
              reporterId: tester.id,
              number: 7,
              projectId: general.id,
              projectNumber: 3,
            },
          },
          assigned(developer.id),
          itemAdded('i1', 'Open the page'),
          itemAdded('i2', 'Click login'),
          { type: 'AttachmentLinkAdded', data: { bugId: BUG, url: 'https://example.com/a.png' } },
        ]);
    });

    it('defaults priority Medium, severity Minor, no module, no due date', () => {
      const [first] = given().when(report()).thenEvents();
      expect(first).toMatchObject({
        type: 'BugReported',
        data: { priority: 'Medium', severity: 'Minor', status: 'Open', module: null, dueDate: null },
      });
    });

    it('lets an admin report too', () => {
      const [first] = given().when(report({}, admin)).thenEvents();
      expect(first).toMatchObject({ data: { reporterId: admin.id } });
    });

    it('refuses a developer', () => {
      given().when(report({}, developer)).thenThrows('forbidden', bugWriteMessages.cannotReport);
    });

    it('refuses an anonymous caller', () => {
      given().when(report({}, null)).thenThrows('unauthorized', 'Not authorized, no token');
    });

    it('answers every broken rule in the spec order, with its exact message', () => {
      given()
        .when(report({ title: ' ', description: '', assigneeIds: [], dueDate: '2030-06-14', module: 'm'.repeat(51) }))
        .thenThrows('validation', bugMessages.titleRequired, [
          { field: 'title', message: 'Title is required' },
          { field: 'description', message: 'Description is required' },
          { field: 'assignedTo', message: 'At least one developer must be assigned' },
          { field: 'dueDate', message: 'Due date must be in the future' },
          { field: 'module', message: 'Module name cannot exceed 50 characters' },
        ]);
    });

    it('refuses assignees that are not known developers when the caller knows them', () => {
      given()
        .when(report({ assigneeIds: [developer.id, 'nobody'], knownDeveloperIds: [developer.id] }))
        .thenThrows('validation', bugLimitMessages.unknownDevelopers);
    });

    it('accepts a due date of today (UTC)', () => {
      const events = given()
        .when(report({ dueDate: '2030-06-15' }))
        .thenEvents();
      expect(events[0]).toMatchObject({ data: { dueDate: '2030-06-15T00:00:00.000Z' } });
    });
  });

  describe('when the bug exists', () => {
    it('refuses a second report with the same id', () => {
      given(...aReportedBug())
        .when(report())
        .thenThrows('conflict', bugWriteMessages.alreadyExists);
    });
  });
});

describe('UpdateBug: details', () => {
  const edit = (changes: Parameters<typeof command<'UpdateBug'>>[1]['changes'], actor = tester) =>
    command('UpdateBug', { bugId: BUG, changes, newItemIds: [] }, actor);

  describe('when reported', () => {
    it('emits only the fields that changed', () => {
      given(...aReportedBug())
        .when(edit({ title: 'Login button broken', priority: 'High', module: 'Auth' }))
        .then([{ type: 'BugDetailsEdited', data: { bugId: BUG, changes: { priority: 'High', module: 'Auth' } } }]);
    });

    it('emits nothing when nothing changed', () => {
      given(...aReportedBug())
        .when(edit({ title: 'Login button broken', description: 'Clicking login does nothing at all' }))
        .thenNothing();
    });

    it('does not validate a due date that did not change, even when it has passed', () => {
      given(reported({ dueDate: '2020-01-01T00:00:00.000Z' }), assigned(developer.id))
        .when(edit({ dueDate: '2020-01-01T00:00:00Z', title: 'A new title' }))
        .then([{ type: 'BugDetailsEdited', data: { bugId: BUG, changes: { title: 'A new title' } } }]);
    });

    it('validates a due date that changes', () => {
      given(...aReportedBug())
        .when(edit({ dueDate: '2030-06-14' }))
        .thenThrows('validation', bugMessages.dueDateInFuture, [
          { field: 'dueDate', message: 'Due date must be in the future' },
        ]);
    });

    it('clears the due date with null', () => {
      given(reported({ dueDate: '2031-01-01T00:00:00.000Z' }), assigned(developer.id))
        .when(edit({ dueDate: null }))
        .then([{ type: 'BugDetailsEdited', data: { bugId: BUG, changes: { dueDate: null } } }]);
    });

    it('refuses a title under 5 characters', () => {
      given(...aReportedBug())
        .when(edit({ title: 'abcd' }))
        .thenThrows('validation', bugMessages.titleTooShort);
    });

    it('refuses a title over 100 characters', () => {
      given(...aReportedBug())
        .when(edit({ title: 'x'.repeat(101) }))
        .thenThrows('validation', bugMessages.titleTooLong);
    });

    it('refuses a description under 10 characters', () => {
      given(...aReportedBug())
        .when(edit({ description: 'too short' }))
        .thenThrows('validation', bugMessages.descriptionTooShort);
    });

    it('lets an admin edit any bug', () => {
      given(...aReportedBug())
        .when(edit({ severity: 'Major' }, admin))
        .then([{ type: 'BugDetailsEdited', data: { bugId: BUG, changes: { severity: 'Major' } } }]);
    });

    it('refuses the assigned developer (may see, may not edit)', () => {
      given(...aReportedBug())
        .when(edit({ severity: 'Major' }, developer))
        .thenThrows('forbidden', bugWriteMessages.cannotEdit);
    });

    it("refuses another tester with the detail's message", () => {
      given(...aReportedBug())
        .when(edit({ severity: 'Major' }, otherTester))
        .thenThrows('forbidden', bugMessages.noPermissionToView);
    });

    it('checks permission before validation', () => {
      given(...aReportedBug())
        .when(edit({ title: '' }, otherTester))
        .thenThrows('forbidden', bugMessages.noPermissionToView);
    });
  });

  describe('when unknown or deleted', () => {
    it('is not found when the bug does not exist', () => {
      given()
        .when(edit({ title: 'Whatever title' }, admin))
        .thenThrows('not_found', bugMessages.notFound);
    });
    it('is not found when the bug was deleted, even for an admin', () => {
      given(...aReportedBug(), deleted)
        .when(edit({ title: 'Whatever title' }, admin))
        .thenThrows('not_found', bugMessages.notFound);
    });
  });
});

describe('UpdateBug: assignment', () => {
  const assign = (assigneeIds: string[], actor: typeof admin, knownDeveloperIds?: string[]) =>
    command('UpdateBug', { bugId: BUG, changes: { assigneeIds }, newItemIds: [], knownDeveloperIds }, actor);
  it('diffs the new list into assigned and unassigned', () => {
    given(reported(), assigned(developer.id))
      .when(assign([otherDeveloper.id], tester))
      .then([
        { type: 'DevelopersAssigned', data: { bugId: BUG, developerIds: [otherDeveloper.id] } },
        { type: 'DevelopersUnassigned', data: { bugId: BUG, developerIds: [developer.id] } },
      ]);
  });

  it('adds only who is new', () => {
    given(...aReportedBug())
      .when(assign([developer.id, otherDeveloper.id], admin))
      .then([{ type: 'DevelopersAssigned', data: { bugId: BUG, developerIds: [otherDeveloper.id] } }]);
  });

  it('refuses to leave nobody assigned', () => {
    given(...aReportedBug())
      .when(assign([], admin))
      .thenThrows('validation', bugMessages.developerRequired);
  });

  it('removes one of two', () => {
    given(reported(), assigned(developer.id, otherDeveloper.id))
      .when(assign([otherDeveloper.id], tester))
      .then([{ type: 'DevelopersUnassigned', data: { bugId: BUG, developerIds: [developer.id] } }]);
  });

  it('refuses unknown developers', () => {
    given(...aReportedBug())
      .when(assign(['ghost'], admin, []))
      .thenThrows('validation', bugLimitMessages.unknownDevelopers);
  });

  it('refuses a developer', () => {
    given(...aReportedBug())
      .when(assign([otherDeveloper.id], developer))
      .thenThrows('forbidden', bugWriteMessages.cannotEdit);
  });
});

describe('ChangeBugStatus', () => {
  const changeTo = (status: 'Open' | 'In Progress' | 'Closed', actor = developer) =>
    command('ChangeBugStatus', { bugId: BUG, status }, actor);

  describe('when open', () => {
    it('records from and to', () => {
      given(...aReportedBug())
        .when(changeTo('In Progress'))
        .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'In Progress' } }]);
    });
    it('allows jumping straight to Closed', () => {
      given(...aReportedBug())
        .when(changeTo('Closed'))
        .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } }]);
    });
    it('emits nothing for the same status', () => {
      given(...aReportedBug())
        .when(changeTo('Open'))
        .thenNothing();
    });
    it('lets an admin change it', () => {
      given(...aReportedBug())
        .when(changeTo('Closed', admin))
        .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } }]);
    });
    it('refuses the reporting tester', () => {
      given(...aReportedBug())
        .when(changeTo('Closed', tester))
        .thenThrows('forbidden', bugWriteMessages.cannotChangeStatus);
    });
    it('refuses a developer it is not assigned to, with the view message', () => {
      given(...aReportedBug())
        .when(changeTo('Closed', otherDeveloper))
        .thenThrows('forbidden', bugMessages.noPermissionToView);
    });
  });

  describe('when closed', () => {
    it('may be reopened', () => {
      const closed: BugEvent = { type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } };
      given(...aReportedBug(), closed)
        .when(changeTo('Open'))
        .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Closed', to: 'Open' } }]);
    });
  });

  describe('when deleted', () => {
    it('is not found', () => {
      given(...aReportedBug(), deleted)
        .when(changeTo('Closed'))
        .thenThrows('not_found', bugMessages.notFound);
    });
  });
});

describe('SetChecklist', () => {
  const withItems = () => [...aReportedBug(), itemAdded('a', 'Step one'), itemAdded('b', 'Step two')];
  const setChecklist = (items: { id?: string; text: string; completed?: boolean }[], actor = developer) =>
    command('SetChecklist', { bugId: BUG, items, newItemIds: ['n1', 'n2', 'n3'] }, actor);

  describe('when it has two items', () => {
    it('ticks an item for the assigned developer, with the server-made by and at', () => {
      given(...withItems())
        .when(
          setChecklist([
            { id: 'a', text: 'Step one', completed: true },
            { id: 'b', text: 'Step two', completed: false },
          ]),
        )
        .then([{ type: 'ChecklistItemCompleted', data: { bugId: BUG, itemId: 'a', by: developer.id, at: NOW } }]);
    });

    it('matches by position when the client sends no ids', () => {
      given(...withItems())
        .when(setChecklist([{ text: 'Step one' }, { text: 'Step two', completed: true }]))
        .then([{ type: 'ChecklistItemCompleted', data: { bugId: BUG, itemId: 'b', by: developer.id, at: NOW } }]);
    });

    it('ignores structural changes from a developer (only ticks count)', () => {
      given(...withItems())
        .when(setChecklist([{ id: 'a', text: 'Renamed', completed: true }, { text: 'New item' }]))
        .then([{ type: 'ChecklistItemCompleted', data: { bugId: BUG, itemId: 'a', by: developer.id, at: NOW } }]);
    });

    it('lets an admin add, reword, remove and tick in one list', () => {
      given(...withItems())
        .when(setChecklist([{ id: 'b', text: 'Step two, reworded', completed: true }, { text: 'Step three' }], admin))
        .then([
          { type: 'ChecklistItemRemoved', data: { bugId: BUG, itemId: 'a' } },
          { type: 'ChecklistItemTextChanged', data: { bugId: BUG, itemId: 'b', text: 'Step two, reworded' } },
          { type: 'ChecklistItemCompleted', data: { bugId: BUG, itemId: 'b', by: admin.id, at: NOW } },
          itemAdded('n1', 'Step three'),
        ]);
    });

    it("lets the reporter edit items but ignores the reporter's ticks", () => {
      given(...withItems())
        .when(
          setChecklist(
            [
              { id: 'a', text: 'Step one', completed: true },
              { id: 'b', text: 'Step 2' },
            ],
            tester,
          ),
        )
        .then([{ type: 'ChecklistItemTextChanged', data: { bugId: BUG, itemId: 'b', text: 'Step 2' } }]);
    });

    it('drops blank entries (a blank item is removed)', () => {
      given(...withItems())
        .when(
          setChecklist(
            [
              { id: 'a', text: 'Step one' },
              { id: 'b', text: '   ' },
            ],
            admin,
          ),
        )
        .then([{ type: 'ChecklistItemRemoved', data: { bugId: BUG, itemId: 'b' } }]);
    });

    it('treats an id it does not know as a new item', () => {
      given(...withItems())
        .when(
          setChecklist(
            [
              { id: 'a', text: 'Step one' },
              { id: 'b', text: 'Step two' },
              { id: 'zzz', text: 'Step three' },
            ],
            admin,
          ),
        )
        .then([itemAdded('n1', 'Step three')]);
    });

    it('refuses another tester with the view message', () => {
      given(...withItems())
        .when(setChecklist([{ text: 'x' }], otherTester))
        .thenThrows('forbidden', bugMessages.noPermissionToView);
    });

    it('refuses an unassigned developer with the view message', () => {
      given(...withItems())
        .when(setChecklist([{ id: 'a', text: 'Step one', completed: true }], otherDeveloper))
        .thenThrows('forbidden', bugMessages.noPermissionToView);
    });

    it('refuses an item over 500 characters', () => {
      given(...withItems())
        .when(setChecklist([{ text: 'x'.repeat(501) }], admin))
        .thenThrows('validation', bugLimitMessages.checklistItemTooLong);
    });
  });

  describe('when an item is completed', () => {
    it('reopens it when the developer unticks it', () => {
      const done: BugEvent = {
        type: 'ChecklistItemCompleted',
        data: { bugId: BUG, itemId: 'a', by: developer.id, at: '2030-01-01T00:00:00.000Z' },
      };
      given(...withItems(), done)
        .when(
          setChecklist([
            { id: 'a', text: 'Step one', completed: false },
            { id: 'b', text: 'Step two' },
          ]),
        )
        .then([{ type: 'ChecklistItemReopened', data: { bugId: BUG, itemId: 'a' } }]);
    });

    it('keeps it completed (no event) when the client resends completed: true', () => {
      const done: BugEvent = {
        type: 'ChecklistItemCompleted',
        data: { bugId: BUG, itemId: 'a', by: otherDeveloper.id, at: '2030-01-01T00:00:00.000Z' },
      };
      given(...withItems(), done)
        .when(
          setChecklist([
            { id: 'a', text: 'Step one', completed: true },
            { id: 'b', text: 'Step two' },
          ]),
        )
        .thenNothing();
    });
  });
});

describe('UpdateBug: attachment links', () => {
  const links = (attachments: string[], actor: typeof admin) =>
    command('UpdateBug', { bugId: BUG, changes: { attachments }, newItemIds: [] }, actor);
  it('adds a link', () => {
    given(...aReportedBug())
      .when(links([' https://x.test/1 '], tester))
      .then([{ type: 'AttachmentLinkAdded', data: { bugId: BUG, url: 'https://x.test/1' } }]);
  });
  it('adds nothing for a link already there', () => {
    const link: BugEvent = { type: 'AttachmentLinkAdded', data: { bugId: BUG, url: 'https://x.test/1' } };
    given(...aReportedBug(), link)
      .when(links(['https://x.test/1'], tester))
      .thenNothing();
  });
  it('refuses a javascript: link', () => {
    given(...aReportedBug())
      .when(links(['javascript:alert(1)'], tester))
      .thenThrows('validation', bugLimitMessages.attachmentScheme);
  });
  it('refuses a link that is not an absolute http(s) URL', () => {
    for (const bad of ['java\tscript:alert(1)', 'not a url', '/relative/path']) {
      given(...aReportedBug())
        .when(links([bad], tester))
        .thenThrows('validation', 'Attachment must be an http or https URL');
    }
  });
  it('removes a link', () => {
    const link: BugEvent = { type: 'AttachmentLinkAdded', data: { bugId: BUG, url: 'https://x.test/1' } };
    given(...aReportedBug(), link)
      .when(links([], admin))
      .then([{ type: 'AttachmentLinkRemoved', data: { bugId: BUG, url: 'https://x.test/1' } }]);
  });
  it('refuses the assigned developer', () => {
    given(...aReportedBug())
      .when(links(['https://x.test/1'], developer))
      .thenThrows('forbidden', bugWriteMessages.cannotEdit);
  });
});

describe('NumberBug', () => {
  const numberIt = (n: number) => command('NumberBug', { bugId: BUG, number: n }, null);
  it('numbers a bug reported before numbers, deleted or not', () => {
    given(...aReportedBug())
      .when(numberIt(3))
      .then([{ type: 'BugNumbered', data: { bugId: BUG, number: 3 } }]);
    given(...aReportedBug(), deleted)
      .when(numberIt(3))
      .then([{ type: 'BugNumbered', data: { bugId: BUG, number: 3 } }]);
  });
  it('keeps the first number a bug was given', () => {
    given(reported({ number: 5 }))
      .when(numberIt(9))
      .thenNothing();
    given(...aReportedBug(), { type: 'BugNumbered', data: { bugId: BUG, number: 3 } })
      .when(numberIt(9))
      .thenNothing();
  });
  it('is not found when the bug never existed', () => {
    given().when(numberIt(1)).thenThrows('not_found', bugMessages.notFound);
  });
  it('leaves updatedAt alone: naming an old bug is not a change to it', () => {
    const at = (occurredAt: string) => ({ metadata: { occurredAt } });
    const before = evolveBug(evolveBug(initialBugState(), { ...reported(), ...at('2026-01-01T00:00:00.000Z') }), {
      type: 'BugNumbered',
      data: { bugId: BUG, number: 4 },
      ...at('2026-05-01T00:00:00.000Z'),
    });
    expect(before).toMatchObject({ number: 4, updatedAt: '2026-01-01T00:00:00.000Z' });
  });
});

describe('DeleteBug', () => {
  const del = (actor = tester) => command('DeleteBug', { bugId: BUG }, actor);
  it('lets the reporter delete it', () => {
    given(...aReportedBug())
      .when(del())
      .then([deleted]);
  });
  it('lets an admin delete it', () => {
    given(...aReportedBug())
      .when(del(admin))
      .then([deleted]);
  });
  it('refuses the assigned developer', () => {
    given(...aReportedBug())
      .when(del(developer))
      .thenThrows('forbidden', bugWriteMessages.cannotDelete);
  });
  it('refuses another tester with the view message', () => {
    given(...aReportedBug())
      .when(del(otherTester))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
  });
  it('is not found once deleted', () => {
    given(...aReportedBug(), deleted)
      .when(del(admin))
      .thenThrows('not_found', bugMessages.notFound);
  });
  it('is not found when it never existed', () => {
    given().when(del(admin)).thenThrows('not_found', bugMessages.notFound);
  });
});

describe('UpdateBug (the edit form)', () => {
  const update = (
    changes: Parameters<typeof command<'UpdateBug'>>[1]['changes'],
    actor = tester,
    knownDeveloperIds?: string[],
  ) => command('UpdateBug', { bugId: BUG, changes, newItemIds: ['n1', 'n2'], knownDeveloperIds }, actor);

  it('edits details, assignees, checklist and links in one decision', () => {
    given(...aReportedBug())
      .when(
        update({
          title: 'Login button still broken',
          assigneeIds: [otherDeveloper.id],
          checklist: [{ text: 'Reproduce it' }],
          attachments: ['https://x.test/shot.png'],
        }),
      )
      .then([
        { type: 'BugDetailsEdited', data: { bugId: BUG, changes: { title: 'Login button still broken' } } },
        { type: 'DevelopersAssigned', data: { bugId: BUG, developerIds: [otherDeveloper.id] } },
        { type: 'DevelopersUnassigned', data: { bugId: BUG, developerIds: [developer.id] } },
        itemAdded('n1', 'Reproduce it'),
        { type: 'AttachmentLinkAdded', data: { bugId: BUG, url: 'https://x.test/shot.png' } },
      ]);
  });

  it('answers every broken rule at once, in the spec order', () => {
    given(...aReportedBug())
      .when(
        update({ title: 'abc', description: 'short', assigneeIds: [], dueDate: '2001-01-01', module: 'x'.repeat(60) }),
      )
      .thenThrows('validation', bugMessages.titleTooShort, [
        { field: 'title', message: 'Title must be at least 5 characters long' },
        { field: 'description', message: 'Description must be at least 10 characters long' },
        { field: 'assignedTo', message: 'At least one developer must be assigned' },
        { field: 'dueDate', message: 'Due date must be in the future' },
        { field: 'module', message: 'Module name cannot exceed 50 characters' },
      ]);
  });

  it('checks only newly assigned ids against the known developers', () => {
    given(...aReportedBug())
      .when(update({ assigneeIds: [developer.id, 'ghost'] }, admin, []))
      .thenThrows('validation', bugLimitMessages.unknownDevelopers);
  });

  it('ignores ticks from the reporting tester', () => {
    given(...aReportedBug(), itemAdded('a', 'Step one'))
      .when(update({ checklist: [{ id: 'a', text: 'Step one', completed: true }] }))
      .thenNothing();
  });

  it('counts ticks from an admin', () => {
    given(...aReportedBug(), itemAdded('a', 'Step one'))
      .when(update({ checklist: [{ id: 'a', text: 'Step one', completed: true }] }, admin))
      .then([{ type: 'ChecklistItemCompleted', data: { bugId: BUG, itemId: 'a', by: admin.id, at: NOW } }]);
  });

  it("applies the admin form's status with the edit", () => {
    given(...aReportedBug())
      .when(update({ title: 'Login button still broken', status: 'Closed' }, admin))
      .then([
        { type: 'BugDetailsEdited', data: { bugId: BUG, changes: { title: 'Login button still broken' } } },
        { type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } },
      ]);
  });

  it("ignores the status a tester's form echoes", () => {
    given(...aReportedBug())
      .when(update({ status: 'Closed' }))
      .thenNothing();
  });

  it('refuses the assigned developer', () => {
    given(...aReportedBug())
      .when(update({ title: 'Developer title' }, developer))
      .thenThrows('forbidden', bugWriteMessages.cannotEdit);
  });

  it('refuses another tester with the view message', () => {
    given(...aReportedBug())
      .when(update({ title: 'Other tester title' }, otherTester))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
  });
});

describe('a private project’s bugs (issue 35)', () => {
  const SEC = 'project-sec';
  const vault: typeof general = { ...general, id: SEC, private: true, members: { [tester.id]: 'lead' } };
  const inVault = () => [reported({ projectId: SEC, projectNumber: 1 }), assigned(developer.id)];
  /** The same people, after they left the project (or never were members of it). */
  const outside = (actor: Actor): Actor => ({ ...actor, hiddenProjects: [SEC] });

  it('do not exist for one it is hidden from, reporter and assignee included: every command is 404', () => {
    const commands = [
      command('UpdateBug', { bugId: BUG, changes: { title: 'Edited from outside' }, newItemIds: [] }, outside(tester)),
      command('ChangeBugStatus', { bugId: BUG, status: 'Closed' }, outside(developer)),
      command('SetChecklist', { bugId: BUG, items: [], newItemIds: [] }, outside(developer)),
      command('DeleteBug', { bugId: BUG }, outside(tester)),
    ];
    for (const c of commands)
      given(...inVault())
        .when(c)
        .thenThrows('not_found', bugMessages.notFound);
  });

  it('are worked on as before by whom the project is not hidden from', () => {
    given(...inVault())
      .when(command('ChangeBugStatus', { bugId: BUG, status: 'In Progress' }, { ...developer, hiddenProjects: [] }))
      .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'In Progress' } }]);
  });

  it('are reported only to its members: an outsider assignee is 400 and nothing is appended', () => {
    given()
      .when(report({ project: vault, knownDeveloperIds: [developer.id] }))
      .thenThrows('validation', bugProjectMessages.assigneeNotMember);
    const events = given()
      .when(report({ project: { ...vault, members: { ...vault.members, [developer.id]: 'member' } } }))
      .thenEvents();
    expect(events[0]).toMatchObject({ type: 'BugReported', data: { projectId: SEC } });
  });

  it('are given only to members: assigning one it is hidden from is 400; one already assigned stays', () => {
    const assign = (assigneeIds: string[], hidden: Record<string, string[]>) =>
      command(
        'UpdateBug',
        {
          bugId: BUG,
          changes: { assigneeIds },
          newItemIds: [],
          knownDeveloperIds: assigneeIds,
          developersHiddenProjects: hidden,
        },
        admin,
      );
    given(...inVault())
      .when(assign([developer.id, otherDeveloper.id], { [otherDeveloper.id]: [SEC] }))
      .thenThrows('validation', bugProjectMessages.assigneeNotMember);
    given(...inVault())
      .when(assign([developer.id, otherDeveloper.id], { [otherDeveloper.id]: [] }))
      .then([{ type: 'DevelopersAssigned', data: { bugId: BUG, developerIds: [otherDeveloper.id] } }]);
  });
});

describe('a team project’s bugs (issue 35: access "team")', () => {
  const TEAM = 'project-web';
  const web: typeof general = {
    ...general,
    id: TEAM,
    access: 'team',
    members: {
      [tester.id]: 'lead',
      [otherTester.id]: 'member',
      [developer.id]: 'member',
      [otherDeveloper.id]: 'member',
    },
  };
  const member = (actor: Actor): Actor => ({ ...actor, teamProjects: [TEAM] });
  /** Reported by `tester`, assigned to `developer`, in the team project. */
  const inTeam = () => [reported({ projectId: TEAM, projectNumber: 1 }), assigned(developer.id)];
  const status = (to: 'Open' | 'In Progress' | 'Closed', actor: Actor) =>
    command('ChangeBugStatus', { bugId: BUG, status: to }, actor);

  it('takes a report without an assignee into the project’s triage', () => {
    const events = given()
      .when(report({ project: web, assigneeIds: [] }, member(tester)))
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['BugReported', 'BugInTriage']);
    expect(events[1]).toEqual({ type: 'BugInTriage', data: { bugId: BUG, projectId: TEAM } });
  });

  it('still asks for an assignee in a project by the reporters’ rules', () => {
    given()
      .when(report({ assigneeIds: [] }))
      .thenThrows('validation', bugMessages.developerRequired);
  });

  it('lets any developer member change the status and tick the checklist, assigned or not', () => {
    given(...inTeam())
      .when(status('In Progress', member(otherDeveloper)))
      .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'In Progress' } }]);
    given(...inTeam(), itemAdded('i1', 'Reproduce'))
      .when(
        command(
          'SetChecklist',
          { bugId: BUG, items: [{ id: 'i1', text: 'Reproduce', completed: true }], newItemIds: [] },
          member(otherDeveloper),
        ),
      )
      .then([
        {
          type: 'ChecklistItemCompleted',
          data: { bugId: BUG, itemId: 'i1', by: otherDeveloper.id, at: NOW },
        },
      ]);
    // Not a member: the roles' rules, as before.
    given(...inTeam())
      .when(status('In Progress', otherDeveloper))
      .thenThrows('forbidden', bugMessages.noPermissionToView);
  });

  it('lets its reporter close and reopen it, and nothing else; another tester member not at all', () => {
    given(...inTeam())
      .when(status('Closed', member(tester)))
      .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } }]);
    given(...inTeam(), { type: 'BugStatusChanged', data: { bugId: BUG, from: 'Open', to: 'Closed' } })
      .when(status('Open', member(tester)))
      .then([{ type: 'BugStatusChanged', data: { bugId: BUG, from: 'Closed', to: 'Open' } }]);
    given(...inTeam())
      .when(status('In Progress', member(tester)))
      .thenThrows('forbidden', bugWriteMessages.cannotChangeStatus);
    given(...inTeam())
      .when(status('Closed', member(otherTester)))
      .thenThrows('forbidden', bugWriteMessages.cannotChangeStatus);
  });

  it('keeps a bug in triage without an assignee while its details change', () => {
    given(reported({ projectId: TEAM, projectNumber: 1 }))
      .when(command('UpdateBug', { bugId: BUG, changes: { title: 'Login broken on Safari' }, newItemIds: [] }, tester))
      .then([{ type: 'BugDetailsEdited', data: { bugId: BUG, changes: { title: 'Login broken on Safari' } } }]);
  });
});
