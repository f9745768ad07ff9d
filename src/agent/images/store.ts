// A local image store for the node agent: images come from files on this machine (an OCI image
// layout, as a directory or a tar, or a `docker save` archive), never from a registry.
//
// Layout under the root:
//   <root>/<hex>/image.json   what the store knows about the image (immutable once there)
//   <root>/<hex>/rootfs/      the unpacked layers
//   <root>/refs.json          reference -> image ID (tags and name@digest)
//   <root>/.tmp/              imports and removals in progress; emptied when the store opens
// <hex> is the image ID (the sha256 of its config blob, as Docker computes it). An image is
// unpacked under .tmp and renamed into place complete; refs.json is replaced by rename. So a
// crash leaves at worst a complete image without references, never a partial one.
// One ImageStore per root per process: the store serialises its own writes but takes no lock
// against other processes.

import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { lstat, mkdir, open, readFile, readdir, realpath, rename, stat } from 'node:fs/promises';
import { join, relative, resolve as resolvePath, sep } from 'node:path';
import { x as extractTar } from 'tar';
import { applyLayer, finishRootfs, removeTree, treeSize, type DirModes } from './layer.js';
import { familiarReference, formatReference, parseReference, referenceName } from './reference.js';

export interface ImageConfigSummary {
  env: string[];
  entrypoint: string[] | null;
  cmd: string[] | null;
  workingDir: string;
  user: string;
  labels: Record<string, string>;
  stopSignal?: string;
}

/** What the store keeps about an image. */
export interface ImageRecord {
  /** "sha256:<hex>" of the config blob (Docker's image ID). */
  id: string;
  /** Fully qualified tags, e.g. "docker.io/library/busybox:latest", sorted. */
  references: string[];
  /** "name@sha256:..." references (manifest digests from OCI layouts), sorted. */
  repoDigests: string[];
  /** Digest of the image manifest, when the import had one (OCI layouts). */
  manifestDigest?: string;
  config: ImageConfigSummary;
  os: string;
  architecture: string;
  variant?: string;
  /** rootfs.diff_ids from the config, one per layer. */
  diffIds: string[];
  /** Bytes used by the unpacked rootfs. */
  size: number;
  /** Absolute path of the unpacked root filesystem. */
  rootfs: string;
  source: 'oci-layout' | 'docker-archive' | 'built';
  importedAt: string;
  /** Layer entries not created (device nodes, FIFOs). */
  skippedEntries: string[];
}

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export interface ImportOptions {
  /** Extra references to give the image (only when the archive holds exactly one image). */
  references?: string[];
  /**
   * For an OCI layout whose index names images by tag only
   * (org.opencontainers.image.ref.name = "1.36"): the repository to put in front of the tag.
   */
  repository?: string;
  /** Which manifest of an image index to take; default: this host (linux/amd64 on x64). */
  platform?: Platform;
}

export interface RemoveResult {
  /** References removed. */
  untagged: string[];
  /** The image ID deleted, when the image itself went. */
  deleted?: string;
}

export class ImageNotFoundError extends Error {
  constructor(readonly reference: string) {
    super(`image ${JSON.stringify(reference)} not found in the local image store`);
    this.name = 'ImageNotFoundError';
  }
}

export class ImageImportError extends Error {
  constructor(source: string, reason: string, options?: { cause?: unknown }) {
    super(`cannot import image from ${source}: ${reason}`, options);
    this.name = 'ImageImportError';
  }
}

export function hostPlatform(): Platform {
  const arch: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };
  return { os: 'linux', architecture: arch[process.arch] ?? process.arch };
}

const mediaTypes = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
};

interface Descriptor {
  mediaType?: string;
  digest: string;
  size?: number;
  platform?: Platform & { 'os.version'?: string };
  annotations?: Record<string, string>;
}

/** One image found in an archive, before unpacking. */
interface ImageSource {
  configFile: string;
  configDigest?: string;
  layers: { file: string; digest?: string }[];
  tags: string[];
  manifestDigest?: string;
  source: 'oci-layout' | 'docker-archive';
}

