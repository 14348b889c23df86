import type { Priority, Severity } from '@bugtrail/domain';

/**
 * A synthetic, labelled bug corpus for the triage suggester (README "Suggester quality").
 * Nothing here comes from real reports: each *defect* is an object of the product
 * (40, in 8 areas), a symptom (12) and a context (12); each *report* of a defect is a
 * paraphrase of it (synonyms for the symptom, three title shapes, an extra word, now and
 * then a typo) with a description built from sentences that every report shares. The
 * labels are known by construction: the defect (duplicate group), its severity and
 * priority (a rule of symptom and area; reporters get them wrong 20% of the time) and the
 * developer who fixes it (the area's owner, 80% of the time). Deterministic for a seed.
 */

type Area = { name: string; objects: string[]; important: boolean };

const AREAS: readonly Area[] = [
  {
    name: 'login',
    important: true,
    objects: ['login button', 'sign-in form', 'password reset link', 'remember-me checkbox', 'session timeout banner'],
  },
  {
    name: 'checkout',
    important: true,
    objects: ['checkout total', 'payment form', 'coupon field', 'order summary', 'shipping address form'],
  },
  {
    name: 'search',
    important: false,
    objects: ['search box', 'search results list', 'filter panel', 'autocomplete dropdown', 'sort menu'],
  },
  {
    name: 'profile',
    important: false,
    objects: [
      'profile picture upload',
      'display name field',
      'notification settings',
      'email preferences page',
      'avatar menu',
    ],
  },
  {
    name: 'reports',
    important: false,
    objects: ['spreadsheet export', 'monthly report chart', 'PDF download', 'dashboard widget', 'CSV import'],
  },
  {
    name: 'editor',
    important: false,
    objects: ['rich text editor', 'image uploader', 'autosave indicator', 'undo button', 'comment box'],
  },
  {
    name: 'navigation',
    important: false,
    objects: ['main menu', 'breadcrumb bar', 'back button', 'sidebar toggle', 'footer links'],
  },
  {
    name: 'notifications',
    important: true,
    objects: ['notification bell', 'email digest', 'push notification', 'unread badge', 'mention alert'],
  },
];

/** Each symptom's ways of saying it, and the severity it deserves. */
const SYMPTOMS: readonly { says: string[]; severity: Severity }[] = [
  { says: ['is unresponsive', 'does not respond', 'stops responding', 'freezes'], severity: 'Major' },
  { says: ['crashes the app', 'makes the app crash', 'causes a crash', 'crashes'], severity: 'Critical' },
  { says: ['shows the wrong colours', 'has wrong colours', 'uses the wrong colour'], severity: 'Minor' },
  { says: ['is slow to load', 'loads slowly', 'takes ages to load', 'is very slow'], severity: 'Major' },
  { says: ['overlaps the footer', 'is drawn over the footer', 'covers the footer'], severity: 'Minor' },
  { says: ['fails with error 500', 'returns a server error 500', 'gives an internal error 500'], severity: 'Critical' },
  { says: ['is misaligned', 'looks misaligned', 'is out of alignment'], severity: 'Minor' },
  { says: ['loses the typed text', 'clears the typed text', 'throws away typed text'], severity: 'Critical' },
  { says: ['is missing', 'does not appear', 'is not shown', 'disappeared'], severity: 'Major' },
  { says: ['has a typo', 'shows a spelling mistake', 'misspells a word'], severity: 'Minor' },
  { says: ['times out', 'hangs until it times out', 'never finishes loading'], severity: 'Major' },
  { says: ['ignores the saved setting', 'does not keep the setting', 'forgets the setting'], severity: 'Major' },
];

const CONTEXTS = [
  'on Safari',
  'in Firefox',
  'on Chrome',
  'on iOS',
  'on Android',
  'in dark mode',
  'after the latest update',
  'when offline',
  'on small screens',
  'for new users',
  'on a slow connection',
  'in the admin view',
];

const EXTRAS = ['again', 'sometimes', '(regression)', 'every time', 'since Monday', 'for some users'];
const FILLERS = [
  'Steps: open the app and go there.',
  'It worked last week.',
  'Reproduced twice on a clean account.',
  'See the screenshot in the ticket.',
  'No error is shown in the console.',
  'Users have complained about it.',
  'Tried reloading, no change.',
];

const SEVERITY_ORDER: readonly Severity[] = ['Minor', 'Major', 'Critical'];
const PRIORITY_ORDER: readonly Priority[] = ['Low', 'Medium', 'High'];

/** mulberry32: small, fast, deterministic. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Defect = {
  /** The duplicate group. */
  key: string;
  area: number;
  object: string;
  symptom: number;
  context: number;
  severity: Severity;
  priority: Priority;
};

