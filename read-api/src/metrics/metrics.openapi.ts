import { forbiddenAnswer, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import {
  cumulativeFlowAnswerSchema,
  cycleTimesAnswerSchema,
  cycleTimesQuery,
  metricsAnswerSchema,
  metricsQuery,
  slaMetricsAnswer,
  slaMetricsQuery,
} from './metrics.schemas.js';

/** The flow metrics (metrics.routes.ts), relative to their mount at /api/metrics. */

const tags = ['metrics'];
const roles = ['admin', 'auditor'] as const;

export const metricsOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/sla',
    summary: 'SLA compliance per policy over the bugs reported in a window (all time without one)',
    description:
      'Each bug counts for the policy that holds for it now: a policy written today is measured over the past at once.',
    tags,
    roles: [...roles],
    query: slaMetricsQuery,
    responses: {
      200: { description: 'Each policy, in the order policies are tried', schema: slaMetricsAnswer },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
  {
    method: 'get',
    path: '/',
    summary: 'Flow metrics from status history: cycle time, time in status, reopens, weekly flow, open ages',
    description:
      'Durations in seconds. With `asOf`, exactly what this answered at that moment (the answer names its `asOf`).',
    tags,
    roles: [...roles],
    query: metricsQuery,
    responses: {
      200: { description: 'The metrics', schema: metricsAnswerSchema },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
  {
    method: 'get',
    path: '/cycle-times',
    summary: 'The cycle-time scatter: each bug closed in the window, when, and its cycle time',
    tags,
    roles: [...roles],
    query: cycleTimesQuery,
    responses: {
      200: { description: 'Points, newest first', schema: cycleTimesAnswerSchema },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
  {
    method: 'get',
    path: '/flow',
    summary: 'The cumulative flow diagram: bugs in each status at the end of each day of the window',
    tags,
    roles: [...roles],
    query: metricsQuery,
    responses: {
      200: { description: 'Points, oldest first', schema: cumulativeFlowAnswerSchema },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
];
