import { aiAssistantTexts } from '@bugtrail/domain/vocabulary';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { SelectField, TextAreaField } from '../components/ui/field';
import { api } from '../lib/api';
import { queryKeys } from '../lib/query-keys';
import { type AiAssistantSettings, aiModels } from './types';

/**
 * GET /api/chats/ai-models: the spec's four names, what the configured providers list, and
 * whether any provider is set up (an older server leaves it out: taken as set up).
 */
type AiModelChoices = {
  models: string[];
  listed: { id: string; provider: 'openai' | 'anthropic' }[];
  configured?: boolean;
};

const aiModelChoicesQuery = () =>
  queryOptions({
    queryKey: queryKeys.chats.aiModels,
    queryFn: () => api<AiModelChoices>('/api/chats/ai-models'),
    staleTime: 5 * 60_000,
  });

/** True only when the server says no AI provider is set up: then the assistant answers nothing. */
export function useIsAiUnavailable(): boolean {
  const { data } = useQuery(aiModelChoicesQuery());
  return data?.configured === false;
}

const providerLabel = { openai: 'AI endpoint', anthropic: 'Anthropic' } as const;

/**
 * The picker's options: the spec's four, then each model a provider lists, named with its
 * provider; the chat's current model stays offered even if no provider lists it any more.
 * Without an answer (offline, an old server), the spec's four.
 */
function useModelOptions(current: string) {
  const { data } = useQuery(aiModelChoicesQuery());
  const listed = new Map((data?.listed ?? []).map((model) => [model.id, model.provider]));
  const names = [...new Set([...(data?.models ?? aiModels), current])];
  return names.map((name) => {
    const provider = listed.get(name);
    return {
      value: name,
      label:
        provider && !(aiModels as readonly string[]).includes(name) ? `${name} (${providerLabel[provider]})` : name,
    };
  });
}

/** Enabled, model, system prompt (textarea, 4 rows): shared by create and settings. */
export function AiSettingsFields({
  value,
  onChange,
  disabled,
}: {
  value: AiAssistantSettings;
  onChange: (next: AiAssistantSettings) => void;
  disabled?: boolean;
}) {
  const enabledId = useId();
  const modelOptions = useModelOptions(value.model);
  const isUnavailable = useIsAiUnavailable();
  return (
    <div className="space-y-4">
      {/* Said here, once, instead of as an answer to every message. */}
      {isUnavailable ? (
        <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {aiAssistantTexts.noProvider}
        </p>
      ) : null}
      <label htmlFor={enabledId} className="flex items-center gap-3 text-sm font-medium text-slate-700">
        <input
          id={enabledId}
          type="checkbox"
          checked={value.enabled}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, enabled: event.target.checked })}
          className="size-4 rounded border-slate-300 accent-brand-600"
        />
        Enable AI Assistant
      </label>
      <SelectField
        label="AI Model"
        value={value.model}
        disabled={disabled}
        options={modelOptions}
        onChange={(event) => onChange({ ...value, model: event.target.value })}
      />
      <TextAreaField
        label="System Prompt"
        rows={4}
        value={value.systemPrompt}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, systemPrompt: event.target.value })}
      />
    </div>
  );
}
