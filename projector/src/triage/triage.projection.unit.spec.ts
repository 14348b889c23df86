import { bugReportedData, projectionSpec, recorded } from '@bugtrail/testing/projections';
import { describe, expect, it } from 'vitest';
import { REPORTS_ROW, triageProjection } from './triage.projection.js';

const { given } = projectionSpec(triageProjection);
const reported = (suggestions?: { shown: string[]; taken: string[] }) =>
  recorded('BugReported', bugReportedData(), suggestions ? { metadata: { suggestions } } : {});

describe('triage suggestion usage, one handler per event', () => {
  it('BugReported with usage: the report with its moment, one shown per kind, taken where applied', () => {
    const event = reported({ shown: ['duplicates', 'severity', 'assignees'], taken: ['severity'] });
    given()
      .when(event)
      .then({
        reports: [
          {
            id: event.id,
            at: event.metadata.occurredAt,
            shown: ['duplicates', 'severity', 'assignees'],
            taken: ['severity'],
          },
        ],
        deltas: new Map([
          [REPORTS_ROW, { shown: 1, taken: 1 }],
          ['duplicates', { shown: 1, taken: 0 }],
          ['severity', { shown: 1, taken: 1 }],
          ['assignees', { shown: 1, taken: 0 }],
        ]),
      });
  });

  it('adds up a batch’s reports per kind; a report that took nothing counts as shown only', () => {
    const changes = given(reported({ shown: ['priority'], taken: ['priority'] }))
      .when(reported({ shown: ['priority'], taken: [] }))
      .changes();
    expect(changes.deltas.get(REPORTS_ROW)).toEqual({ shown: 2, taken: 1 });
    expect(changes.deltas.get('priority')).toEqual({ shown: 2, taken: 1 });
  });

  it('counts nothing for a report without usage, or with usage of unknown kinds', () => {
    const changes = given(reported())
      .when(reported({ shown: ['horoscope'], taken: [] }))
      .changes();
    expect(changes).toEqual({ reports: [], deltas: new Map() });
  });
});
