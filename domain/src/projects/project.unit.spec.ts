import { deciderSpec } from '@bugtrail/testing';
import { describe, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import { type ProjectCommand, projectDecider } from './project.js';
import { projectMessages } from './project.schemas.js';

const { given } = deciderSpec(projectDecider);
const now = '2026-11-29T08:00:00.000Z';
const admin: Actor = { id: 'admin-1', role: 'admin' };
const lead: Actor = { id: 'lee', role: 'developer' };
const member: Actor = { id: 'tess', role: 'tester' };
const outsider: Actor = { id: 'otto', role: 'developer' };
const auditor: Actor = { id: 'audrey', role: 'auditor' };
const projectId = 'p-1';

const as = (actor: Actor | null, command: Pick<ProjectCommand, 'type' | 'data'>) =>
  ({ ...command, metadata: { actor, now } }) as ProjectCommand;
const create = (data: Partial<{ key: string; private: boolean }> = {}) => ({
  type: 'CreateProject' as const,
  data: { projectId, key: 'WEB', name: 'Web', description: '', private: false, access: 'reporters' as const, ...data },
});
const created = (data: Partial<{ key: string; private: boolean }> = {}) => ({
  type: 'ProjectCreated' as const,
  data: { projectId, key: 'WEB', name: 'Web', description: '', private: false, access: 'reporters' as const, ...data },
});
const added = (userId: string, role: 'lead' | 'member') => ({
  type: 'ProjectMemberAdded' as const,
  data: { projectId, userId, role },
});
const update = (data: Record<string, unknown>) => ({ type: 'UpdateProject' as const, data });
const setMember = (userId: string, role: 'lead' | 'member', userKnown = true) => ({
  type: 'SetProjectMember' as const,
  data: { userId, role, userKnown },
});
const removeMember = (userId: string) => ({ type: 'RemoveProjectMember' as const, data: { userId } });

describe('CreateProject', () => {
  it('records an admin’s new project, and the system’s (the default project at the first start)', () => {
    given().when(as(admin, create())).then([created()]);
    given()
      .when(as(null, create({ key: 'BUG' })))
      .then([created({ key: 'BUG' })]);
  });

  it('refuses anyone but an admin', () => {
    for (const actor of [lead, member, auditor]) {
      given().when(as(actor, create())).thenThrows('forbidden', projectMessages.adminsCreate);
    }
  });

  it('refuses a key that is not 2 to 10 capitals or digits starting with a letter', () => {
    for (const key of ['W', 'web', '1WEB', 'WEB-1', 'ABCDEFGHIJK', '']) {
      given()
        .when(as(admin, create({ key })))
        .thenThrows('validation', projectMessages.keyInvalid);
    }
  });

  it('refuses to make a project twice', () => {
    given(created()).when(as(admin, create())).thenThrows('conflict', projectMessages.alreadyExists);
  });
});

describe('UpdateProject', () => {
  it('records each change as its own event, and nothing for what is already so', () => {
    given(created(), added('lee', 'lead'))
      .when(as(lead, update({ name: 'Website', key: 'SITE', private: true, access: 'team', archived: true })))
      .then([
        { type: 'ProjectKeyChanged', data: { projectId, key: 'SITE', previousKey: 'WEB' } },
        { type: 'ProjectRenamed', data: { projectId, name: 'Website' } },
        { type: 'ProjectPrivacyChanged', data: { projectId, private: true } },
        { type: 'ProjectAccessChanged', data: { projectId, access: 'team' } },
        { type: 'ProjectArchived', data: { projectId } },
      ]);
    given(created())
      .when(as(admin, update({ name: 'Web', key: 'WEB', private: false, description: '' })))
      .thenNothing();
  });

  it('restores an archived project and changes its description', () => {
    given(created(), { type: 'ProjectArchived', data: { projectId } })
      .when(as(admin, update({ archived: false, description: 'The website' })))
      .then([
        { type: 'ProjectDescriptionChanged', data: { projectId, description: 'The website' } },
        { type: 'ProjectRestored', data: { projectId } },
      ]);
  });

  it('refuses members who are not leads, and auditors', () => {
    given(created(), added('tess', 'member'))
      .when(as(member, update({ name: 'X' })))
      .thenThrows('forbidden', projectMessages.adminsAndLeads);
    given(created())
      .when(as(auditor, update({ name: 'X' })))
      .thenThrows('forbidden', userMessages.readOnlyRole);
  });

  it('answers 404 to a non-member of a private project, and for a project that does not exist', () => {
    given(created({ private: true }))
      .when(as(outsider, update({ name: 'X' })))
      .thenThrows('not_found', projectMessages.notFound);
    given()
      .when(as(admin, update({ name: 'X' })))
      .thenThrows('not_found', projectMessages.notFound);
  });

  it('keeps the default project on the reporters’ rules', () => {
    given(created())
      .when(as(admin, update({ access: 'team', isDefault: true })))
      .thenThrows('conflict', projectMessages.defaultKeepsReporters);
    given(created())
      .when(as(admin, update({ access: 'team', isDefault: false })))
      .then([{ type: 'ProjectAccessChanged', data: { projectId, access: 'team' } }]);
  });

  it('refuses an invalid new key', () => {
    given(created())
      .when(as(admin, update({ key: 'w' })))
      .thenThrows('validation', projectMessages.keyInvalid);
  });
});

describe('SetProjectMember and RemoveProjectMember', () => {
  it('adds a member, changes their role, and removes them', () => {
    given(created())
      .when(as(admin, setMember('tess', 'member')))
      .then([added('tess', 'member')]);
    given(created(), added('lee', 'lead'), added('tess', 'member'))
      .when(as(lead, setMember('tess', 'lead')))
      .then([{ type: 'ProjectMemberRoleChanged', data: { projectId, userId: 'tess', role: 'lead' } }]);
    given(created(), added('lee', 'lead'), added('tess', 'member'))
      .when(as(lead, removeMember('tess')))
      .then([{ type: 'ProjectMemberRemoved', data: { projectId, userId: 'tess' } }]);
    given(created(), added('tess', 'member'))
      .when(as(admin, setMember('tess', 'member')))
      .thenNothing();
  });

  it('refuses an unknown person (404) and removing someone who is not a member (404)', () => {
    given(created())
      .when(as(admin, setMember('ghost', 'member', false)))
      .thenThrows('not_found', projectMessages.userNotFound);
    given(created())
      .when(as(admin, removeMember('tess')))
      .thenThrows('not_found', projectMessages.memberNotFound);
  });

  it('keeps the last lead: neither removed nor made a member while no one else leads', () => {
    given(created(), added('lee', 'lead'))
      .when(as(admin, removeMember('lee')))
      .thenThrows('conflict', projectMessages.lastLead);
    given(created(), added('lee', 'lead'))
      .when(as(admin, setMember('lee', 'member')))
      .thenThrows('conflict', projectMessages.lastLead);
    given(created(), added('lee', 'lead'), added('kim', 'lead'))
      .when(as(lead, removeMember('lee')))
      .then([{ type: 'ProjectMemberRemoved', data: { projectId, userId: 'lee' } }]);
  });

  it('refuses members who are not leads, and is 404 to a non-member of a private project', () => {
    given(created(), added('tess', 'member'))
      .when(as(member, setMember('otto', 'member')))
      .thenThrows('forbidden', projectMessages.adminsAndLeads);
    given(created({ private: true }), added('tess', 'member'))
      .when(as(outsider, removeMember('tess')))
      .thenThrows('not_found', projectMessages.notFound);
  });
});
