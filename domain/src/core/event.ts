/**
 * Events and commands share one envelope: `{ type, data, metadata }`.
 * The clock and new ids never come from inside the domain: they arrive in metadata.
 */
export type EventMetadata = Readonly<{
  actorId: string | null;
  correlationId: string;
  causationId: string | null;
  occurredAt: string;
  schemaVersion: number;
  /**
   * On a `BugReported` made from the web form: which triage suggestions it showed and
   * which the reporter took. Optional, so every older event stays valid. The envelope
   * knows it only as a JSON object: its shape is the bugs feature's (`suggestionUsageOf`
   * in bugs/triage.ts reads it), so the core imports no feature's types.
   */
  suggestions?: JsonObject;
  /**
   * On events an import made (api.md "Integrations"): the system and the id the bug had
   * there. Such an event's `occurredAt` is the time the source recorded, not the import's.
   */
  importedFrom?: Readonly<{ system: ImportSource; id: string }>;
  /**
   * Who acted when no user did (`actorId` null): a code host whose signed webhook made
   * the change ("GitHub", "GitLab").
   */
  actorName?: string;
  /**
   * On the changes an automation rule made (api.md "Automation rules"): the rule, and how many
   * rule-made changes led to this one (1 for a rule acting on a person's change; a chain stops
   * after 5). `actorId` is the rule's author, whose rights it acts with.
   */
  rule?: Readonly<{ _id: string; name: string; depth: number }>;
}>;

/** A JSON value, as metadata is stored (jsonb): what a feature may keep in the envelope. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;
export type JsonObject = Readonly<{ [key: string]: JsonValue }>;

/** The systems a team's bugs are imported from. */
export const importSources = ['redmine', 'jira', 'github'] as const;
export type ImportSource = (typeof importSources)[number];

export type Event<Type extends string = string, Data = unknown> = Readonly<{
  type: Type;
  data: Readonly<Data>;
}>;

export type CommandMetadata = Readonly<{
  /** The authenticated actor (null for anonymous commands such as register). */
  actor: Actor | null;
  /** The current time as the command sees it (ISO 8601). */
  now: string;
}>;

/** `auditor` reads everything an admin reads and changes nothing (api.md "The auditor role"). */
export type Role = 'admin' | 'tester' | 'developer' | 'auditor';
export type Actor = Readonly<{
  id: string;
  role: Role;
  name?: string;
  /** Set when the caller came with a personal API token (api.md "Integrations") instead of a session. */
  apiToken?: Readonly<{ id: string; scope: 'read' | 'write' }>;
  /**
   * The private projects this person is no member of (api.md "Projects"), as the read side
   * knows them when it answers: their bugs do not exist for them. Absent: none known.
   */
  hiddenProjects?: readonly string[];
  /**
   * The projects with team access (`access: "team"`) this person is a member of: they read every
   * bug of them, comment on any, and as developers work on any (api.md "Projects"). Absent: none.
   */
  teamProjects?: readonly string[];
}>;

export type Command<Type extends string = string, Data = unknown> = Readonly<{
  type: Type;
  data: Readonly<Data>;
  metadata: CommandMetadata;
}>;

/** A decider: everything an aggregate knows, with no I/O. */
export type Decider<State, C extends Command, E extends Event> = Readonly<{
  initialState: () => State;
  evolve: (state: State, event: E) => State;
  decide: (command: C, state: State) => readonly E[];
}>;

export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
