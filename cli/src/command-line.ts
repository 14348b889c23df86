import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * The `bugtrail` command line, checked before any command runs (issue 40): every command
 * answers `--help` (its usage, exit 0) and refuses a flag it does not know (exit 2), and
 * neither opens a database nor touches DATA_DIR. The commands still read their own options
 * from the arguments; this table is the single list of what each one accepts.
 */

type Options = NonNullable<ParseArgsConfig['options']>;

type CommandSpec = Readonly<{
  usage: string;
  summary: string;
  options: Options;
  /** Positional arguments it takes (names, a file); none when false. */
  positionals: boolean;
}>;

export const PROGRAM = 'bugtrail (node cli/dist/main.js)';

export const commands: Readonly<Record<string, CommandSpec>> = {
  start: {
    usage: 'bugtrail start [--only write-api|read-api|projector]',
    summary: 'runs the app (all parts in one process, or one part alone)',
    options: { only: { type: 'string' } },
    positionals: false,
  },
  rebuild: {
    usage: 'bugtrail rebuild [name...]',
    summary: 'replays the events into fresh read-model tables and swaps them in',
    options: {},
    positionals: true,
  },
  history: {
    usage: 'bugtrail history bug <id> [--at T] [--json]   or   bugtrail history <stream>',
    summary: "a bug's story (or any stream) read from the store itself",
    options: { at: { type: 'string' }, json: { type: 'boolean' } },
    positionals: true,
  },
  verify: {
    usage: 'bugtrail verify',
    summary: "checks every stream's hash chain and every projection against a rebuild; exit 1 on a difference",
    options: {},
    positionals: false,
  },
  'analyst-url': {
    usage: 'bugtrail analyst-url',
    summary: 'prints a PostgreSQL connection string for analysts (SELECT on schema analytics only)',
    options: {},
    positionals: false,
  },
  'analytics-docs': {
    usage: 'bugtrail analytics-docs [--out FILE]',
    summary: "writes the analysts' data dictionary (docs/analytics.md by default)",
    options: { out: { type: 'string' } },
    positionals: false,
  },
  seed: {
    usage: 'bugtrail seed',
    summary: 'writes demo data (users, bugs, chats) into the database',
    options: {},
    positionals: false,
  },
  import: {
    usage:
      'bugtrail import FILE --from redmine|jira|github [--dry-run] [--skip-invalid] [--json] [--url URL] [--token btp_…]',
    summary: "imports bugs through a server's API with an admin's write token",
    options: {
      from: { type: 'string' },
      url: { type: 'string' },
      token: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'skip-invalid': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    positionals: true,
  },
  bench: {
    usage: 'bugtrail bench [--quick] [--only suite,suite] [--store N]',
    summary: 'runs the benchmarks; a table and bench/results/latest.json',
    options: { quick: { type: 'boolean' }, only: { type: 'string' }, store: { type: 'string' } },
    positionals: false,
  },
};

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

export type CommandLine =
  | { kind: 'run'; command: string; args: string[] }
  | { kind: 'help'; text: string }
  | { kind: 'error'; message: string };

export function overview(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  return [
    `usage: ${PROGRAM} <command> [options]   (no command: start)`,
    '',
    'commands:',
    ...Object.entries(commands).map(([name, spec]) => `  ${name.padEnd(width)}  ${spec.summary}`),
    '',
    "`bugtrail <command> --help` shows a command's options.",
  ].join('\n');
}

function helpOf(name: string, spec: CommandSpec): string {
  return [`usage: ${spec.usage}`, '', `${name}: ${spec.summary}`].join('\n');
}

/** Checks the arguments (after `node main.js`) against the table; runs nothing. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'run', command: 'start', args: [] };
  if (first === '--help' || first === '-h' || first === 'help') {
    const about = first === 'help' ? rest[0] : undefined;
    if (about === undefined) return { kind: 'help', text: overview() };
    const spec = commands[about];
    if (!spec) return { kind: 'error', message: `unknown command: ${about}\n\n${overview()}` };
    return { kind: 'help', text: helpOf(about, spec) };
  }
  // Options before any command are start's (`bugtrail --only projector`).
  const [command, args] = first.startsWith('-') ? ['start', [...argv]] : [first, rest];
  const spec = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!spec) return { kind: 'error', message: `unknown command: ${command}\n\n${overview()}` };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: { ...spec.options, ...HELP },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    return { kind: 'error', message: `${(error as Error).message}\nusage: ${spec.usage}` };
  }
  if (parsed.values.help) return { kind: 'help', text: helpOf(command, spec) };
  if (!spec.positionals && parsed.positionals.length > 0) {
    return {
      kind: 'error',
      message: `${command} takes no arguments (got ${parsed.positionals.join(' ')})\nusage: ${spec.usage}`,
    };
  }
  return { kind: 'run', command, args };
}
