import { bugReportedData, projectionSpec, recorded } from '@bugtrail/testing/projections';
import { describe, expect, it } from 'vitest';
import {
  notificationsProjection,
  notificationsTopic,
  type StoredForNotifications,
} from './notifications.projection.js';

/** A bug #7 reported by Tess and assigned to Dev, and the names of the people acting. */
const stored = (): StoredForNotifications => ({
  bugs: [
    {
      id: 'b7',
      number: 7,
      title: 'Login fails',
      reporter_id: 'tess',
      assignee_ids: ['dev'],
      deleted: false,
      project_id: 'web',
      status: 'Open',
      watcher_ids: [],
    },
    {
      id: 'b8',
      number: 8,
      title: 'Gone',
      reporter_id: 'tess',
      assignee_ids: ['dev'],
      deleted: true,
      project_id: 'web',
      status: 'Open',
      watcher_ids: [],
    },
  ],
  chats: [{ id: 'c1', name: 'Release' }],
  names: new Map([
    ['ada', 'Ada Admin'],
    ['dev', 'Dev One'],
  ]),
  admins: ['ada', 'ari'],
});
const { given } = projectionSpec(notificationsProjection, stored);
const by = (actorId: string) => ({ actorId });
const made = (changes: ReturnType<ReturnType<ReturnType<typeof given>['when']>['changes']>) =>
  changes.made.map((n) => `${n.user_id} ${n.kind}: ${n.text}`);
const report = bugReportedData({
  bugId: 'b9',
  title: 'Crash on save',
  reporterId: 'tess',
  number: 9,
});

