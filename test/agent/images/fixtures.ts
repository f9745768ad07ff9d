// Builders for the test images: raw tar layers (any path, including hostile ones), OCI image
// layouts and docker-archive directories, all written by the tests into os.tmpdir().

import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header, c as createTar } from 'tar';

export interface TarEntry {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'FIFO';
  body?: string | Buffer;
  mode?: number;
  linkpath?: string;
}

export const file = (path: string, body: string, mode = 0o644): TarEntry => ({ path, body, mode });
export const dir = (path: string, mode = 0o755): TarEntry => ({ path, type: 'Directory', mode });
export const symlink = (path: string, linkpath: string): TarEntry => ({ path, type: 'SymbolicLink', linkpath });
export const hardlink = (path: string, linkpath: string): TarEntry => ({ path, type: 'Link', linkpath });

/** An uncompressed tar with exactly these entries, paths untouched. */
export function tarBuffer(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = e.body === undefined ? Buffer.alloc(0) : Buffer.from(e.body);
    const type = e.type ?? 'File';
    const h = new Header({
      path: e.path,
      type,
      mode: e.mode ?? (type === 'Directory' ? 0o755 : 0o644),
      size: type === 'File' ? body.length : 0,
      uid: 0,
      gid: 0,
      mtime: new Date(1_700_000_000_000),
      ...(e.linkpath !== undefined ? { linkpath: e.linkpath } : {}),
    });
    const block = Buffer.alloc(512);
    if (h.encode(block, 0)) throw new Error(`fixture path too long for a plain ustar header: ${e.path}`);
    blocks.push(block);
    if (type === 'File' && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const sha256 = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export interface LayerSpec {
  entries: TarEntry[];
  gzip?: boolean;
}

export interface ConfigFields {
  Env?: string[];
  Entrypoint?: string[];
  Cmd?: string[];
  WorkingDir?: string;
  User?: string;
}

export function layerBlob(l: LayerSpec): { tar: Buffer; blob: Buffer } {
  const tar = tarBuffer(l.entries);
  return { tar, blob: l.gzip ? gzipSync(tar) : tar };
}

export function configBlob(tars: Buffer[], fields: ConfigFields, arch = 'amd64'): Buffer {
  return Buffer.from(
    JSON.stringify({ architecture: arch, os: 'linux', config: fields, rootfs: { type: 'layers', diff_ids: tars.map(sha256) } }),
  );
}

function writeBlob(root: string, b: Buffer): string {
  const d = sha256(b);
  writeFileSync(join(root, 'blobs', 'sha256', d.slice(7)), b);
  return d;
}

function manifestFor(root: string, layers: LayerSpec[], fields: ConfigFields, arch = 'amd64'): { digest: string; size: number } {
  const built = layers.map(layerBlob);
  const cfg = configBlob(built.map((b) => b.tar), fields, arch);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: writeBlob(root, cfg), size: cfg.length },
      layers: built.map((b, i) => ({
        mediaType: layers[i]!.gzip ? 'application/vnd.oci.image.layer.v1.tar+gzip' : 'application/vnd.oci.image.layer.v1.tar',
        digest: writeBlob(root, b.blob),
        size: b.blob.length,
      })),
    }),
  );
  return { digest: writeBlob(root, manifest), size: manifest.length };
}

/**
 * An OCI image layout in `root`. With `otherArch`, index.json points at an image index holding
 * an arm64 manifest (with `otherArch` layers) first and the amd64 one second.
 */
export function writeOciLayout(root: string, opts: { layers: LayerSpec[]; config: ConfigFields; name?: string; otherArch?: LayerSpec[] }): void {
  mkdirSync(join(root, 'blobs', 'sha256'), { recursive: true });
  writeFileSync(join(root, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  const m = manifestFor(root, opts.layers, opts.config);
  const annotations = opts.name ? { 'io.containerd.image.name': opts.name, 'org.opencontainers.image.ref.name': opts.name.split(':').pop() } : undefined;
  let top: Record<string, unknown> = { mediaType: 'application/vnd.oci.image.manifest.v1+json', ...m, annotations };
  if (opts.otherArch) {
    const arm = manifestFor(root, opts.otherArch, opts.config, 'arm64');
    const idx = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.index.v1+json',
        manifests: [
          { mediaType: 'application/vnd.oci.image.manifest.v1+json', ...arm, platform: { os: 'linux', architecture: 'arm64', variant: 'v8' } },
          { mediaType: 'application/vnd.oci.image.manifest.v1+json', ...m, platform: { os: 'linux', architecture: 'amd64' } },
        ],
      }),
    );
    top = { mediaType: 'application/vnd.oci.image.index.v1+json', digest: writeBlob(root, idx), size: idx.length, annotations };
  }
  writeFileSync(join(root, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: [top] }));
}

/** A `docker save`-style directory in `root`: <hex>.json config, <n>/layer.tar, manifest.json. */
export function writeDockerArchive(root: string, opts: { layers: LayerSpec[]; config: ConfigFields; repoTags?: string[]; configOverride?: Buffer }): void {
  mkdirSync(root, { recursive: true });
  const built = opts.layers.map(layerBlob);
  const cfg = opts.configOverride ?? configBlob(built.map((b) => b.tar), opts.config);
  const cfgName = `${sha256(cfg).slice(7)}.json`;
  writeFileSync(join(root, cfgName), cfg);
  const layerNames = built.map((b, i) => {
    mkdirSync(join(root, `layer${i}`));
    writeFileSync(join(root, `layer${i}`, 'layer.tar'), b.blob);
    return `layer${i}/layer.tar`;
  });
  writeFileSync(join(root, 'manifest.json'), JSON.stringify([{ Config: cfgName, RepoTags: opts.repoTags ?? [], Layers: layerNames }]));
}

/** Pack directory `src` into the tar file `out` (the archive form of a layout or docker-archive). */
export function packDir(src: string, out: string): void {
  createTar({ file: out, cwd: src, sync: true }, ['.']);
}
