import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import {
  type FieldDef,
  fieldKeyOf,
  fieldMessages,
  fieldValueChanges,
  liveFields,
  shownFields,
  shownValue,
} from './fields.js';
import { type ProjectCommand, type ProjectEvent, projectDecider } from './project.js';
import { projectMessages } from './project.schemas.js';

const { given } = deciderSpec(projectDecider);
const now = '2026-12-07T08:00:00.000Z';
const admin: Actor = { id: 'admin-1', role: 'admin' };
const lead: Actor = { id: 'lee', role: 'tester' };
const member: Actor = { id: 'tess', role: 'tester' };
const auditor: Actor = { id: 'audrey', role: 'auditor' };
const projectId = 'p-1';

const as = (actor: Actor, command: Pick<ProjectCommand, 'type' | 'data'>) =>
  ({ ...command, metadata: { actor, now } }) as ProjectCommand;
const project: ProjectEvent[] = [
  {
    type: 'ProjectCreated',
    data: { projectId, key: 'WEB', name: 'Web', description: '', private: false, access: 'reporters' },
  },
  { type: 'ProjectMemberAdded', data: { projectId, userId: lead.id, role: 'lead' } },
  { type: 'ProjectMemberAdded', data: { projectId, userId: member.id, role: 'member' } },
];
const add = (name: string, type: FieldDef['type'], options: string[] = [], fieldId = `f-${name}`) => ({
  type: 'AddProjectField' as const,
  data: { fieldId, name, type, options, required: false, optionIds: options.map((_, i) => `${fieldId}-o${i}`) },
});
const added = (name: string, key: string, type: FieldDef['type'], options: string[] = [], fieldId = `f-${name}`) =>
  ({
    type: 'ProjectFieldAdded',
    data: {
      projectId,
      fieldId,
      key,
      name,
      type,
      options: options.map((n, i) => ({ id: `${fieldId}-o${i}`, name: n })),
      required: false,
    },
  }) as ProjectEvent;
const customer = added('Customer', 'customer', 'select', ['Acme', 'Globex']);
const change = (data: Record<string, unknown>, fieldId = 'f-Customer') => ({
  type: 'ChangeProjectField' as const,
  data: { fieldId, optionIds: ['n0', 'n1', 'n2', 'n3'], ...data },
});

describe('AddProjectField', () => {
  it('records a field with a key made from its name, for admins and the project’s leads', () => {
    given(...project)
      .when(as(admin, add('Customer', 'select', ['Acme', 'Globex'])))
      .then([customer]);
    given(...project)
      .when(as(lead, add('Story points', 'number')))
      .then([added('Story points', 'story_points', 'number')]);
  });

  it('refuses members, auditors, and anyone who cannot see the project', () => {
    given(...project)
      .when(as(member, add('Mine', 'text')))
      .thenThrows('forbidden', projectMessages.adminsAndLeads);
    given(...project)
      .when(as(auditor, add('Mine', 'text')))
      .thenThrows('forbidden', userMessages.readOnlyRole);
    given()
      .when(as(admin, add('Mine', 'text')))
      .thenThrows('not_found', projectMessages.notFound);
  });

  it('refuses a name in use (any case), an empty name, options on a plain field, a select without options', () => {
    given(...project, customer)
      .when(as(admin, add('customer ', 'text', [], 'f-2')))
      .thenThrows('conflict', fieldMessages.alreadyExists);
    given(...project)
      .when(as(admin, add('  ', 'text')))
      .thenThrows('validation', fieldMessages.nameRequired);
    given(...project)
      .when(as(admin, add('Notes', 'text', ['a'])))
      .thenThrows('validation', fieldMessages.optionsNotAllowed);
    for (const type of ['select', 'multi_select'] as const) {
      given(...project)
        .when(as(admin, add('Tier', type)))
        .thenThrows('validation', fieldMessages.optionsRequired);
    }
    given(...project)
      .when(as(admin, add('Tier', 'select', ['Gold', 'gold'])))
      .thenThrows('validation', fieldMessages.optionsInvalid);
  });

  it('gives a removed field’s key to no other field', () => {
    given(...project, customer, { type: 'ProjectFieldRemoved', data: { projectId, fieldId: 'f-Customer' } })
      .when(as(admin, add('Customer', 'text', [], 'f-2')))
      .then([added('Customer', 'customer_2', 'text', [], 'f-2')]);
  });
});