interface StoredImage extends Omit<ImageRecord, 'references' | 'repoDigests' | 'rootfs'> {}

interface RefsFile {
  version: 1;
  tags: Record<string, string>;
  digests: Record<string, string>;
}

const hexIdRe = /^[a-f0-9]{64}$/;
const sha256Re = /^sha256:[a-f0-9]{64}$/;

export class ImageStore {
  readonly root: string;
  private ready: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(root: string) {
    this.root = resolvePath(root);
  }

  private get tmpDir(): string {
    return join(this.root, '.tmp');
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.root, { recursive: true });
      await removeTree(this.tmpDir);
      await mkdir(this.tmpDir, { recursive: true });
    })();
    return this.ready;
  }

  /** Run `fn` after every earlier write of this store has finished. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      await this.init();
      return fn();
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async tempPath(prefix: string): Promise<string> {
    return join(this.tmpDir, `${prefix}-${randomBytes(8).toString('hex')}`);
  }

  /**
   * Import every image in an OCI image layout (directory or tar) or a docker-archive tar.
   * Importing an image that is already there only updates its references.
   */
  import(path: string, opts: ImportOptions = {}): Promise<ImageRecord[]> {
    return this.exclusive(async () => {
      const abs = resolvePath(path);
      const st = await stat(abs).catch(() => undefined);
      if (!st) throw new ImageImportError(path, 'no such file or directory');
      let dir = abs;
      let staging: string | undefined;
      try {
        if (!st.isDirectory()) {
          staging = await this.tempPath('archive');
          await mkdir(staging);
          try {
            await extractTar({ file: abs, cwd: staging, strict: true, preservePaths: false, preserveOwner: false });
          } catch (err) {
            throw new ImageImportError(path, `not a readable tar archive (${(err as Error).message})`, { cause: err });
          }
          dir = staging;
        }
        const sources = await readArchive(dir, path, opts);
        if (opts.references?.length && sources.length !== 1) {
          throw new ImageImportError(path, `extra references need exactly one image in the archive, found ${sources.length}`);
        }
        const records: ImageRecord[] = [];
        for (const src of sources) {
          const tags = [...src.tags, ...(opts.references ?? [])].map((t) => {
            const ref = parseReference(t);
            if (ref.digest !== undefined) throw new ImageImportError(path, `cannot tag an image with a digest reference ${JSON.stringify(t)}`);
            return formatReference(ref);
          });
          const id = await this.unpack(src, path);
          await this.updateRefs((refs) => {
            for (const t of tags) refs.tags[t] = id;
            if (src.manifestDigest) {
              for (const t of tags) refs.digests[`${referenceName(parseReference(t))}@${src.manifestDigest}`] = id;
            }
          });
          records.push((await this.get(id))!);
        }
        return records;
      } finally {
        if (staging) await removeTree(staging);
      }
    });
  }

  /** Unpack one image unless it is already there; returns its ID. */
  private async unpack(src: ImageSource, origin: string): Promise<string> {
    const configBytes = await readFile(src.configFile);
    const id = `sha256:${createHash('sha256').update(configBytes).digest('hex')}`;
    if (src.configDigest !== undefined && src.configDigest !== id) {
      throw new ImageImportError(origin, `config blob digest mismatch (expected ${src.configDigest}, got ${id})`);
    }
    const hex = id.slice('sha256:'.length);
    const finalDir = join(this.root, hex);
    if (await stat(join(finalDir, 'image.json')).catch(() => undefined)) return id;

    let config: any;
    try {
      config = JSON.parse(configBytes.toString('utf8'));
    } catch {
      throw new ImageImportError(origin, 'image config is not JSON');
    }
    const diffIds: string[] = Array.isArray(config?.rootfs?.diff_ids) ? config.rootfs.diff_ids : [];
    if (diffIds.length > 0 && diffIds.length !== src.layers.length) {
      throw new ImageImportError(origin, `config lists ${diffIds.length} layers (rootfs.diff_ids) but the manifest has ${src.layers.length}`);
    }
    const work = await this.tempPath(`import-${hex.slice(0, 12)}`);
    const rootfs = join(work, 'rootfs');
    await mkdir(rootfs, { recursive: true });
    try {
      const dirModes: DirModes = new Map();
      const skipped: string[] = [];
      const actualDiffIds: string[] = [];
      for (const [i, layer] of src.layers.entries()) {
        try {
          const r = await applyLayer(rootfs, layer.file, { digest: layer.digest, diffId: diffIds[i], dirModes });
          skipped.push(...r.skipped);
          actualDiffIds.push(r.diffId);
        } catch (err) {
          throw new ImageImportError(origin, `layer ${i + 1}/${src.layers.length}: ${(err as Error).message}`, { cause: err });
        }
      }
      await finishRootfs(dirModes);
      const c = config?.config ?? {};
      const stored: StoredImage = {
        id,
        ...(src.manifestDigest ? { manifestDigest: src.manifestDigest } : {}),
        config: {
          env: Array.isArray(c.Env) ? c.Env : [],
          entrypoint: Array.isArray(c.Entrypoint) ? c.Entrypoint : null,
          cmd: Array.isArray(c.Cmd) ? c.Cmd : null,
          workingDir: typeof c.WorkingDir === 'string' ? c.WorkingDir : '',
          user: typeof c.User === 'string' ? c.User : '',
          labels: c.Labels && typeof c.Labels === 'object' ? c.Labels : {},
          ...(typeof c.StopSignal === 'string' ? { stopSignal: c.StopSignal } : {}),
        },
        os: typeof config?.os === 'string' ? config.os : 'linux',
        architecture: typeof config?.architecture === 'string' ? config.architecture : '',
        ...(typeof config?.variant === 'string' ? { variant: config.variant } : {}),
        diffIds: diffIds.length > 0 ? diffIds : actualDiffIds,
        size: await treeSize(rootfs),
        source: config?.config?.Labels?.['io.bulkhead.image.source'] === 'host-busybox' ? 'built' : src.source,
        importedAt: new Date().toISOString(),
        skippedEntries: skipped,
      };
      await writeFileDurable(join(work, 'image.json'), JSON.stringify(stored, null, 2) + '\n');
      try {
        await rename(work, finalDir);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
        // Another import of the same image got there first (same content by construction).
      }
      return id;
    } finally {
      await removeTree(work);
    }
  }

  // refs.json and image.json are read synchronously: they are small, and every container start
  // resolves its image, where each asynchronous read waited its turn in the thread pool behind
  // the agent's other I/O (~15 ms of a pod start, bench:startup).
  private async readRefs(): Promise<RefsFile> {
    try {
      const parsed = JSON.parse(readFileSync(join(this.root, 'refs.json'), 'utf8'));
      return { version: 1, tags: parsed.tags ?? {}, digests: parsed.digests ?? {} };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tags: {}, digests: {} };
      throw err;
    }
  }

  private async updateRefs(change: (refs: RefsFile) => void): Promise<void> {
    const refs = await this.readRefs();
    change(refs);
    const tmp = await this.tempPath('refs');
    await writeFileDurable(tmp, JSON.stringify(refs, null, 2) + '\n');
    await rename(tmp, join(this.root, 'refs.json'));
  }

  private async readStored(hex: string): Promise<StoredImage | undefined> {
    try {
      return JSON.parse(readFileSync(join(this.root, hex, 'image.json'), 'utf8')) as StoredImage;
    } catch {
      return undefined;
    }
  }

  private toRecord(stored: StoredImage, refs: RefsFile): ImageRecord {
    const byId = (m: Record<string, string>) => Object.keys(m).filter((k) => m[k] === stored.id).sort();
    return { ...stored, references: byId(refs.tags), repoDigests: byId(refs.digests), rootfs: join(this.root, stored.id.slice(7), 'rootfs') };
  }

  /** The image with this ID ("sha256:<hex>" or "<hex>"), if present. */
  async get(id: string): Promise<ImageRecord | undefined> {
    await this.init();
    const hex = id.startsWith('sha256:') ? id.slice(7) : id;
    if (!hexIdRe.test(hex)) return undefined;
    const stored = await this.readStored(hex);
    return stored && this.toRecord(stored, await this.readRefs());
  }

  /** Every image in the store, sorted by first reference then ID. */
  async list(): Promise<ImageRecord[]> {
    await this.init();
    const refs = await this.readRefs();
    const out: ImageRecord[] = [];
    for (const name of await readdir(this.root)) {
      if (!hexIdRe.test(name)) continue;
      const stored = await this.readStored(name);
      if (stored) out.push(this.toRecord(stored, refs));
    }
    return out.sort((a, b) => (a.references[0] ?? '\uffff').localeCompare(b.references[0] ?? '\uffff') || a.id.localeCompare(b.id));
  }

  /**
   * Find an image by reference ("busybox", "busybox:1.36", "registry.example/x/y:tag",
   * "busybox@sha256:..."), by ID ("sha256:<hex>", "<hex>") or by an ID prefix of 12 or more
   * hex digits. Undefined when absent; InvalidReferenceError when the reference is malformed.
   */
  async resolve(reference: string): Promise<ImageRecord | undefined> {
    await this.init();
    if (sha256Re.test(reference) || hexIdRe.test(reference)) return this.get(reference);
    const refs = await this.readRefs();
    let parsed;
    try {
      parsed = parseReference(reference);
    } catch (err) {
      const prefix = await this.byIdPrefix(reference);
      if (prefix) return prefix;
      throw err;
    }
    if (parsed.digest !== undefined) {
      const key = `${referenceName(parsed)}@${parsed.digest}`;
      if (refs.digests[key]) return this.get(refs.digests[key]);
      // Also accept name@<manifest digest or image ID> for an image carrying that name.
      for (const img of await this.list()) {
        if (img.manifestDigest !== parsed.digest && img.id !== parsed.digest) continue;
        if (img.references.some((r) => referenceName(parseReference(r)) === referenceName(parsed))) return img;
      }
      return undefined;
    }
    const id = refs.tags[formatReference(parsed)];
    if (id) return this.get(id);
    return this.byIdPrefix(reference);
  }

  private async byIdPrefix(s: string): Promise<ImageRecord | undefined> {
    const prefix = s.startsWith('sha256:') ? s.slice(7) : s;
    if (!/^[a-f0-9]{12,63}$/.test(prefix)) return undefined;
    const matches = (await readdir(this.root)).filter((n) => hexIdRe.test(n) && n.startsWith(prefix));
    return matches.length === 1 ? this.get(matches[0]!) : undefined;
  }

  /** Point `target` (a tag reference) at the image `source` resolves to. */
  tag(source: string, target: string): Promise<ImageRecord> {
    return this.exclusive(async () => {
      const img = await this.resolve(source);
      if (!img) throw new ImageNotFoundError(source);
      const ref = parseReference(target);
      if (ref.digest !== undefined) throw new Error(`cannot tag with a digest reference ${JSON.stringify(target)}`);
      await this.updateRefs((refs) => {
        refs.tags[formatReference(ref)] = img.id;
      });
      return (await this.get(img.id))!;
    });
  }

  /**
   * Remove a reference; the image goes with its last reference. Given an ID or a digest
   * reference, the image and all its references go.
   */
  remove(reference: string): Promise<RemoveResult> {
    return this.exclusive(async () => {
      const img = await this.resolve(reference);
      if (!img) throw new ImageNotFoundError(reference);
      const isTag = !sha256Re.test(reference) && !hexIdRe.test(reference) && !reference.includes('@') && img.references.includes(normalizeOrUndefined(reference) ?? '');
      if (isTag) {
        const tag = normalizeOrUndefined(reference)!;
        const others = img.references.filter((r) => r !== tag);
        if (others.length > 0) {
          await this.updateRefs((refs) => {
            delete refs.tags[tag];
          });
          return { untagged: [tag] };
        }
      }
      const untagged = [...img.references, ...img.repoDigests];
      await this.updateRefs((refs) => {
        for (const r of img.references) delete refs.tags[r];
        for (const r of img.repoDigests) delete refs.digests[r];
      });
      const hex = img.id.slice(7);
      const trash = await this.tempPath(`remove-${hex.slice(0, 12)}`);
      await rename(join(this.root, hex), trash);
      await removeTree(trash);
      return { untagged, deleted: img.id };
    });
  }
}

