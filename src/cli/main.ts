#!/usr/bin/env -S node --max-semi-space-size=32
// The `bulkhead` command.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { UsageError } from './errors.js';
import { planCommand } from './plan.js';

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
  program.addCommand(planCommand(io).exitOverride());
  // `plan` is a short-lived command: it does not load the server's, agent's and image code
  // (about as long again as planning a thousand pods).
  if (argv[0] !== 'plan') {
    const [{ serverCommand, upCommand }, { agentCommand }, { imageCommand }] = await Promise.all([import('./server.js'), import('./agent.js'), import('./image.js')]);
    program.addCommand(upCommand().exitOverride());
    program.addCommand(serverCommand().exitOverride());
    program.addCommand(agentCommand().exitOverride());
    const image = imageCommand(io);
    image.exitOverride();
    for (const sub of image.commands) sub.exitOverride();
    program.addCommand(image);
  }
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
