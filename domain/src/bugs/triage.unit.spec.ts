import { describe, expect, it } from 'vitest';
import { suggestionUsageOf } from './triage.js';
import { suggestionUsageInput } from './triage.schemas.js';

describe('suggestion usage in event metadata', () => {
  it('reads back what a report stores', () => {
    const stored = suggestionUsageInput.parse({ shown: ['priority', 'nonsense'], taken: ['assignees', 'duplicates'] });
    expect(suggestionUsageOf({ suggestions: JSON.parse(JSON.stringify(stored)) })).toEqual({
      shown: ['priority', 'assignees'],
      taken: ['assignees'],
    });
  });

  it('is none on a report made without the form, and on what no report stores', () => {
    expect(suggestionUsageOf({})).toBeUndefined();
    expect(suggestionUsageOf({ suggestions: { shown: 'priority', taken: [] } })).toBeUndefined();
    expect(suggestionUsageOf({ suggestions: { shown: ['duplicates'], taken: ['duplicates'] } })).toBeUndefined();
  });
});
