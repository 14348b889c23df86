import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../components/ui/button';
import { TextField } from '../components/ui/field';
import { Modal } from '../components/ui/modal';
import { useKnownEmails } from '../components/ui/person-name';
import { Tabs } from '../components/ui/tabs';
import { queryKeys } from '../lib/query-keys';
import { AiSettingsFields } from './ai-settings-fields';
import { type ChatUpdate, chatDirectoryQuery, deleteChat, updateChat } from './chat-api';
import { chatTexts, isChatAdmin, type Members, memberIds } from './chat-format';
import { ChatMembersTab } from './chat-members-tab';
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
  const emails = useKnownEmails();
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
        client.setQueryData(queryKeys.chats.detail(chat._id), answer);
      void client.invalidateQueries({ queryKey: queryKeys.chats.detail(chat._id), exact: true });
      void client.invalidateQueries({ queryKey: queryKeys.chats.list });
      onClose();
    },
    // Spec §8: settings failures are only logged.
    onError: (error) => console.error(chatTexts.updateLogged, error),
  });

  const remove = useMutation({
    mutationFn: () => deleteChat(chat._id),
    onSuccess: () => {
      client.setQueryData<Chat[]>(queryKeys.chats.list, (list) => list?.filter((c) => c._id !== chat._id));
      client.removeQueries({ queryKey: queryKeys.chats.detail(chat._id) });
      void client.invalidateQueries({ queryKey: queryKeys.chats.list });
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

  const directory: ChatUser[] = users.data ?? [];

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
          <ChatMembersTab
            chat={chat}
            directory={directory}
            members={members}
            setMembers={setMembers}
            isAdmin={isAdmin}
            meId={meId}
            emails={emails}
          />
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
