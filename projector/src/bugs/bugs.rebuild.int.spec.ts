import { randomUUID } from 'node:crypto';
import { type BugState, bugStatuses, evolveBug, priorities, type ReportedBug, severities } from '@bugtrail/domain';
import type { NewEvent } from '@bugtrail/eventstore';
import { prng } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, reportBug, userRegistered } from '../../../cli/src/demo/bug-events.js';
import { fieldSortRows } from '../projects/field-sort.js';

/** `except`: a column a rebuild may rightly write otherwise. */
type Table = { name: string; order: string; except?: string };
const TABLES: Table[] = [
  { name: 'users', order: 'id' },
  { name: 'bugs', order: 'id' },
  { name: 'bug_counters', order: 'scope, dim, value' },
  { name: 'bug_users', order: 'id' },
  { name: 'bug_projects', order: 'id' },
  { name: 'projects', order: 'id' },
  { name: 'bug_keys', order: 'project_id, number' },
  { name: 'labels', order: 'id' },
  { name: 'bug_links', order: 'bug_id, other_id, type' },
  { name: 'bug_field_sort', order: 'bug_id, field_id' },
  { name: 'notification_blocks', order: 'blocker_id, blocked_id' },
  { name: 'flow_bugs', order: 'bug_id' },
  { name: 'bug_intervals', order: 'bug_id, field, entered_revision, value' },
  { name: 'bug_changes', order: 'position' },
  { name: 'notification_bugs', order: 'id' },
  // A notification's text names its actor as called when it is made; a rebuild, as called now.
  { name: 'notifications', order: 'id', except: 'text' },
];

/** Now and then, text that COPY (how rebuilds write) or an array literal could take for syntax. */
const ODD = ['\t', '\n', '\r\n', '\\', '\\N', '"', "'", '{a,b}', ' NULL '];