describe('ChangeProjectField and RemoveProjectField', () => {
  it('renames an option named by from, keeping its id; a new name is a new option', () => {
    given(...project, customer)
      .when(as(admin, change({ options: [{ name: 'ACME Corp', from: 'Acme' }, 'Globex', 'Initech'] })))
      .then([
        {
          type: 'ProjectFieldChanged',
          data: {
            projectId,
            fieldId: 'f-Customer',
            options: [
              { id: 'f-Customer-o0', name: 'ACME Corp' },
              { id: 'f-Customer-o1', name: 'Globex' },
              { id: 'n2', name: 'Initech' },
            ],
          },
        },
      ]);
  });

  it('reads a list edited in place as renames, and a reordered one as the same options', () => {
    given(...project, customer)
      .when(as(admin, change({ options: ['Acme Inc', 'Globex'] })))
      .then([
        {
          type: 'ProjectFieldChanged',
          data: {
            projectId,
            fieldId: 'f-Customer',
            options: [
              { id: 'f-Customer-o0', name: 'Acme Inc' },
              { id: 'f-Customer-o1', name: 'Globex' },
            ],
          },
        },
      ]);
    const reordered = given(...project, customer)
      .when(as(admin, change({ options: ['Globex', 'Acme'] })))
      .thenEvents();
    expect(reordered[0]?.data).toMatchObject({
      options: [
        { id: 'f-Customer-o1', name: 'Globex' },
        { id: 'f-Customer-o0', name: 'Acme' },
      ],
    });
  });

  it('changes nothing when nothing changes; refuses an unknown field and a name in use', () => {
    given(...project, customer)
      .when(as(admin, change({ name: 'Customer', options: ['Acme', 'Globex'], required: false })))
      .thenNothing();
    given(...project, customer)
      .when(as(admin, change({ name: 'X' }, 'f-none')))
      .thenThrows('not_found', fieldMessages.notFound);
    given(...project, customer, added('Notes', 'notes', 'text'))
      .when(as(admin, change({ name: 'notes' })))
      .thenThrows('conflict', fieldMessages.alreadyExists);
  });

  it('removes a field once; the project keeps it, flagged, with its options', () => {
    const removed: ProjectEvent = { type: 'ProjectFieldRemoved', data: { projectId, fieldId: 'f-Customer' } };
    given(...project, customer)
      .when(as(lead, { type: 'RemoveProjectField', data: { fieldId: 'f-Customer' } }))
      .then([removed]);
    const { state } = given(...project, customer, removed);
    expect(liveFields(state.fields)).toEqual([]);
    expect(state.fields[0]).toMatchObject({ key: 'customer', removed: true });
    given(...project, customer, removed)
      .when(as(admin, { type: 'RemoveProjectField', data: { fieldId: 'f-Customer' } }))
      .thenThrows('not_found', fieldMessages.notFound);
  });
});

