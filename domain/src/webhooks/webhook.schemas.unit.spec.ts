import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import { type DisableWebhook, type WebhookDisabled, webhookDecider } from './webhook.schemas.js';

const { given } = deciderSpec(webhookDecider);
const now = '2026-03-01T09:00:00.000Z';

const disable = (failedEvents = 5): DisableWebhook => ({
  type: 'DisableWebhook',
  data: { webhookId: 'wh-1', url: 'https://hooks.example.com/bugtrail', failedEvents },
  metadata: { actor: null, now },
});
const disabled = (failedEvents = 5): WebhookDisabled => ({
  type: 'WebhookDisabled',
  data: { webhookId: 'wh-1', url: 'https://hooks.example.com/bugtrail', failedEvents },
});

describe('DisableWebhook', () => {
  describe('when the webhook was never switched off', () => {
    it('records that it was switched off, its url and how many events failed', () => {
      given().when(disable()).then([disabled()]);
    });
  });

  describe('when the webhook was switched off before', () => {
    it('records it again: switched on and failing again, it is announced again', () => {
      given(disabled(5))
        .when(disable(7))
        .then([disabled(7)]);
    });

    it('folds to nothing', () => {
      expect(given(disabled(5), disabled(7)).state).toBeNull();
    });
  });
});
