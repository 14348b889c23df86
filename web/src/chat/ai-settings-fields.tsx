import { useId } from 'react';
import { SelectField, TextAreaField } from '../components/ui/field';
import { type AiAssistantSettings, type AiModel, aiModels } from './types';

const modelOptions = aiModels.map((model) => ({ value: model, label: model }));

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
  return (
    <div className="space-y-4">
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
        onChange={(event) => onChange({ ...value, model: event.target.value as AiModel })}
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
