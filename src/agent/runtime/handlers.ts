// Several OCI runtimes behind the one ContainerRuntime the pod worker speaks to, one per
// runtime handler, as CRI-O's internal/oci/oci.go keeps a runtime implementation per handler
// and picks it by the container's handler. A container's handler is the
// `io.bulkhead.runtime-handler` annotation of its config.json (the pod worker writes the pod's
// handler into every bundle of the pod; none: the default runtime); afterwards the container id
// is enough: the runtime that created it is remembered, and after an agent restart it is the one
// whose state directory holds `<root>/<id>` (runc and crun both keep a container's state there).
// Exit files and conmon are shared: every runtime writes `<exitDir>/<id>`.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerInput, ContainerRuntime, ExecOptions, ExecProcess, MonitoredOptions, RuntimeContainer } from './runtime.js';

export const runtimeHandlerAnnotation = 'io.bulkhead.runtime-handler';

/** A runtime of the set, with the state directory its containers are found in. */
export interface HandlerRuntime {
  runtime: ContainerRuntime;
  /** `--root`: `<stateRoot>/<id>` exists while the runtime knows the container. */
  stateRoot: string;
}

/** The handler a bundle's config.json names ('' when none, or unreadable). */
export function bundleHandler(bundle: string): string {
  try {
    const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as { annotations?: Record<string, string> };
    return spec.annotations?.[runtimeHandlerAnnotation] ?? '';
  } catch {
    return '';
  }
}

export class HandlerRuntimes implements ContainerRuntime {
  readonly exitDir: string;
  private readonly byID = new Map<string, ContainerRuntime>();
  private readonly distinct: HandlerRuntime[];

  /** `handlers`: each handler's runtime; `defaultHandler` names the one for containers that name none. */
  constructor(private readonly handlers: ReadonlyMap<string, HandlerRuntime>, private readonly defaultHandler: string) {
    const def = handlers.get(defaultHandler);
    if (!def) throw new Error(`the default runtime handler ${JSON.stringify(defaultHandler)} is not among ${[...handlers.keys()].join(', ')}`);
    this.exitDir = def.runtime.exitDir;
    this.distinct = [...new Set(handlers.values())];
    for (const h of this.distinct) if (h.runtime.exitDir !== this.exitDir) throw new Error(`runtime handlers write exit files to ${h.runtime.exitDir} and ${this.exitDir}`);
  }

  private forBundle(id: string, bundle: string): ContainerRuntime {
    const handler = bundleHandler(bundle) || this.defaultHandler;
    const h = this.handlers.get(handler);
    if (!h) throw new Error(`no runtime for ${JSON.stringify(handler)} is configured`);
    this.byID.set(id, h.runtime);
    return h.runtime;
  }

  /** The runtime that created `id`: remembered, or found by its state; the default when none knows it. */
  private forID(id: string): ContainerRuntime {
    const known = this.byID.get(id);
    if (known) return known;
    const found = this.distinct.find((h) => existsSync(join(h.stateRoot, id)));
    const rt = found?.runtime ?? this.handlers.get(this.defaultHandler)!.runtime;
    if (found) this.byID.set(id, rt);
    return rt;
  }

  version(): Promise<string> {
    return this.handlers.get(this.defaultHandler)!.runtime.version();
  }

  async runDetached(id: string, bundle: string, io: { pidFile: string; logPath: string }): Promise<number> {
    return this.forBundle(id, bundle).runDetached(id, bundle, io);
  }

  async startMonitored(id: string, bundle: string, logPath: string, opts?: MonitoredOptions): Promise<{ containerPid: number }> {
    return this.forBundle(id, bundle).startMonitored(id, bundle, logPath, opts);
  }

  kill(id: string, signal: string): Promise<void> {
    return this.forID(id).kill(id, signal);
  }

  async delete(id: string, opts?: { force?: boolean }): Promise<void> {
    await this.forID(id).delete(id, opts);
    this.byID.delete(id);
  }

  state(id: string): Promise<RuntimeContainer | undefined> {
    return this.forID(id).state(id);
  }

  async list(): Promise<RuntimeContainer[]> {
    const lists = await Promise.all(this.distinct.map((h) => h.runtime.list()));
    return lists.flat();
  }

  /** conmon and the exit files are the same whichever runtime conmon drives. */
  monitorAlive(id: string, bundle: string): boolean {
    return this.handlers.get(this.defaultHandler)!.runtime.monitorAlive(id, bundle);
  }

  readExit(id: string): number | undefined {
    return this.handlers.get(this.defaultHandler)!.runtime.readExit(id);
  }

  exec(id: string, argv: string[], opts: ExecOptions): ExecProcess {
    return this.forID(id).exec(id, argv, opts);
  }

  /** Attach goes to conmon of the runtime that created `id` (every runtime here has it). */
  attachInput(id: string, bundle: string): ContainerInput {
    const rt = this.forID(id);
    if (!rt.attachInput) throw new Error(`the runtime of ${id} serves attach without stdin`);
    return rt.attachInput(id, bundle);
  }

  resizeTerminal(id: string, bundle: string, width: number, height: number): boolean {
    return this.forID(id).resizeTerminal?.(id, bundle, width, height) ?? false;
  }
}
