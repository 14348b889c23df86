import { z } from 'zod';

/**
 * What chat requests may carry (chats.commands.ts, and chats.routes.ts for messages), as
 * validated before the deciders see it: loose where the spec is ("users or user ids").
 */

/** An id in a path or a body: an id that cannot name anything (blank, over-long) names nothing. */
export const idText = z.string().trim().min(1).max(100);
/** The spec shows participants "as users or user ids": accept both, keep ids. */
export const userRef = z.union([idText, z.object({ _id: idText }).transform((u) => u._id)]);
const aiInput = z.object({
  enabled: z.boolean().optional(),
  model: z.string().max(100).optional(),
  systemPrompt: z.string().max(20_000).optional(),
});
export const chatBody = z.object({
  name: z.string().max(10_000).optional().nullable(),
  type: z.string().max(100).optional().nullable(),
  participants: z.array(userRef).max(5000).optional().nullable(),
  admins: z.array(userRef).max(5000).optional().nullable(),
  aiAssistant: aiInput.optional().nullable(),
});
export const messageBody = z.object({
  content: z.string().max(100_000).optional().nullable(),
  mentions: z.array(userRef).max(1000).optional().nullable(),
  replyTo: userRef.optional().nullable(),
});