describe('bug read models: random events, then rebuild = live', () => {
  let t: TestSystem;
  const seed = Number(process.env.REBUILD_SEED ?? Date.now() % 1_000_000);

  beforeAll(async () => {
    t = await startTestSystem();
  });
  afterAll(async () => {
    await t?.close();
  });

  const snapshot = async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of TABLES) {
      const { rows } = await t.system.pool.query(
        `select to_jsonb(r) ${table.except ? `- '${table.except}'` : ''} as row from rm.${table.name} r order by ${table.order}`,
      );
      out[table.name] = rows.map((r) => r.row);
    }
    // Every analytics view answers, the same before and after a rebuild.
    const { rows: views } = await t.system.pool.query(
      `select table_name from information_schema.views where table_schema = 'analytics' order by table_name`,
    );
    for (const { table_name } of views) {
      const { rows } = await t.system.pool.query(
        `select to_jsonb(v) as row from analytics.${table_name} v order by to_jsonb(v)::text`,
      );
      out[`analytics.${table_name}`] = rows.map((r) => r.row);
    }
    return out;
  };

  it(`folds a few hundred random events the same live and rebuilt (seed ${seed})`, async () => {
    const r = prng(seed);
    const clock = { now: Date.UTC(2030, 0, 1) };
    const odd = () => (r.next() < 0.3 ? r.pick(ODD) : '');
    const tick = () => {
      clock.now += 1000 + r.int(60_000);
      return new Date(clock.now).toISOString();
    };
    const people = { testers: [] as string[], developers: [] as string[], admins: [] as string[] };
    const registrations: NewEvent[][] = [];
    for (const [role, n] of [
      ['admin', 2],
      ['tester', 4],
      ['developer', 5],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const id = randomUUID();
        people[`${role}s` as keyof typeof people].push(id);
        registrations.push([
          userRegistered({ id, name: `${role} ${i}`, email: `${role}${i}@example.com`, role }, { at: tick() }),
        ]);
      }
    }
    for (const [i, events] of registrations.entries()) {
      const userId = (events[0]!.data as { userId: string }).userId;
      await t.system.store.append(`user-${userId}`, events, 'no_stream');
      void i;
    }
    const everyone = [...people.admins, ...people.testers, ...people.developers];

    // Projects (issue 35): reports go to one or to none (General, as before projects); now and
    // then one takes a new key or name, or a bug moves, and every answer must follow.
    const projects = [
      { id: randomUUID(), key: 'WEB', last: 0 },
      { id: randomUUID(), key: 'API', last: 0 },
    ];
    for (const project of projects) {
      await t.system.store.append(
        `project-${project.id}`,
        [
          event(
            'ProjectCreated',
            {
              projectId: project.id,
              key: project.key,
              name: `${project.key} app`,
              description: '',
              private: false,
              access: 'reporters',
            },
            { actorId: people.admins[0]!, at: tick() },
          ),
        ],
        'no_stream',
      );
      // Custom fields (issue 37): a select and a number; now and then an option renamed or removed, a field removed.
      await t.system.store.append(
        `project-${project.id}`,
        [
          event(
            'ProjectFieldAdded',
            {
              projectId: project.id,
              fieldId: `${project.id}-tier`,
              key: 'tier',
              name: 'Tier',
              type: 'select',
              options: ['Gold', 'Silver', 'Bronze'].map((name) => ({ id: `${project.id}-${name}`, name })),
              required: false,
            },
            { actorId: people.admins[0]!, at: tick() },
          ),
          event(
            'ProjectFieldAdded',
            {
              projectId: project.id,
              fieldId: `${project.id}-points`,
              key: 'points',
              name: 'Points',
              type: 'number',
              options: [],
              required: false,
            },
            { actorId: people.admins[0]!, at: tick() },
          ),
        ],
        'any',
      );
    }
    let keyCount = 0;
    // Labels (issue 36): made, renamed or recoloured, deleted; bugs carry them.
    const labels: { id: string; deleted: boolean }[] = [];
    const policies: { id: string; deleted: boolean }[] = [];
    const relations: {
      bugId: string;
      otherBugId: string;
      type: 'blocks' | 'blocked_by' | 'duplicate_of' | 'relates_to';
    }[] = [];

    const bugs = new Map<string, BugState>();
    const live = () => [...bugs.entries()].filter(([, s]) => s.kind === 'reported' && !s.deleted);
    let total = 0;
    let last = '';
    while (total < 400) {
      const roll = r.next();
      const at = tick();
      let stream: string;
      let events: NewEvent[];
      const candidates = live();
      if (candidates.length < 3 || roll < 0.18) {
        const bugId = randomUUID();
        stream = `bug-${bugId}`;
        events = reportBug(
          {
            bugId,
            reporterId: r.pick([...people.testers, ...people.admins]),
            title: `Bug ${total} ${r.pick(['crash', 'slow page', 'typo', 'login', 'layout'])}${odd()}`,
            description: `Steps to reproduce${odd()} number ${total}`,
            priority: r.pick(priorities),
            severity: r.pick(severities),
            module: r.next() < 0.5 ? null : 'core',
            dueDate: r.next() < 0.5 ? null : new Date(clock.now + 86_400_000).toISOString(),
            assigneeIds: r.some(people.developers, 3),
            checklist: Array.from({ length: r.int(3) }, (_, i) => `Step ${i}`),
            attachments: r.next() < 0.3 ? [`https://example.com/${total}.png`] : [],
            ...(r.next() < 0.6
              ? (() => {
                  const project = r.pick(projects);
                  project.last += 1;
                  return { project: { id: project.id, number: project.last } };
                })()
              : {}),
          },
          { at },
        );
      } else if (roll < 0.2) {
        // A project takes a new key (or only a new name): its bugs' keys follow.
        const project = r.pick(projects);
        stream = `project-${project.id}`;
        keyCount += 1;
        const previousKey = project.key;
        events =
          r.next() < 0.5
            ? [
                event(
                  'ProjectRenamed',
                  { projectId: project.id, name: `Renamed${odd()} ${total}` },
                  { actorId: null, at },
                ),
              ]
            : [
                event(
                  'ProjectKeyChanged',
                  { projectId: project.id, key: (project.key = `K${keyCount}${previousKey.slice(0, 1)}`), previousKey },
                  { actorId: null, at },
                ),
              ];
      } else if (roll < 0.23) {
        // A label made, changed or deleted: its bugs show it, or stop showing it.
        const alive = labels.filter((l) => !l.deleted);
        const label = alive.length > 0 && r.next() < 0.6 ? r.pick(alive) : null;
        const labelId = label?.id ?? randomUUID();
        stream = `label-${labelId}`;
        if (!label) {
          labels.push({ id: labelId, deleted: false });
          events = [
            event(
              'LabelCreated',
              { labelId, name: `label ${total}${odd()}`, color: '#1d76db', description: '' },
              { actorId: people.admins[0]!, at },
            ),
          ];
        } else if (r.next() < 0.7) {
          events = [
            event('LabelChanged', { labelId, name: `renamed ${total}`, color: '#b60205' }, { actorId: null, at }),
          ];
        } else {
          label.deleted = true;
          events = [event('LabelDeleted', { labelId, name: 'gone' }, { actorId: null, at })];
        }
      } else if (roll < 0.235) {
        // A field's options renamed (or one removed), or the number field removed: bugs holding them follow.
        const project = r.pick(projects);
        stream = `project-${project.id}`;
        const names = ['Gold', 'Silver', 'Bronze'].map((name) => ({
          id: `${project.id}-${name}`,
          name: `${name} ${total}${odd()}`.trim(),
        }));
        events = [
          r.next() < 0.8
            ? event(
                'ProjectFieldChanged',
                { projectId: project.id, fieldId: `${project.id}-tier`, options: names.slice(0, 2 + r.int(2)) },
                { actorId: null, at },
              )
            : event(
                'ProjectFieldRemoved',
                { projectId: project.id, fieldId: `${project.id}-points` },
                { actorId: null, at },
              ),
        ];
      } else if (roll < 0.24) {
        // A profile change renames someone shown on many bugs.
        const userId = r.pick(everyone);
        stream = `user-${userId}`;
        events = [
          event(
            'ProfileUpdated',
            {
              userId,
              name: `Renamed${odd()} ${total}`,
              ...(r.next() < 0.5 ? { profileImageURL: `/uploads/${total}.png` } : {}),
            },
            { actorId: userId, at },
          ),
        ];
      } else if (roll < 0.25) {
        // SLA policies (issue 38): written, changed, deleted (every bug they may hold for follows);
        // now and then a breach told on a bug.
        const alive = policies.filter((p) => !p.deleted);
        const policy = alive.length > 0 && r.next() < 0.5 ? r.pick(alive) : null;
        if (candidates.length > 0 && alive.length > 0 && r.next() < 0.25) {
          const [bugId] = r.pick(candidates) as [string, ReportedBug];
          stream = `bug-${bugId}`;
          events = [
            event(
              'BugSlaBreached',
              {
                bugId,
                policyId: r.pick(alive).id,
                policyName: 'told',
                target: r.pick(['respond', 'resolve'] as const),
                dueAt: new Date(clock.now - r.int(86_400_000)).toISOString(),
              },
              { actorId: null, at },
            ),
          ];
        } else if (!policy) {
          const id = randomUUID();
          policies.push({ id, deleted: false });
          stream = `sla-${id}`;
          events = [
            event(
              'SlaPolicyCreated',
              {
                policyId: id,
                name: `policy ${total}${odd()}`,
                projectId: r.next() < 0.5 ? null : r.pick(projects).id,
                conditions: r.next() < 0.5 ? [] : [{ field: 'priority', op: 'in', value: r.some([...priorities], 2) }],
                respondSeconds: r.next() < 0.7 ? 3600 + r.int(86_400) : null,
                resolveSeconds: 86_400 + r.int(864_000),
                createdAt: at,
              },
              { actorId: people.admins[0]!, at },
            ),
          ];
        } else {
          stream = `sla-${policy.id}`;
          if (r.next() < 0.7) {
            events = [
              event(
                'SlaPolicyChanged',
                {
                  policyId: policy.id,
                  name: `changed ${total}`,
                  conditions: [{ field: 'severity', op: 'is_not', value: r.pick(severities) }],
                  respondSeconds: r.next() < 0.5 ? null : 60 + r.int(7200),
                  changedAt: at,
                },
                { actorId: null, at },
              ),
            ];
          } else {
            policy.deleted = true;
            events = [event('SlaPolicyDeleted', { policyId: policy.id, name: 'gone' }, { actorId: null, at })];
          }
        }
      } else {
        const [bugId, state] = r.pick(candidates) as [string, ReportedBug];
        stream = `bug-${bugId}`;
        const actor = { actorId: r.pick(everyone), at };
        const kind = r.int(13);
        const item = state.checklist.length > 0 ? r.pick(state.checklist) : null;
        if (kind === 0) {
          events = [
            event(
              'BugDetailsEdited',
              {
                bugId,
                changes: {
                  title: `Edited ${total}${odd()}`,
                  priority: r.pick(priorities),
                  severity: r.pick(severities),
                },
              },
              actor,
            ),
          ];
        } else if (kind === 1) {
          events = [event('DevelopersAssigned', { bugId, developerIds: r.some(people.developers, 2) }, actor)];
        } else if (kind === 2 && state.assigneeIds.length > 0) {
          events = [event('DevelopersUnassigned', { bugId, developerIds: r.some(state.assigneeIds, 2) }, actor)];
        } else if (kind <= 4) {
          const to = r.pick(bugStatuses.filter((s) => s !== state.status));
          events = [event('BugStatusChanged', { bugId, from: state.status, to }, actor)];
        } else if (kind === 5 && r.next() < 0.5) {
          events = [
            event('ChecklistItemAdded', { bugId, itemId: randomUUID(), text: `Added${odd()} ${total}` }, actor),
          ];
        } else if (kind === 5) {
          // A comment: notifications for the reporter and assignees, or "mentioned" for those it names.
          const mentions = r.next() < 0.5 ? r.some(everyone, 2) : [];
          events = [
            event(
              'CommentAdded',
              { bugId, commentId: randomUUID(), body: `Comment${odd()} ${total}`, mentions },
              actor,
            ),
          ];
        } else if (kind === 6 && item) {
          events = item.completed
            ? [event('ChecklistItemReopened', { bugId, itemId: item.id }, actor)]
            : [event('ChecklistItemCompleted', { bugId, itemId: item.id, by: r.pick(people.developers), at }, actor)];
        } else if (kind === 7 && item) {
          events = [
            r.next() < 0.5
              ? event('ChecklistItemRemoved', { bugId, itemId: item.id }, actor)
              : event('ChecklistItemTextChanged', { bugId, itemId: item.id, text: `Changed ${total}` }, actor),
          ];
        } else if (kind === 8 && r.next() < 0.5) {
          events = [event('AttachmentLinkAdded', { bugId, url: `https://example.com/a${total}` }, actor)];
        } else if (kind === 8) {
          // A file: added, or (when the bug has one) now and then removed.
          const file = state.files.length > 0 && r.next() < 0.4 ? r.pick(state.files) : null;
          events = [
            file
              ? event('AttachmentFileRemoved', { bugId, fileId: file.id, name: file.name }, actor)
              : event(
                  'AttachmentFileAdded',
                  {
                    bugId,
                    fileId: randomUUID(),
                    key: `bug/2030/01/${randomUUID()}.png`,
                    name: `screen ${total}.png`,
                    size: 1 + r.int(5000),
                    contentType: 'image/png',
                  },
                  actor,
                ),
          ];
        } else if (kind === 9 && r.next() < 0.5) {
          const project = r.pick(projects.filter((p) => p.id !== state.projectId));
          project.last += 1;
          events = [
            event(
              'BugMovedToProject',
              { bugId, fromProjectId: state.projectId, projectId: project.id, projectNumber: project.last },
              actor,
            ),
          ];
        } else if (kind === 10 && labels.length > 0) {
          events =
            state.labelIds.length > 0 && r.next() < 0.4
              ? [event('BugLabelsRemoved', { bugId, labelIds: r.some(state.labelIds, 2) }, actor)]
              : [
                  event(
                    'BugLabelsAdded',
                    {
                      bugId,
                      labelIds: r.some(
                        labels.map((l) => l.id),
                        2,
                      ),
                    },
                    actor,
                  ),
                ];
        } else if (kind === 11 && r.next() < 0.5) {
          events = [event('BugRanked', { bugId, rank: `g0${r.int(99_999)}` }, actor)];
        } else if (kind === 11) {
          // Field values of its project now (or of the one it left): set, changed or cleared.
          const project = projects.find((p) => p.id === state.projectId) ?? r.pick(projects);
          events = [
            event(
              'BugFieldsChanged',
              {
                bugId,
                values: {
                  [`${project.id}-tier`]:
                    r.next() < 0.2 ? null : `${project.id}-${r.pick(['Gold', 'Silver', 'Bronze'])}`,
                  ...(r.next() < 0.5 ? { [`${project.id}-points`]: r.next() < 0.2 ? null : r.int(13) } : {}),
                },
              },
              actor,
            ),
          ];
        } else if (kind === 12 || kind === 10) {
          // Relations and parents, to live bugs or since deleted ones: both sides' answers follow.
          const others = [...bugs.keys()].filter((id) => id !== bugId);
          const otherBugId = r.pick(others.length > 0 ? others : [bugId]);
          const mine = relations.filter((x) => x.bugId === bugId);
          const roll2 = r.next();
          if (roll2 < 0.45) {
            const type = r.pick(['blocks', 'blocked_by', 'duplicate_of', 'relates_to'] as const);
            relations.push({ bugId, otherBugId, type });
            events = [event('BugRelationAdded', { bugId, otherBugId, type }, actor)];
          } else if (roll2 < 0.7 && mine.length > 0) {
            const gone = r.pick(mine);
            relations.splice(relations.indexOf(gone), 1);
            events = [event('BugRelationRemoved', { bugId, otherBugId: gone.otherBugId, type: gone.type }, actor)];
          } else {
            events = [event('BugParentSet', { bugId, parentId: r.next() < 0.8 ? otherBugId : null }, actor)];
          }
        } else {
          events = [event('BugDeleted', { bugId }, actor)];
        }
      }
      last = (await t.system.store.append(stream, events, 'any')).position;
      if (stream.startsWith('bug-')) {
        const bugId = stream.slice(4);
        let state = bugs.get(bugId) ?? { kind: 'empty' };
        for (const e of events) state = evolveBug(state, e as never);
        bugs.set(bugId, state);
      }
      total += events.length;
    }
    expect(await t.system.changeFeed.waitFor(last, 30_000)).toBe(true);

    const before = await snapshot();
    expect(before.bugs!.length).toBe(bugs.size);
    // The counters equal a count over the rows (an independent oracle).
    const { rows: recount } = await t.system.pool.query(`
      select to_jsonb(c) as row from (
        select scope, dim, value, count(*)::int as n from (
          select '*' as scope, status, severity, priority from rm.bugs where not deleted
          union all select 'project:' || project_id, status, severity, priority from rm.bugs where not deleted
          union all select 'reporter:' || reporter_id, status, severity, priority from rm.bugs where not deleted
          union all select 'assignee:' || a, status, severity, priority from rm.bugs, unnest(assignee_ids) a where not deleted
        ) s, lateral (values ('status', status), ('severity', severity), ('priority', priority)) as d(dim, value)
        group by scope, dim, value
        union all
        -- Each select option a bug holds, by status, in its project's scope.
        select 'project:' || b.project_id, 'field', (f->>'id') || '/' || o || '/' || b.status, count(*)::int
        from rm.bugs b join rm.bug_projects p on p.id = b.project_id
          cross join jsonb_array_elements(p.fields) f
          cross join lateral jsonb_array_elements_text(case jsonb_typeof(b.field_values->(f->>'id'))
            when 'array' then b.field_values->(f->>'id') else jsonb_build_array(b.field_values->(f->>'id')) end) v(o)
        where not b.deleted and f->>'type' in ('select', 'multi_select') and b.field_values ? (f->>'id')
        group by 1, 2, 3
        order by scope, dim, value
      ) c`);
    expect(before.bug_counters).toEqual(recount.map((r) => r.row));
    // Each bug's sort rows are its project's live fields, keyed from its values (field-sort.ts).
    const { rows: valued } = await t.system.pool.query(
      `select b.id, b.field_values, p.fields from rm.bugs b join rm.bug_projects p on p.id = b.project_id order by b.id`,
    );
    const sortRows = valued
      .flatMap((b) => fieldSortRows(b.id, b.fields, b.field_values ?? {}))
      .sort((a, b) => (a.bug_id + a.field_id < b.bug_id + b.field_id ? -1 : 1));
    expect(before.bug_field_sort).toEqual(sortRows);

    // Each bug's status stays chain: each begins where the previous ended, the last is its status now.
    const { rows: stays } = await t.system.pool.query(
      `select bug_id, value, entered_at, left_at from rm.bug_intervals where field = 'status' order by bug_id, entered_revision`,
    );
    const staysOf = new Map<string, typeof stays>();
    for (const row of stays) staysOf.set(row.bug_id, [...(staysOf.get(row.bug_id) ?? []), row]);
    expect(staysOf.size).toBe(bugs.size);
    for (const [bugId, state] of bugs) {
      const chain = staysOf.get(bugId) ?? [];
      for (let i = 1; i < chain.length; i++) expect(chain[i].entered_at).toEqual(chain[i - 1].left_at);
      expect(chain.at(-1)?.left_at, bugId).toBeNull();
      expect(chain.at(-1)?.value).toBe((state as ReportedBug).status);
    }

    expect(Object.keys(before).filter((k) => k.startsWith('analytics.')).length).toBeGreaterThanOrEqual(8);
    // A rebuild builds the readers' indexes after its replay: the same ones (named after the schema they were built in).
    const indexes = async () =>
      (
        await t.system.pool.query<{ name: string; definition: string }>(
          `select indexname as name, replace(indexdef, indexname, '') as definition
           from pg_indexes where schemaname = 'rm' order by 2`,
        )
      ).rows;
    const indexesBefore = await indexes();
    expect(indexesBefore.map((i) => i.name)).toEqual(expect.arrayContaining(['rm_bugs_newest', 'rm_bug_changes_bug']));
    for (const projection of t.system.projector.projections) await t.system.projector.rebuild(projection.name);
    expect((await indexes()).map((i) => i.definition)).toEqual(indexesBefore.map((i) => i.definition));
    const after = await snapshot();
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const [name, rows] of Object.entries(before)) expect(after[name], name).toEqual(rows);
  });
});
