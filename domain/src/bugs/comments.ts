import { z } from 'zod';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../core/errors.js';
import type { Actor, Command, Decider, Event } from '../core/event.js';
import { rolePermissions } from '../users/permissions.js';
import { type BugState, evolveBug } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { type BugAccessFacts, bugMessages, bugPermissions, isHiddenFrom } from './permissions.js';

/**
 * The discussion under a bug (api.md "People", Comments): events of the bug's own stream,
 * so they sit in its history. They are not changes to the bug: the bug's fields, its
 * updatedAt and the read models built from its fields ignore them, and an edit made from a
 * version older than a comment is not stale for that (the write side passes comment events
 * as harmless to its If-Match check).
 */
export const commentLimits = { bodyMax: 10_000, mentionsMax: 50 } as const;

export const commentMessages = {
  bodyRequired: 'Comment cannot be empty',
  bodyTooLong: `Comment cannot exceed ${commentLimits.bodyMax} characters`,
  tooManyMentions: `A comment can mention at most ${commentLimits.mentionsMax} people`,
  cannotMention: (names: string) => `Cannot mention someone who cannot see this bug: ${names}`,
  notFound: 'Comment not found',
  notAuthor: 'Only the author can edit this comment',
  cannotDelete: 'Only the author or an admin can delete this comment',
  deleted: 'This comment was deleted',
} as const;

const id = z.string().min(1).max(200);
const mentions = z.array(id).max(commentLimits.mentionsMax);
export const commentAddedData = z.object({
  bugId: id,
  commentId: id,
  body: z.string().min(1).max(commentLimits.bodyMax),
  mentions,
});
export const commentEditedData = commentAddedData;
export const commentDeletedData = z.object({ bugId: id, commentId: id });

export const bugCommentEventSchemas = {
  CommentAdded: { version: 1, data: commentAddedData },
  CommentEdited: { version: 1, data: commentEditedData },
  CommentDeleted: { version: 1, data: commentDeletedData },
} as const;
export const commentEventTypes: ReadonlySet<string> = new Set(Object.keys(bugCommentEventSchemas));

export type CommentAddedData = z.infer<typeof commentAddedData>;
export type CommentEditedData = z.infer<typeof commentEditedData>;
export type CommentDeletedData = z.infer<typeof commentDeletedData>;
export type CommentAdded = Event<'CommentAdded', CommentAddedData>;
export type CommentEdited = Event<'CommentEdited', CommentEditedData>;
export type CommentDeleted = Event<'CommentDeleted', CommentDeletedData>;
export type CommentEvent = CommentAdded | CommentEdited | CommentDeleted;

export type CommentState = Readonly<{
  id: string;
  authorId: string;
  body: string;
  mentions: readonly string[];
  deleted: boolean;
  createdAt: string;
  editedAt: string | null;
}>;

/** A comment as every answer shows it (api.md "People"): a deleted one keeps its place, empty. */
export type CommentDto = {
  _id: string;
  author: { _id: string; name: string };
  body: string;
  mentions: string[];
  createdAt: string;
  editedAt: string | null;
  isDeleted: boolean;
};

export const toCommentDto = (comment: CommentState, authorName: string): CommentDto => ({
  _id: comment.id,
  author: { _id: comment.authorId, name: authorName },
  body: comment.deleted ? '' : comment.body,
  mentions: comment.deleted ? [] : [...comment.mentions],
  createdAt: comment.createdAt,
  editedAt: comment.editedAt,
  isDeleted: comment.deleted,
});

/** The bug as comments see it: who may see it (and so comment, or be mentioned), and its comments. */
export type BugDiscussion = Readonly<{ bug: BugState; comments: ReadonlyMap<string, CommentState> }>;

/** The write side's words for who may not be mentioned: a name per id it knows, else the id. */
export type CommentWrite = {
  bugId: string;
  commentId: string;
  body: string;
  mentions: readonly string[];
  /**
   * The roles of the mentioned people as the write side knows them (unknown ids are left out),
   * with the private projects each is no member of.
   */
  mentionedRoles: Readonly<Record<string, { role: Actor['role']; name: string; hiddenProjects?: readonly string[] }>>;
};
export type AddComment = Command<'AddComment', CommentWrite>;
export type EditComment = Command<'EditComment', CommentWrite>;
export type DeleteComment = Command<'DeleteComment', { bugId: string; commentId: string }>;
export type CommentCommand = AddComment | EditComment | DeleteComment;

/** Who may see the bug, and so read its comments, comment, or be mentioned there. */
export function canSeeBug(person: Actor, bug: BugAccessFacts): boolean {
  return bugPermissions.canView(person, bug);
}

function actorOf(command: CommentCommand): Actor {
  const actor = command.metadata.actor;
  if (!actor) throw new UnauthorizedError('Not authorized, no token');
  return actor;
}

