import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Avatar } from '../components/ui/avatar';
import { Button } from '../components/ui/button';
import { TextField } from '../components/ui/field';
import { Modal } from '../components/ui/modal';
import { Tabs } from '../components/ui/tabs';
import { AiSettingsFields } from './ai-settings-fields';
import { type ChatUpdate, chatDirectoryQuery, chatKeys, deleteChat, updateChat } from './chat-api';
import { chatTexts, isChatAdmin, type Members, memberIds, toggleAdmin, toggleParticipant } from './chat-format';
import { type AiAssistantSettings, type Chat, type ChatUser, chatTypeLabel } from './types';

type TabValue = 'general' | 'members' | 'ai' | 'danger';

export function ChatSettingsDialog({
  chat,
  isOpen,
  onClose,
  onDeleted,
  meId,
}: {
  chat: Chat;
  isOpen: boolean;
  onClose: () => void;
  onDeleted: (id: string) => void;
  meId: string;
}) {
  const client = useQueryClient();
  const isAdmin = isChatAdmin(chat, meId);
  const [tab, setTab] = useState<TabValue>('general');
  const [name, setName] = useState(chat.name);
  const [members, setMembers] = useState<Members>({ participants: [], admins: [] });
  const [ai, setAi] = useState<AiAssistantSettings>(chat.aiAssistant);
  const [confirmText, setConfirmText] = useState('');
  const deleting = useRef(false);
  const users = useQuery({ ...chatDirectoryQuery(), enabled: isOpen });

  // Each opening starts from the chat as it is now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on open only
  useEffect(() => {
    if (!isOpen) return;
    setTab('general');
    setName(chat.name);
    setMembers({ participants: memberIds(chat.participants), admins: memberIds(chat.admins) });
    setAi(chat.aiAssistant ?? { enabled: false, model: 'gpt-3.5-turbo', systemPrompt: '' });
    setConfirmText('');
    deleting.current = false;
  }, [isOpen, chat._id]);

  const save = useMutation({
    mutationFn: (update: ChatUpdate) => updateChat(chat._id, update),
    onSuccess: (answer) => {
      if (answer && typeof answer === 'object' && '_id' in answer)
        client.setQueryData(chatKeys.detail(chat._id), answer);
      void client.invalidateQueries({ queryKey: chatKeys.detail(chat._id), exact: true });
      void client.invalidateQueries({ queryKey: chatKeys.list });
      onClose();
    },
    // Spec §8: settings failures are only logged.
    onError: (error) => console.error(chatTexts.updateLogged, error),
  });

  const remove = useMutation({
    mutationFn: () => deleteChat(chat._id),
    onSuccess: () => {
      client.setQueryData<Chat[]>(chatKeys.list, (list) => list?.filter((c) => c._id !== chat._id));
      client.removeQueries({ queryKey: chatKeys.detail(chat._id) });
      void client.invalidateQueries({ queryKey: chatKeys.list });
      onClose();
      onDeleted(chat._id);
    },
    onError: (error) => {
      deleting.current = false;
      console.error(chatTexts.deleteLogged, error);
    },
  });

  const trimmed = name.trim();
  const submit = () => {
    if (!isAdmin || !trimmed || save.isPending) return;
    save.mutate({ name: trimmed, participants: members.participants, admins: members.admins, aiAssistant: ai });
  };

  const onConfirmChange = (value: string) => {
    setConfirmText(value);
    // Deletion fires as soon as the text matches the chat's name exactly.
    if (isAdmin && value === chat.name && !deleting.current) {
      deleting.current = true;
      remove.mutate();
    }
  };

  const tabs = [
    { value: 'general', label: 'General' },
    { value: 'members', label: 'Members' },
    { value: 'ai', label: 'AI Assistant' },
    ...(isAdmin ? [{ value: 'danger', label: 'Danger' }] : []),
  ];

  // Participants first, then everyone else (admins may add them).
  const directory: ChatUser[] = users.data ?? [];
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
    <Modal
      isOpen={isOpen}
      onClose={onClose}
      title="Chat Settings"
      description={`${chatTypeLabel[chat.type] ?? chat.type} chat · the type cannot be changed`}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {isAdmin ? 'Cancel' : 'Close'}
          </Button>
          {isAdmin ? (
            <Button onClick={submit} disabled={!trimmed || save.isPending}>
              {save.isPending ? chatTexts.saving : 'Save'}
            </Button>
          ) : null}
        </>
      }
    >
      <div className="space-y-5">
        <Tabs tabs={tabs} value={tab} onChange={(value) => setTab(value as TabValue)} label="Chat settings" />

        {tab === 'general' ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <TextField
              label="Chat Name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              disabled={!isAdmin}
              maxLength={100}
              error={isAdmin && !trimmed ? 'Chat name is required' : undefined}
            />
          </form>
        ) : null}

        {tab === 'members' ? (
          <div className="space-y-3">
            {!isAdmin ? (
              <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
                {chatTexts.onlyAdminsParticipants}
              </p>
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
                            <span className="truncate text-slate-800">
                              {user.name}
                              {user._id === meId ? <span className="text-slate-500"> (you)</span> : null}
                            </span>
                          </span>
                        </td>
                        <td className="px-1 py-2 text-center">
                          <input
                            type="checkbox"
                            aria-label={`${user.name} is a participant`}
                            checked={isIn}
                            disabled={!isAdmin}
                            onChange={(event) =>
                              setMembers((m) => toggleParticipant(m, user._id, event.target.checked))
                            }
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
        ) : null}

        {tab === 'ai' ? (
          <div className="space-y-3">
            {!isAdmin ? (
              <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">{chatTexts.onlyAdminsAi}</p>
            ) : null}
            <AiSettingsFields value={ai} onChange={setAi} disabled={!isAdmin} />
          </div>
        ) : null}

        {tab === 'danger' && isAdmin ? (
          <div className="space-y-4 rounded-xl border border-rose-200 bg-rose-50/60 p-4">
            <p className="flex gap-2 text-sm text-rose-800">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {chatTexts.deleteWarning}
            </p>
            <TextField
              label={
                <>
                  Type <strong className="font-semibold">{chat.name}</strong> to delete this chat
                </>
              }
              value={confirmText}
              onChange={(event) => onConfirmChange(event.target.value)}
              disabled={remove.isPending}
              autoComplete="off"
              hint={remove.isPending ? 'Deleting...' : undefined}
            />
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