function normalizeOrUndefined(ref: string): string | undefined {
  try {
    return formatReference(parseReference(ref));
  } catch {
    return undefined;
  }
}

/** Short names for display: "docker.io/library/busybox:latest" -> "busybox:latest". */
export function familiarReferences(img: ImageRecord): string[] {
  return img.references.map(familiarReference);
}

async function writeFileDurable(path: string, data: string): Promise<void> {
  const fh = await open(path, 'wx', 0o644);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A file named by an archive, which must stay inside the archive directory (symlinks included). */
async function member(dir: string, name: string, origin: string): Promise<string> {
  if (typeof name !== 'string' || name === '') throw new ImageImportError(origin, 'archive names an empty file');
  const p = join(dir, name);
  let real: string;
  try {
    real = await realpath(p);
  } catch {
    throw new ImageImportError(origin, `archive lacks ${JSON.stringify(name)}`);
  }
  const realDir = await realpath(dir);
  if (real !== realDir && !real.startsWith(realDir + sep)) {
    throw new ImageImportError(origin, `${JSON.stringify(name)} points outside the archive (${relative(realDir, real)})`);
  }
  if (!(await lstat(real)).isFile()) throw new ImageImportError(origin, `${JSON.stringify(name)} is not a regular file`);
  return real;
}

async function readJson(file: string, origin: string, what: string): Promise<any> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new ImageImportError(origin, `${what} is not valid JSON (${(err as Error).message})`);
  }
}