describe('values', () => {
  const defs = (() => {
    const { state } = given(
      ...project,
      customer,
      added('Points', 'points', 'number'),
      added('Found', 'found', 'date'),
      added('Platforms', 'platforms', 'multi_select', ['Web', 'iOS']),
      added('Owner', 'owner', 'user'),
      added('Ticket', 'ticket', 'url'),
      added('Notes', 'notes', 'text'),
      { type: 'ProjectFieldChanged', data: { projectId, fieldId: 'f-Points', required: true } },
    );
    return state.fields;
  })();
  const knownUserIds = new Set(['dan']);
  const set = (sent: Record<string, unknown>, current = {}, creating = false) =>
    fieldValueChanges(defs, sent, current, { creating, knownUserIds });

  it('stores each type’s value: option ids, numbers, days, user ids, links, trimmed text', () => {
    expect(
      set({
        customer: 'globex',
        points: '3.5',
        found: '2026-12-01T23:30:00-02:00',
        platforms: ['iOS', 'Web', 'iOS'],
        owner: { _id: 'dan' },
        ticket: 'https://t.example/1',
        notes: ' hi ',
      }),
    ).toEqual({
      changes: {
        'f-Customer': 'f-Customer-o1',
        'f-Points': 3.5,
        'f-Found': '2026-12-02',
        'f-Platforms': ['f-Platforms-o1', 'f-Platforms-o0'],
        'f-Owner': 'dan',
        'f-Ticket': 'https://t.example/1',
        'f-Notes': 'hi',
      },
      issues: [],
    });
  });

  it('names the field of every wrong value, an unknown key, and a required field left out of a report', () => {
    const { issues } = set(
      {
        customer: 'Initech',
        points: 'many',
        found: 'yesterday',
        platforms: 'Android',
        owner: 'nobody',
        ticket: 'ftp://t.example',
        notes: 7,
        colour: 'red',
      },
      {},
      true,
    );
    expect(issues).toEqual([
      { field: 'fields.colour', message: fieldMessages.unknown('colour') },
      { field: 'fields.customer', message: fieldMessages.select('Customer', ['Acme', 'Globex']) },
      { field: 'fields.points', message: fieldMessages.number('Points') },
      { field: 'fields.found', message: fieldMessages.date('Found') },
      { field: 'fields.platforms', message: fieldMessages.multiSelect('Platforms', ['Web', 'iOS']) },
      { field: 'fields.owner', message: fieldMessages.user('Owner') },
      { field: 'fields.ticket', message: fieldMessages.url('Ticket') },
      { field: 'fields.notes', message: fieldMessages.text('Notes') },
    ]);
    expect(set({}, {}, true).issues).toEqual([{ field: 'fields.points', message: fieldMessages.required('Points') }]);
    for (const found of ['2026-13-01', '2026-02-30', '2026-1-5', '99999-01-01T00:00:00Z']) {
      expect(set({ found }).issues, found).toEqual([{ field: 'fields.found', message: fieldMessages.date('Found') }]);
    }
    // An edit that leaves it out keeps it as it is; one that clears it is refused.
    expect(set({ notes: 'x' }).issues).toEqual([]);
    expect(set({ points: null }, { 'f-Points': 2 }).issues).toEqual([
      { field: 'fields.points', message: fieldMessages.required('Points') },
    ]);
  });

  it('answers only changes; null clears a value', () => {
    expect(set({ customer: 'Acme', notes: null }, { 'f-Customer': 'f-Customer-o0', 'f-Notes': 'x' }).changes).toEqual({
      'f-Notes': null,
    });
    expect(set({ notes: null }).changes).toEqual({});
  });

  it('shows values by key and option name; a removed option keeps its name, a removed field is not shown', () => {
    const { state } = given(
      ...project,
      customer,
      added('Notes', 'notes', 'text'),
      {
        type: 'ProjectFieldChanged',
        data: { projectId, fieldId: 'f-Customer', options: [{ id: 'f-Customer-o1', name: 'Globex' }] },
      },
      { type: 'ProjectFieldRemoved', data: { projectId, fieldId: 'f-Notes' } },
    );
    expect(shownFields(state.fields, { 'f-Customer': 'f-Customer-o0', 'f-Notes': 'kept' })).toEqual({
      customer: 'Acme',
    });
    expect(shownValue(state.fields.find((f) => f.key === 'notes')!, 'kept')).toBe('kept');
    // A removed option is no longer a choice.
    expect(fieldValueChanges(state.fields, { customer: 'Acme' }, {}, { creating: false, knownUserIds }).issues).toEqual(
      [{ field: 'fields.customer', message: fieldMessages.select('Customer', ['Globex']) }],
    );
  });
});

describe('fieldKeyOf', () => {
  it('makes a key of lower-case letters, digits and underscores, unique among those taken', () => {
    expect(fieldKeyOf('Customer tier', [])).toBe('customer_tier');
    expect(fieldKeyOf('  Épique / Story-Points!  ', [])).toBe('epique_story_points');
    expect(fieldKeyOf('3rd party', [])).toBe('f_3rd_party');
    expect(fieldKeyOf('!!!', [])).toBe('field');
    expect(fieldKeyOf('Notes', ['notes', 'notes_2'])).toBe('notes_3');
    expect(fieldKeyOf('x'.repeat(80), []).length).toBeLessThanOrEqual(40);
  });
});
