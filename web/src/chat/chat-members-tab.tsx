/** The settings dialog's Members tab: who is in the chat and who administers it, editable by its admins. */
import type { Dispatch, SetStateAction } from 'react';
import { Avatar } from '../components/ui/avatar';
import { PersonName } from '../components/ui/person-name';
import { chatTexts, type Members, toggleAdmin, toggleParticipant } from './chat-format';
import type { Chat, ChatUser } from './types';

export function ChatMembersTab({
  chat,
  directory,
  members,
  setMembers,
  isAdmin,
  meId,
  emails,
}: {
  chat: Chat;
  directory: ChatUser[];
  members: Members;
  setMembers: Dispatch<SetStateAction<Members>>;
  isAdmin: boolean;
  meId: string;
  emails: ReadonlyMap<string, string>;
}) {
  // Participants first, then everyone else (admins may add them).
  const known = new Map<string, ChatUser>(directory.map((user) => [user._id, user]));
  for (const entry of [...chat.participants, ...chat.admins]) {
    if (typeof entry !== 'string' && !known.has(entry._id)) known.set(entry._id, entry);
  }
  const rows = [...known.values()]
    .filter((user) => isAdmin || members.participants.includes(user._id))
    .sort((a, b) => {
      const pa = members.participants.includes(a._id) ? 0 : 1;
      const pb = members.participants.includes(b._id) ? 0 : 1;
      return pa - pb || a.name.localeCompare(b.name);
    });

  return (
    <div className="space-y-3">
      {!isAdmin ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">{chatTexts.onlyAdminsParticipants}</p>
      ) : null}
      <div className="max-h-72 overflow-y-auto rounded-lg border border-slate-200">
        <table className="w-full table-fixed text-sm">
          <thead className="sticky top-0 bg-slate-50 text-left text-xs text-slate-500">
            <tr>
              <th className="px-3 py-2 font-medium">Member</th>
              <th className="w-22 px-1 py-2 text-center font-medium">Participant</th>
              <th className="w-16 px-1 py-2 text-center font-medium">Admin</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((user) => {
              const isIn = members.participants.includes(user._id);
              const isAdm = members.admins.includes(user._id);
              return (
                <tr key={user._id} data-member-id={user._id}>
                  <td className="px-3 py-2">
                    <span className="flex min-w-0 items-center gap-2">
                      <Avatar user={user} size="xs" />
                      <PersonName
                        name={user._id === meId ? `${user.name} (you)` : user.name}
                        email={emails.get(user._id)}
                      />
                    </span>
                  </td>
                  <td className="px-1 py-2 text-center">
                    <input
                      type="checkbox"
                      aria-label={`${user.name} is a participant`}
                      checked={isIn}
                      disabled={!isAdmin}
                      onChange={(event) => setMembers((m) => toggleParticipant(m, user._id, event.target.checked))}
                      className="size-4 accent-brand-600"
                    />
                  </td>
                  <td className="px-1 py-2 text-center">
                    <input
                      type="checkbox"
                      aria-label={`${user.name} is an admin`}
                      checked={isAdm}
                      disabled={!isAdmin || !isIn}
                      onChange={(event) => setMembers((m) => toggleAdmin(m, user._id, event.target.checked))}
                      className="size-4 accent-brand-600"
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {isAdmin && members.admins.length === 0 ? (
        <p className="text-sm text-rose-600">A chat needs at least one admin.</p>
      ) : null}
    </div>
  );
}