async function exists(p: string): Promise<boolean> {
  return (await lstat(p).catch(() => undefined)) !== undefined;
}

/** Find the images in an unpacked archive directory. */
async function readArchive(dir: string, origin: string, opts: ImportOptions): Promise<ImageSource[]> {
  if (await exists(join(dir, 'manifest.json'))) return readDockerArchive(dir, origin);
  if ((await exists(join(dir, 'oci-layout'))) && (await exists(join(dir, 'index.json')))) return readOciLayout(dir, origin, opts);
  throw new ImageImportError(origin, 'neither an OCI image layout (oci-layout + index.json) nor a docker-archive (manifest.json)');
}

async function readDockerArchive(dir: string, origin: string): Promise<ImageSource[]> {
  const manifest = await readJson(join(dir, 'manifest.json'), origin, 'manifest.json');
  if (!Array.isArray(manifest) || manifest.length === 0) throw new ImageImportError(origin, 'manifest.json lists no images');
  const out: ImageSource[] = [];
  for (const m of manifest) {
    if (typeof m?.Config !== 'string' || !Array.isArray(m?.Layers)) throw new ImageImportError(origin, 'manifest.json entry without Config and Layers');
    out.push({
      configFile: await member(dir, m.Config, origin),
      layers: await Promise.all(m.Layers.map(async (l: string) => ({ file: await member(dir, l, origin) }))),
      tags: Array.isArray(m.RepoTags) ? m.RepoTags : [],
      source: 'docker-archive',
    });
  }
  return out;
}

