// Checks the import rules of .dependency-cruiser.cjs (the layers of DESIGN.md) over src/.
//   node scripts/check-layers.mjs [ROOT]
// ROOT (default: this checkout) is the directory whose src/ is checked, always against this
// checkout's rules: test/layers runs it on small trees that break one rule each.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(process.argv[2] ?? repo);
const depcruise = join(repo, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const r = spawnSync(process.execPath, [depcruise, 'src', '--config', join(repo, '.dependency-cruiser.cjs'), '--output-type', 'err-long'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) console.error('check-layers: an import breaks the layers of docs/architecture.md (rules: .dependency-cruiser.cjs)');
process.exitCode = r.status ?? 1;
