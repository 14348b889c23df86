import { describe, expect, it } from 'vitest';
import type { TeamMember } from '../../../lib/types';
import { listTeam, teamSearchFrom } from './team-search';

const member = (name: string, role: TeamMember['role'], createdAt?: string): TeamMember => ({
  _id: name.toLowerCase().replace(/\s+/g, '-'),
  name,
  email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
  role,
  profileImageURL: null,
  profileImageUrl: null,
  pendingTasks: 0,
  inProgressTasks: 0,
  completedTasks: 0,
  ...(createdAt ? { createdAt } : {}),
});

const team = [
  member('Quinn QA', 'tester', '2024-03-01T00:00:00Z'),
  member('avery Admin', 'admin', '2024-01-01T00:00:00Z'),
  member('Drew Backend', 'developer', '2024-02-01T00:00:00Z'),
  member('Audra Auditor', 'auditor', '2024-04-01T00:00:00Z'),
];
const names = (members: TeamMember[]) => members.map((m) => m.name);

describe('the team list', () => {
  it('sorts by name by default, ignoring case', () => {
    expect(names(listTeam(team, {}))).toEqual(['Audra Auditor', 'avery Admin', 'Drew Backend', 'Quinn QA']);
  });

  it('sorts by role in the vocabulary order, then by name', () => {
    expect(names(listTeam(team, { sort: 'role' }))).toEqual([
      'avery Admin',
      'Quinn QA',
      'Drew Backend',
      'Audra Auditor',
    ]);
  });

  it('puts the newest sign-up first', () => {
    expect(names(listTeam(team, { sort: 'newest' }))).toEqual([
      'Audra Auditor',
      'Quinn QA',
      'Drew Backend',
      'avery Admin',
    ]);
  });

  it('finds people by name or email, any case', () => {
    expect(names(listTeam(team, { q: 'AUD' }))).toEqual(['Audra Auditor']);
    expect(names(listTeam(team, { q: 'drew.backend@' }))).toEqual(['Drew Backend']);
    expect(listTeam(team, { q: 'nobody' })).toEqual([]);
  });
});

describe('the team search params', () => {
  it('keeps a known order and a search, and leaves the default order out', () => {
    expect(teamSearchFrom({ q: ' kim ', sort: 'role' })).toEqual({ q: 'kim', sort: 'role' });
    expect(teamSearchFrom({ sort: 'name' })).toEqual({});
    expect(teamSearchFrom({ sort: 'salary', q: '' })).toEqual({});
    expect(teamSearchFrom({ q: 42 })).toEqual({ q: '42' });
  });
});
