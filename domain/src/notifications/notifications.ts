import { z } from 'zod';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../core/errors.js';
import type { Command, Decider, Event } from '../core/event.js';

/**
 * Notifications (api.md "People"): a projection turns events into notifications for the
 * people they concern, never the actor. Reading them is the owner's own change, an event
 * on `notifications-{userId}` (`NotificationsRead`: some ids, or everything up to a moment).
 */
export const notificationKinds = [
  'assigned',
  'mentioned',
  'commented',
  'status_changed',
  'due_soon',
  'overdue',
  /** To admins: an outgoing webhook was switched off (api.md "Integrations"). */
  'webhook_disabled',
  /** To the person: an admin turned their two-factor sign-in off (api.md "Second round of safety"). */
  'mfa_reset',
  /** To a team project's leads: a report came in without an assignee (api.md "Projects"). */
  'triage',
  /** To a bug's assignees: the last open bug that blocked it was closed (api.md "Relations and sub-bugs"). */
  'unblocked',
  /** To the people or role an automation rule's `notify` names (api.md "Automation rules"). */
  'rule',
  /** To admins: a rule kept failing and was paused (api.md "Automation rules"). */
  'rule_paused',
  /** To a bug's assignees (its reporter when it has none): a target of its SLA passed unmet. */
  'sla_breached',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notificationLimits = { listed: 50, idsPerRead: 500 } as const;

export const notificationMessages = {
  nothingToMark: 'Send ids (a list of notification ids) or all: true',
  tooManyIds: `At most ${notificationLimits.idsPerRead} ids at once`,
} as const;

export type NotificationDto = {
  _id: string;
  kind: NotificationKind;
  text: string;
  bugId: string | null;
  chatId: string | null;
  actor: { _id: string; name: string } | null;
  createdAt: string;
  readAt: string | null;
};

const id = z.string().min(1).max(300);
export const notificationsReadData = z.object({
  userId: id,
  /** The ids marked read; with `all`, everything made up to `upTo` is. */
  ids: z.array(id).max(notificationLimits.idsPerRead),
  all: z.boolean(),
  upTo: z.string().min(1),
});
export type NotificationsReadData = z.infer<typeof notificationsReadData>;
export type NotificationsRead = Event<'NotificationsRead', NotificationsReadData>;

export const notificationEventSchemas = { NotificationsRead: { version: 1, data: notificationsReadData } } as const;

export type MarkNotificationsRead = Command<
  'MarkNotificationsRead',
  { userId: string; ids: readonly string[]; all: boolean }
>;

/** The stream only records reads: nothing to fold. */
export const notificationsDecider: Decider<null, MarkNotificationsRead, NotificationsRead> = {
  initialState: () => null,
  evolve: (state) => state,
  decide(command) {
    const actor = command.metadata.actor;
    if (!actor) throw new UnauthorizedError('Not authorized, no token');
    if (actor.id !== command.data.userId) throw new ForbiddenError("You don't have permission to do that");
    const ids = [...new Set(command.data.ids)];
    if (!command.data.all && ids.length === 0) throw ValidationError.field('ids', notificationMessages.nothingToMark);
    if (ids.length > notificationLimits.idsPerRead) throw ValidationError.field('ids', notificationMessages.tooManyIds);
    return [
      {
        type: 'NotificationsRead',
        data: { userId: actor.id, ids: command.data.all ? [] : ids, all: command.data.all, upTo: command.metadata.now },
      },
    ];
  },
};