async function blob(dir: string, digest: unknown, origin: string): Promise<string> {
  if (typeof digest !== 'string' || !sha256Re.test(digest)) throw new ImageImportError(origin, `unsupported or malformed digest ${JSON.stringify(digest)}`);
  return member(dir, `blobs/sha256/${digest.slice(7)}`, origin);
}

async function verifiedJson(dir: string, desc: Descriptor, origin: string): Promise<any> {
  const file = await blob(dir, desc.digest, origin);
  const bytes = await readFile(file);
  const actual = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (actual !== desc.digest) throw new ImageImportError(origin, `blob ${desc.digest} digest mismatch (got ${actual})`);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ImageImportError(origin, `blob ${desc.digest} is not JSON`);
  }
}

function platformMatches(p: Descriptor['platform'], want: Platform): boolean {
  if (!p) return false;
  return p.os === want.os && p.architecture === want.architecture && (want.variant === undefined || p.variant === want.variant);
}

function isIndex(desc: Descriptor, doc: any): boolean {
  return desc.mediaType === mediaTypes.ociIndex || desc.mediaType === mediaTypes.dockerList || doc?.mediaType === mediaTypes.ociIndex || doc?.mediaType === mediaTypes.dockerList || (Array.isArray(doc?.manifests) && !Array.isArray(doc?.layers));
}