function visibleBug(actor: Actor, state: BugState) {
  // A private project's bug does not exist for a non-member (issue 35), one who has left included.
  if (state.kind !== 'reported' || state.deleted || isHiddenFrom(actor, state)) {
    throw new NotFoundError(bugMessages.notFound);
  }
  if (!canSeeBug(actor, state)) throw new ForbiddenError(bugMessages.noPermissionToView);
  // Auditors read the discussion; they write nothing (ADR 012).
  if (rolePermissions.isReadOnly(actor)) throw new ForbiddenError('Auditors can read everything but change nothing');
  return state;
}

function checkedText(write: CommentWrite, bug: Extract<BugState, { kind: 'reported' }>) {
  const body = write.body.trim();
  if (!body) throw ValidationError.field('body', commentMessages.bodyRequired);
  if (body.length > commentLimits.bodyMax) throw ValidationError.field('body', commentMessages.bodyTooLong);
  const ids = [...new Set(write.mentions)];
  if (ids.length > commentLimits.mentionsMax) throw ValidationError.field('mentions', commentMessages.tooManyMentions);
  const refused = ids.filter((personId) => {
    const known = write.mentionedRoles[personId];
    return (
      !known ||
      !canSeeBug(
        { id: personId, role: known.role, ...(known.hiddenProjects ? { hiddenProjects: known.hiddenProjects } : {}) },
        bug,
      )
    );
  });
  if (refused.length > 0) {
    const names = refused.map((personId) => write.mentionedRoles[personId]?.name || personId).join(', ');
    throw ValidationError.field('mentions', commentMessages.cannotMention(names));
  }
  return { body, mentions: ids };
}

function decideComment(command: CommentCommand, state: BugDiscussion): CommentEvent[] {
  const actor = actorOf(command);
  const bug = visibleBug(actor, state.bug);
  const existing = state.comments.get(command.data.commentId);
  switch (command.type) {
    case 'AddComment': {
      const { body, mentions } = checkedText(command.data, bug);
      // The same id again (a retried request) is the same comment.
      if (existing) return [];
      return [{ type: 'CommentAdded', data: { bugId: bug.id, commentId: command.data.commentId, body, mentions } }];
    }
    case 'EditComment': {
      if (!existing) throw new NotFoundError(commentMessages.notFound);
      if (existing.authorId !== actor.id) throw new ForbiddenError(commentMessages.notAuthor);
      if (existing.deleted) throw new NotFoundError(commentMessages.notFound);
      const { body, mentions } = checkedText(command.data, bug);
      if (body === existing.body && mentions.join() === existing.mentions.join()) return [];
      return [{ type: 'CommentEdited', data: { bugId: bug.id, commentId: existing.id, body, mentions } }];
    }
    case 'DeleteComment': {
      if (!existing) throw new NotFoundError(commentMessages.notFound);
      if (existing.authorId !== actor.id && actor.role !== 'admin')
        throw new ForbiddenError(commentMessages.cannotDelete);
      if (existing.deleted) return [];
      return [{ type: 'CommentDeleted', data: { bugId: bug.id, commentId: existing.id } }];
    }
    default:
      return [];
  }
}

type StreamEvent = (BugEvent | CommentEvent) & { readonly metadata?: { actorId?: string | null; occurredAt: string } };

function evolveDiscussion(state: BugDiscussion, event: StreamEvent): BugDiscussion {
  switch (event.type) {
    case 'CommentAdded': {
      const d = event.data;
      if (state.comments.has(d.commentId)) return state;
      const comments = new Map(state.comments);
      const authorId = event.metadata?.actorId ?? '';
      const createdAt = event.metadata?.occurredAt ?? new Date(0).toISOString();
      comments.set(d.commentId, {
        id: d.commentId,
        authorId,
        body: d.body,
        mentions: d.mentions,
        deleted: false,
        createdAt,
        editedAt: null,
      });
      return { ...state, comments };
    }
    case 'CommentEdited':
    case 'CommentDeleted': {
      const current = state.comments.get(event.data.commentId);
      if (!current) return state;
      const comments = new Map(state.comments);
      comments.set(
        current.id,
        event.type === 'CommentEdited'
          ? {
              ...current,
              body: event.data.body,
              mentions: event.data.mentions,
              editedAt: event.metadata?.occurredAt ?? current.editedAt,
            }
          : { ...current, body: '', mentions: [], deleted: true },
      );
      return { ...state, comments };
    }
    default: {
      const bug = evolveBug(state.bug, event);
      return bug === state.bug ? state : { ...state, bug };
    }
  }
}

/**
 * Comments are decided over the whole bug stream: the bug's facts say who may see it, the
 * comment events say who wrote what. The author of a comment is the actor of its event.
 */
export const commentDecider: Decider<BugDiscussion, CommentCommand, CommentEvent> = {
  initialState: () => ({ bug: { kind: 'empty' }, comments: new Map() }),
  evolve: evolveDiscussion as Decider<BugDiscussion, CommentCommand, CommentEvent>['evolve'],
  decide: decideComment,
};