describe('notifications, one handler per event', () => {
  it('BugReported and DevelopersAssigned: the newly assigned are told, by the actor’s current name', () => {
    const changes = given(recorded('BugReported', report, by('tess')))
      .when(recorded('DevelopersAssigned', { bugId: 'b9', developerIds: ['dev', 'dan'] }, by('ada')))
      .changes();
    expect(made(changes)).toEqual([
      'dev assigned: Ada Admin assigned you to #9 Crash on save',
      'dan assigned: Ada Admin assigned you to #9 Crash on save',
    ]);
    expect(changes.bugs.get('b9')?.assignee_ids).toEqual(['dev', 'dan']);
    expect(changes.made[0]).toMatchObject({ bug_id: 'b9', actor_id: 'ada', mail: 'immediate' });
  });

  it('names the projects of the bugs a person was told of, for their live topic (issue 35)', () => {
    const changes = given(recorded('BugReported', { ...report, projectId: 'sec', projectNumber: 1 }, by('tess')))
      .when(
        recorded('DevelopersAssigned', { bugId: 'b9', developerIds: ['dev'] }, by('ada')),
        recorded('CommentAdded', { bugId: 'b7', commentId: 'k1', body: 'Also here', mentions: [] }, by('ada')),
        recorded(
          'MessageSent',
          {
            chatId: 'c1',
            messageId: 'm1',
            senderId: 'ada',
            content: '@mo',
            attachments: [],
            mentions: ['mo'],
            replyTo: null,
          },
          by('ada'),
        ),
      )
      .changes();
    // Dev: one about a SEC bug, one about a WEB bug; Tess: a WEB bug; Mo: a chat (no project).
    expect(notificationsTopic('dev', changes.madeIn.get('dev') ?? null)).toBe('notifications:dev|dev|sec,web');
    expect(notificationsTopic('tess', changes.madeIn.get('tess') ?? null)).toBe('notifications:tess|tess|web');
    expect(notificationsTopic('mo', changes.madeIn.get('mo') ?? null)).toBe('notifications:mo');
  });

  it('DevelopersAssigned: someone assigned already is not told again', () => {
    const changes = given()
      .when(recorded('DevelopersAssigned', { bugId: 'b7', developerIds: ['dev'] }, by('ada')))
      .changes();
    expect(changes.made).toEqual([]);
  });

  it('BugStatusChanged: the reporter is told, never the one who changed it', () => {
    const changed = (actor: string) =>
      recorded('BugStatusChanged', { bugId: 'b7', from: 'Open', to: 'In Progress' }, by(actor));
    expect(made(given().when(changed('dev')).changes())).toEqual([
      'tess status_changed: Dev One changed the status of #7 Login fails to In Progress',
    ]);
    expect(given().when(changed('tess')).changes().made).toEqual([]);
  });

  it('CommentAdded: the mentioned hear "mentioned", the reporter and assignees "commented"', () => {
    const comment = recorded(
      'CommentAdded',
      { bugId: 'b7', commentId: 'k1', body: 'See @dev', mentions: ['dev', 'mo'] },
      by('ada'),
    );
    expect(made(given().when(comment).changes())).toEqual([
      'dev mentioned: Ada Admin mentioned you on #7 Login fails',
      'mo mentioned: Ada Admin mentioned you on #7 Login fails',
      'tess commented: Ada Admin commented on #7 Login fails',
    ]);
  });

  it('a deleted bug tells nobody; an imported event tells nobody', () => {
    const onDeleted = recorded('BugStatusChanged', { bugId: 'b8', from: 'Open', to: 'Closed' }, by('ada'));
    const imported = recorded(
      'BugStatusChanged',
      { bugId: 'b7', from: 'Open', to: 'Closed' },
      { actorId: 'ada', metadata: { importedFrom: { system: 'jira', id: 'J-1' } } },
    );
    expect(given().when(onDeleted, imported).changes().made).toEqual([]);
  });

  it('BugDueSoon and BugOverdue: the reporter and the assignees', () => {
    const changes = given()
      .when(recorded('BugOverdue', { bugId: 'b7', dueDate: '2026-11-28' }, { actorId: null }))
      .changes();
    expect(made(changes)).toEqual([
      'tess overdue: #7 Login fails is overdue',
      'dev overdue: #7 Login fails is overdue',
    ]);
  });

  it('MessageSent: the mentioned, with the chat’s name as the batch knows it', () => {
    const message = recorded(
      'MessageSent',
      {
        chatId: 'c1',
        messageId: 'm1',
        senderId: 'dev',
        content: '@ada',
        attachments: [],
        mentions: ['ada'],
        replyTo: null,
      },
      by('dev'),
    );
    const renamed = recorded('ChatRenamed', { chatId: 'c1', name: 'Release 2.4' }, by('ada'));
    expect(made(given(renamed).when(message).changes())).toEqual([
      'ada mentioned: Dev One mentioned you in the chat Release 2.4',
    ]);
  });

  it('WebhookDisabled: every active admin; MfaReset: the person, as a security notice', () => {
    const disabled = recorded(
      'WebhookDisabled',
      { webhookId: 'w1', url: 'https://hooks.example.test/x', failedEvents: 50 },
      { actorId: null },
    );
    const reset = recorded('MfaReset', { userId: 'dev' }, by('ada'));
    expect(made(given().when(disabled, reset).changes())).toEqual([
      'ada webhook_disabled: Webhook https://hooks.example.test/x was switched off after 50 events in a row failed',
      'ari webhook_disabled: Webhook https://hooks.example.test/x was switched off after 50 events in a row failed',
      'dev mfa_reset: Ada Admin turned off two-factor authentication on your account. Set it up again in Account security',
    ]);
  });

  it('NotificationsRead and NotificationPreferencesChanged are kept for the write, in order', () => {
    const read = recorded('NotificationsRead', {
      userId: 'dev',
      ids: ['n1'],
      all: false,
      upTo: '2026-11-29T12:00:00Z',
    });
    const prefs = recorded('NotificationPreferencesChanged', { userId: 'dev', email: 'daily' });
    const changes = given(read).when(prefs).changes();
    expect(changes.reads).toEqual([read.data]);
    expect(changes.prefChanges).toEqual([{ userId: 'dev', email: 'daily', position: prefs.position }]);
  });
});
