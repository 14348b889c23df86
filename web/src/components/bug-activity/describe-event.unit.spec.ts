import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from './activity-api';
import { activityRows, changeMoments, fieldLabel, formatFieldValue, joinNames } from './describe-event';
import { momentIndex } from './moment';
import { diffText } from './text-diff';

const dana = { _id: 'u-dana', name: 'Dana Dev' };
const ravi = { _id: 'u-ravi', name: 'Ravi Dev' };
const ada = { _id: 'u-ada', name: 'Ada Admin' };
const tess = { _id: 'u-tess', name: 'Tess Tester' };
const lee = { _id: 'u-lee', name: 'Lee Dev' };

let revision = 0;
function entry(
  type: string,
  actor: typeof dana,
  at: string,
  data: Record<string, unknown>,
  changes = [],
): HistoryEntry {
  return { _id: `e${revision}`, revision: revision++, type, at, actor, data, changes };
}

const step = { _id: 'i1', text: 'Repro on Safari', completed: false, completedBy: null, completedAt: null };

describe('the timeline in plain words', () => {
  const t0 = '2025-03-12T10:00:00.000Z';
  const report: HistoryEntry[] = [
    entry('BugReported', tess, t0, { title: 'Checkout fails', priority: 'High' }),
    entry('DevelopersAssigned', tess, t0, { developerIds: [dana._id] }, [
      { field: 'assignedTo', from: [], to: [dana] },
    ] as never),
    entry('ChecklistItemAdded', tess, t0, { itemId: 'i1', text: 'Repro on Safari' }),
    entry('ChecklistItemAdded', tess, t0, { itemId: 'i2', text: 'Pay' }),
    entry('AttachmentLinkAdded', tess, t0, { url: 'https://example.com/a.png' }),
  ];

  it("folds a report's own assignments, steps and links into one row, naming none of the steps", () => {
    const [row, ...rest] = activityRows(report, 'tester');
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      actor: tess,
      summary: 'reported the bug and assigned Dana Dev, with 2 steps and 1 link',
      revisions: [0, 1, 2, 3, 4],
    });
  });

  it('says which automation rule made a change, and keeps a rule’s assignment out of the report’s row', () => {
    const t1 = '2025-03-12T10:00:01.000Z';
    const byRule: HistoryEntry = {
      ...entry('DevelopersAssigned', ada, t1, { developerIds: [dana._id] }, [
        { field: 'assignedTo', from: [], to: [dana] },
      ] as never),
      metadata: { rule: { _id: 'r-1', name: 'Triage', depth: 1 } },
    };
    const rows = activityRows([...report, byRule], 'admin');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.rule).toBeUndefined();
    expect(rows[1]).toMatchObject({ actor: ada, rule: { _id: 'r-1', name: 'Triage' } });
  });

  it('names the Status field, old then new, in the words of the viewer', () => {
    const moved = entry('BugStatusChanged', dana, '2025-03-12T11:00:00.000Z', { from: 'Open', to: 'In Progress' });
    expect(activityRows([moved], 'tester')[0]!.summary).toBe('changed Status from Open to In Progress');
    expect(activityRows([moved], 'admin')[0]!.summary).toBe('changed Status from Pending to In Progress');
    expect(activityRows([moved], 'developer')[0]!.summary).toBe('changed Status from Pending to In Progress');
    expect(activityRows([moved], 'auditor')[0]!.summary).toBe('changed Status from Pending to In Progress');
  });

  it('names ticked steps, assignees and links', () => {
    const at = '2025-03-12T12:00:00.000Z';
    const rows = activityRows(
      [
        entry('ChecklistItemCompleted', ravi, at, { itemId: 'i1', by: ravi._id }, [
          { field: 'checklist', from: [step], to: [{ ...step, completed: true }] },
        ] as never),
        entry('ChecklistItemReopened', ravi, at, { itemId: 'i1' }, [
          { field: 'checklist', from: [{ ...step, completed: true }], to: [step] },
        ] as never),
        entry('DevelopersAssigned', ada, at, { developerIds: [lee._id] }, [
          { field: 'assignedTo', from: [dana], to: [dana, lee] },
        ] as never),
        entry('DevelopersUnassigned', ada, at, { developerIds: [dana._id, lee._id] }, [
          { field: 'assignedTo', from: [dana, lee], to: [] },
        ] as never),
        entry('ChecklistItemRemoved', tess, at, { itemId: 'i1' }, [
          { field: 'checklist', from: [step], to: [] },
        ] as never),
        entry('AttachmentLinkRemoved', tess, at, { url: 'https://example.com/a.png' }),
        entry('BugDeleted', ada, at, {}),
      ],
      'tester',
    );
    expect(rows.map((r) => `${r.actor?.name} ${r.summary}`)).toEqual([
      "Ravi Dev ticked 'Repro on Safari'",
      "Ravi Dev unticked 'Repro on Safari'",
      'Ada Admin assigned Lee Dev',
      'Ada Admin unassigned Dana Dev and Lee Dev',
      "Tess Tester removed the step 'Repro on Safari'",
      'Tess Tester removed the attachment https://example.com/a.png',
      'Ada Admin deleted the bug',
    ]);
  });

  it('says someone commented, edited or deleted a comment, without the words', () => {
    const at = '2025-03-12T13:00:00.000Z';
    const rows = activityRows(
      [
        entry('CommentAdded', tess, at, { bugId: 'b1', commentId: 'c1', body: 'Repro on **Safari**', mentions: [] }),
        entry('CommentEdited', tess, at, { bugId: 'b1', commentId: 'c1', body: 'Repro on Safari 17', mentions: [] }),
        entry('CommentDeleted', ada, at, { bugId: 'b1', commentId: 'c1' }),
      ],
      'admin',
    );
    expect(rows.map((row) => `${row.actor?.name} ${row.summary}`)).toEqual([
      'Tess Tester commented',
      'Tess Tester edited a comment',
      'Ada Admin deleted a comment',
    ]);
  });

  it('reads a one-field edit as a sentence, field then old then new; several fields as details', () => {
    const at = '2025-03-12T13:00:00.000Z';
    const one = entry('BugDetailsEdited', tess, at, { changes: { priority: 'High' } }, [
      { field: 'priority', from: 'Medium', to: 'High' },
    ] as never);
    expect(activityRows([one], 'tester')[0]!.summary).toBe('changed Priority from Medium to High');
    const dueDate = entry('BugDetailsEdited', tess, at, {}, [
      { field: 'dueDate', from: null, to: '2025-04-01T12:00:00.000Z' },
    ] as never);
    expect(activityRows([dueDate], 'tester')[0]!.summary).toBe('changed Due Date from None to 01 Apr 2025');
    const many = entry('BugDetailsEdited', tess, at, {}, [
      { field: 'title', from: 'Checkout fails', to: 'Checkout fails on Safari' },
      { field: 'description', from: 'It fails', to: 'It fails twice' },
    ] as never);
    const [row] = activityRows([many], 'tester');
    expect(row!.summary).toBe('edited Title and Description');
    expect(row!.details.map((d) => fieldLabel(d.field))).toEqual(['Title', 'Description']);
  });

  it('formats values by the field, whether named by key or by label', () => {
    expect(formatFieldValue('status', 'Closed', 'admin')).toEqual(['Resolved']);
    expect(formatFieldValue('Status', 'Closed', 'tester')).toEqual(['Closed']);
    expect(formatFieldValue('Assign To', [dana, lee], 'admin')).toEqual(['Dana Dev, Lee Dev']);
    expect(formatFieldValue('checklist', [{ ...step, completed: true }, { text: 'Pay' }], 'admin')).toEqual([
      '✓ Repro on Safari',
      '○ Pay',
    ]);
    expect(formatFieldValue('module', null, 'admin')).toEqual(['None']);
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C');
  });

  it('stops the slider once per moment, oldest first, and finds the stop for any time', () => {
    const entries = [
      ...report,
      entry('BugStatusChanged', dana, '2025-03-12T11:00:00.000Z', { from: 'Open', to: 'In Progress' }),
    ];
    const moments = changeMoments(entries);
    expect(moments).toEqual([t0, '2025-03-12T11:00:00.000Z']);
    expect(momentIndex(moments, undefined)).toBe(1);
    expect(momentIndex(moments, '2025-03-12T10:30:00.000Z')).toBe(0);
    expect(momentIndex(moments, '2025-03-12T11:00:00.000Z')).toBe(1);
  });
});

describe('the description diff', () => {
  it('keeps common words and marks removed and added ones in reading order', () => {
    expect(diffText('Clicking checkout does nothing', 'Clicking checkout does nothing on Safari')).toEqual([
      { kind: 'same', text: 'Clicking checkout does nothing ' },
      { kind: 'added', text: 'on Safari' },
    ]);
    const parts = diffText('The total stays the same', 'The total is wrong');
    expect(
      parts
        .filter((p) => p.kind !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe('The total stays the same');
    expect(
      parts
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe('The total is wrong');
  });

  it('keeps line breaks', () => {
    const parts = diffText('one\ntwo', 'one\nthree');
    expect(
      parts
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe('one\nthree');
  });
});
