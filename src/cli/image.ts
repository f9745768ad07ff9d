// `bulkhead image`: the node's local image store (no registry is reachable from a node here).

import { join } from 'node:path';
import { Command, Option } from 'commander';
import { dump } from 'js-yaml';
import { ensureBusyboxImage } from '../agent/images/busybox.js';
import { familiarReference, InvalidReferenceError } from '../agent/images/reference.js';
import { UnsafeLayerError } from '../agent/images/layer.js';
import { ImageImportError, ImageNotFoundError, ImageStore, type ImageRecord } from '../agent/images/store.js';
import { formatTable } from '../plan/table.js';
import { UsageError } from './errors.js';

interface StoreFlags {
  dataDir: string;
}

function store(f: StoreFlags): ImageStore {
  return new ImageStore(join(f.dataDir, 'images'));
}

function humanSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 2 : 1)}${units[i]}`;
}

function imageRows(images: ImageRecord[]): string[][] {
  const rows = [['IMAGE', 'ID', 'SIZE', 'SOURCE']];
  for (const img of images) {
    const names = img.references.length ? img.references.map(familiarReference) : ['<none>'];
    for (const n of names) rows.push([n, img.id.replace(/^sha256:/, '').slice(0, 12), humanSize(img.size), img.source]);
  }
  return rows;
}

/** The store's refusals (bad archive, unknown image, bad reference) are the user's input: one line, exit 2. */
async function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ImageImportError || e instanceof ImageNotFoundError || e instanceof InvalidReferenceError || e instanceof UnsafeLayerError) throw new UsageError(e.message);
    if (e instanceof Error && e.message.startsWith('cannot build the busybox image:')) throw new UsageError(e.message);
    throw e;
  }
}

const dataDirOption = () => new Option('--data-dir <dir>', 'the data directory whose images/ holds the store').default('.bulkhead');

export function imageCommand(io: { stdout: (s: string) => void }): Command {
  const image = new Command('image').description('Manage the node\'s local image store (OCI layouts and docker-archive tarballs; no registry access).');

  image
    .command('import')
    .description('Import an OCI image layout (directory or .tar) or a docker-archive tarball (`docker save`).')
    .argument('<path>', 'the layout directory or archive')
    .option('--tag <ref...>', 'references to give the image (needed when the archive names none)')
    .option('--repository <name>', 'the repository for tags an OCI index gives without one')
    .option('--platform <os/arch>', 'which entry of a multi-platform index to take (default: this machine)')
    .addOption(dataDirOption())
    .addHelpText('after', '\nExamples:\n  bulkhead image import ./busybox-oci.tar --tag busybox:1.36\n  docker save nginx:1.27 -o nginx.tar && bulkhead image import nginx.tar')
    .action(async (path: string, f: StoreFlags & { tag?: string[]; repository?: string; platform?: string }) => {
      let platform: { os: string; architecture: string; variant?: string } | undefined;
      if (f.platform) {
        const [os, architecture, variant] = f.platform.split('/');
        if (!os || !architecture) throw new UsageError(`invalid value "${f.platform}" for --platform: expected OS/ARCH, e.g. linux/amd64`);
        platform = { os, architecture, ...(variant ? { variant } : {}) };
      }
      process.stderr.write(`bulkhead: importing ${path}…\n`);
      const imported = await run(() => store(f).import(path, { references: f.tag, repository: f.repository, platform }));
      for (const img of imported) io.stdout(`imported ${img.references.map(familiarReference).join(', ') || img.id} (${img.id.slice(0, 19)}, ${humanSize(img.size)})\n`);
    });

  image
    .command('ls')
    .description('List the images in the store.')
    .addOption(dataDirOption())
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'yaml']).default('table'))
    .action(async (f: StoreFlags & { output: string }) => {
      const images = await run(() => store(f).list());
      if (f.output === 'json') io.stdout(JSON.stringify(images, null, 2) + '\n');
      else if (f.output === 'yaml') io.stdout(dump(images, { noRefs: true, lineWidth: -1 }));
      else io.stdout(formatTable(imageRows(images)).join('\n') + '\n');
    });

  image
    .command('rm')
    .description('Remove references; the image goes when it has none left.')
    .argument('<ref...>', 'references or image IDs')
    .addOption(dataDirOption())
    .action(async (refs: string[], f: StoreFlags) => {
      const s = store(f);
      for (const ref of refs) {
        const r = await run(() => s.remove(ref));
        for (const u of r.untagged) io.stdout(`untagged: ${familiarReference(u)}\n`);
        if (r.deleted) io.stdout(`deleted: ${r.deleted}\n`);
      }
    });

  image
    .command('busybox')
    .description("Build the busybox image from this machine's static busybox (Debian package busybox-static).")
    .option('--busybox <path>', 'the busybox binary', '/bin/busybox')
    .addOption(dataDirOption())
    .action(async (f: StoreFlags & { busybox: string }) => {
      const img = await run(() => ensureBusyboxImage(store(f), { busybox: f.busybox }));
      io.stdout(`built ${img.references.map(familiarReference).join(', ')} (${img.id.slice(0, 19)})\n`);
    });

  return image;
}