export type CorpusReport = {
  defect: Defect;
  title: string;
  description: string;
  /** What the reporter chose (the defect's, or a neighbouring value 20% of the time). */
  severity: Severity;
  priority: Priority;
  /** Index of the developer who fixes it (of `developers`). */
  fixer: number;
};

export const DEFECT_COUNT = AREAS.length * 5 * SYMPTOMS.length * CONTEXTS.length;

/** The defect numbered `n` (0 ≤ n < DEFECT_COUNT). */
export function defectAt(n: number): Defect {
  const context = n % CONTEXTS.length;
  const symptom = Math.floor(n / CONTEXTS.length) % SYMPTOMS.length;
  const objectIndex = Math.floor(n / (CONTEXTS.length * SYMPTOMS.length)) % (AREAS.length * 5);
  const area = Math.floor(objectIndex / 5);
  const severity = SYMPTOMS[symptom]!.severity;
  const important = AREAS[area]!.important;
  const priority: Priority =
    severity === 'Critical'
      ? 'High'
      : severity === 'Major'
        ? important
          ? 'High'
          : 'Medium'
        : important
          ? 'Medium'
          : 'Low';
  return {
    key: `d${n}`,
    area,
    object: AREAS[area]!.objects[objectIndex % 5]!,
    symptom,
    context,
    severity,
    priority,
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function typo(random: () => number, text: string): string {
  const words = text.split(' ');
  const i = Math.floor(random() * words.length);
  const w = words[i]!;
  if (w.length < 5) return text;
  const j = 1 + Math.floor(random() * (w.length - 3));
  words[i] = w.slice(0, j) + w[j + 1] + w[j] + w.slice(j + 2);
  return words.join(' ');
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function nudge<T>(random: () => number, order: readonly T[], value: T): T {
  if (random() >= 0.2) return value;
  const i = order.indexOf(value);
  const j = i === 0 ? 1 : i === order.length - 1 ? i - 1 : random() < 0.5 ? i - 1 : i + 1;
  return order[j]!;
}

/**
 * One report of `defect` in someone's words. `developers` developers: area `a` is owned
 * by developer `a % developers`, who fixes 80% of its bugs; anyone else the rest.
 */
export function reportOf(random: () => number, defect: Defect, developers: number): CorpusReport {
  const symptom = pick(random, SYMPTOMS[defect.symptom]!.says);
  const context = CONTEXTS[defect.context]!;
  const shape = random();
  let title =
    shape < 0.45
      ? `${capitalised(defect.object)} ${symptom} ${context}`
      : shape < 0.8
        ? `${capitalised(context)}: ${defect.object} ${symptom}`
        : `The ${defect.object} ${symptom} ${context}`;
  if (random() < 0.3) title = `${title} ${pick(random, EXTRAS)}`;
  if (random() < 0.1) title = typo(random, title);
  const description = [
    pick(random, FILLERS),
    `Open the ${defect.object} ${context}: it ${symptom}.`,
    pick(random, FILLERS),
  ].join(' ');
  const owner = defect.area % developers;
  const fixer = random() < 0.8 ? owner : Math.floor(random() * developers);
  return {
    defect,
    title: title.slice(0, 100),
    description,
    severity: nudge(random, SEVERITY_ORDER, defect.severity),
    priority: nudge(random, PRIORITY_ORDER, defect.priority),
    fixer,
  };
}

export type LabelledSet = {
  /** Reported and closed before: what the suggester learns from. */
  history: CorpusReport[];
  /** New reports of the same defects, typed into the form: what it is asked about. */
  queries: CorpusReport[];
};

/**
 * The labelled set: `defects` defects (default 75) with 3 closed reports each as history
 * and one new report each as the question (75 × 4 = 300 reports).
 */
export function labelledSet(seed = 14, defects = 75, developers = 10): LabelledSet {
  const random = seededRandom(seed);
  const chosen = new Set<number>();
  while (chosen.size < defects) chosen.add(Math.floor(random() * DEFECT_COUNT));
  const history: CorpusReport[] = [];
  const queries: CorpusReport[] = [];
  for (const n of chosen) {
    const defect = defectAt(n);
    for (let i = 0; i < 3; i++) history.push(reportOf(random, defect, developers));
    queries.push(reportOf(random, defect, developers));
  }
  return { history, queries };
}

/** `count` reports of random defects (several reports per defect at 100k), for the latency figures. */
export function backgroundReports(count: number, seed = 1400, developers = 50): CorpusReport[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () =>
    reportOf(random, defectAt(Math.floor(random() * DEFECT_COUNT)), developers),
  );
}