async function readOciLayout(dir: string, origin: string, opts: ImportOptions): Promise<ImageSource[]> {
  const layout = await readJson(await member(dir, 'oci-layout', origin), origin, 'oci-layout');
  if (typeof layout?.imageLayoutVersion !== 'string') throw new ImageImportError(origin, 'oci-layout has no imageLayoutVersion');
  const index = await readJson(await member(dir, 'index.json', origin), origin, 'index.json');
  if (!Array.isArray(index?.manifests) || index.manifests.length === 0) throw new ImageImportError(origin, 'index.json lists no manifests');
  const want = opts.platform ?? hostPlatform();
  const out: ImageSource[] = [];
  for (const top of index.manifests as Descriptor[]) {
    // A top-level entry for another platform is skipped (an index listing platforms directly).
    if (top.platform && !platformMatches(top.platform, want)) continue;
    let desc = top;
    let doc = await verifiedJson(dir, desc, origin);
    if (isIndex(desc, doc)) {
      const entries: Descriptor[] = Array.isArray(doc.manifests) ? doc.manifests : [];
      const pick = entries.find((e) => platformMatches(e.platform, want));
      if (!pick) {
        const have = entries.map((e) => (e.platform ? `${e.platform.os}/${e.platform.architecture}${e.platform.variant ? `/${e.platform.variant}` : ''}` : '?')).join(', ');
        throw new ImageImportError(origin, `image index ${desc.digest} has no ${want.os}/${want.architecture} manifest (it has: ${have || 'none'})`);
      }
      desc = pick;
      doc = await verifiedJson(dir, desc, origin);
      if (isIndex(desc, doc)) throw new ImageImportError(origin, `nested image index ${desc.digest} is not supported`);
    }
    if (!doc?.config?.digest || !Array.isArray(doc?.layers)) throw new ImageImportError(origin, `manifest ${desc.digest} has no config or layers`);
    out.push({
      configFile: await blob(dir, doc.config.digest, origin),
      configDigest: doc.config.digest,
      layers: await Promise.all((doc.layers as Descriptor[]).map(async (l) => ({ file: await blob(dir, l.digest, origin), digest: l.digest }))),
      tags: ociTags(top.annotations ?? {}, opts, origin),
      manifestDigest: desc.digest,
      source: 'oci-layout',
    });
  }
  if (out.length === 0) throw new ImageImportError(origin, `index.json has no manifest for ${want.os}/${want.architecture}`);
  return out;
}

function ociTags(annotations: Record<string, string>, opts: ImportOptions, origin: string): string[] {
  const full = annotations['io.containerd.image.name'];
  if (full) return [full];
  const refName = annotations['org.opencontainers.image.ref.name'];
  if (!refName) return [];
  if (refName.includes('/') || refName.includes(':')) return [refName];
  // Only a tag: it needs a repository.
  if (opts.repository) return [`${opts.repository}:${refName}`];
  if (opts.references?.length) return [];
  throw new ImageImportError(origin, `the index names the image only by tag ${JSON.stringify(refName)}; give a repository (ImportOptions.repository) or references`);
}
