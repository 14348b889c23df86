import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '../components/ui/button';
import { SelectField, TextField } from '../components/ui/field';
import { Modal } from '../components/ui/modal';
import { messageOf } from '../lib/api';
import { notify } from '../lib/notify';
import { queryKeys } from '../lib/query-keys';
import { AiSettingsFields } from './ai-settings-fields';
import { type ChatDraft, chatDirectoryQuery, createChat } from './chat-api';
import { chatTexts } from './chat-format';
import { MemberPicker } from './member-picker';
import { type AiAssistantSettings, type Chat, type ChatType, chatDefaults, chatTypeLabel, chatTypes } from './types';

const typeOptions = chatTypes.map((type) => ({ value: type, label: chatTypeLabel[type] }));
const defaultAi: AiAssistantSettings = {
  enabled: false,
  model: chatDefaults.aiModel,
  systemPrompt: chatDefaults.systemPrompt,
};

export function CreateChatDialog({
  isOpen,
  onClose,
  onCreated,
  meId,
}: {
  isOpen: boolean;
  onClose: () => void;
  onCreated: (chat: Chat) => void;
  meId: string;
}) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState<ChatType>('private');
  const [participants, setParticipants] = useState<string[]>([]);
  const [ai, setAi] = useState<AiAssistantSettings>(defaultAi);
  const users = useQuery({ ...chatDirectoryQuery(), enabled: isOpen });

  useEffect(() => {
    if (!isOpen) return;
    setName('');
    setType('private');
    setParticipants([]);
    setAi(defaultAi);
  }, [isOpen]);

  const create = useMutation({
    mutationFn: (draft: ChatDraft) => createChat(draft),
    onSuccess: (chat) => {
      client.setQueryData<Chat[]>(queryKeys.chats.list, (list) =>
        list ? [chat, ...list.filter((c) => c._id !== chat._id)] : [chat],
      );
      client.setQueryData(queryKeys.chats.detail(chat._id), chat);
      void client.invalidateQueries({ queryKey: queryKeys.chats.list });
      onCreated(chat);
    },
    onError: (error) => notify.error(messageOf(error, chatTexts.createFailed)),
  });

  const trimmed = name.trim();
  const submit = () => {
    if (!trimmed || create.isPending) return;
    create.mutate({ name: trimmed, type, participants: participants.filter((id) => id !== meId), aiAssistant: ai });
  };

  return (
    <Modal
      isOpen={isOpen}
      onClose={onClose}
      title="Create New Chat"
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="create-chat-form" disabled={!trimmed} isLoading={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create Chat'}
          </Button>
        </>
      }
    >
      <form
        id="create-chat-form"
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label="Chat Name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="e.g. Release 2.4 triage"
          maxLength={100}
          required
          data-autofocus
        />
        <SelectField
          label="Chat Type"
          value={type}
          options={typeOptions}
          onChange={(event) => {
            const next = event.target.value as ChatType;
            setType(next);
            if (next === 'ai_assistant') setAi((current) => ({ ...current, enabled: true }));
          }}
        />
        <MemberPicker
          users={users.data ?? []}
          isLoading={users.isPending}
          selected={participants}
          excludeId={meId}
          onToggle={(id, on) => setParticipants((old) => (on ? [...old, id] : old.filter((x) => x !== id)))}
        />
        <section className="rounded-xl border border-slate-200 p-4">
          <h3 className="mb-3 text-sm font-semibold text-slate-900">AI Assistant Settings</h3>
          <AiSettingsFields value={ai} onChange={setAi} />
        </section>
      </form>
    </Modal>
  );
}
