// The `bulkhead` command.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { UsageError } from './errors.js';

/**
 * Each command's module, loaded only when that command runs (or for help and suggestions):
 * `plan`'s engine and `image`'s store need not load for `server`, whose start it would slow.
 */
const commandModules: Record<string, (io: PlanIO) => Promise<Command[]>> = {
  plan: async (io) => [(await import('./plan.js')).planCommand(io).exitOverride()],
  up: async () => [(await import('./up.js')).upCommand().exitOverride()],
  server: async () => [(await import('./server.js')).serverCommand().exitOverride()],
  agent: async () => [(await import('./agent.js')).agentCommand().exitOverride()],
  down: async () => [(await import('./down.js')).downCommand().exitOverride()],
  token: async (io) => {
    const token = (await import('./token.js')).tokenCommand(io);
    token.exitOverride();
    for (const sub of token.commands) sub.exitOverride();
    return [token];
  },
  image: async (io) => {
    const image = (await import('./image.js')).imageCommand(io);
    image.exitOverride();
    for (const sub of image.commands) sub.exitOverride();
    return [image];
  },
};

type PlanIO = { stdout: (s: string) => void; readStdin: () => string; exit: (code: number) => void };

const version = '0.1.0';

class Exit {
  constructor(readonly code: number) {}
}

export async function main(argv: string[]): Promise<number> {
  const io = {
    stdout: (s: string) => process.stdout.write(s),
    readStdin: () => readFileSync(0, 'utf8'),
    exit: (code: number) => {
      throw new Exit(code);
    },
  };
  const program = new Command('bulkhead')
    .description('Kubernetes-compatible container resource management: from the Pod manifest to the kernel.')
    .version(version, '--version', 'print the version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .showSuggestionAfterError(true);
  const only = argv[0] !== undefined && Object.hasOwn(commandModules, argv[0]) ? [argv[0]] : Object.keys(commandModules);
  for (const name of only) for (const c of await commandModules[name]!(io)) program.addCommand(c);
  program.addHelpText('after', `
Examples:
  bulkhead plan examples/ --node-memory 16Gi --node-cpu 4 --cgroup-version 2
  bulkhead plan --help`);
  if (argv.length === 0) {
    process.stdout.write(program.helpInformation());
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof Exit) return e.code;
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2; // commander already printed the one-line reason
    }
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

// A reader that stops early (`| head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const args = process.argv.slice(2);

/**
 * Settles once the command has done what it does before it waits (launch.ts then writes the code
 * cache), with whether it ran through: status 0, or plan's 1 (a pod or object refused: the plan
 * was made and printed all the same, and most plans of real manifests refuse something).
 */
export const done: Promise<boolean> = main(args).then(
  (code) => {
    process.exitCode = code;
    return code === 0 || (args[0] === 'plan' && code === 1);
  },
  (e: unknown) => {
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
    return false;
  },
);
