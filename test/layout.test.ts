// The shape of src/ (scripts/check-layout.mjs): no import cycle, no terminal code below the commands, no
// folder over 20 files, no SQL outside src/store. Checked on the real tree, and on small trees made to
// break each rule, so the check is known to fail when it should.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const checker = path.resolve('scripts/check-layout.mjs');

function check(srcDir: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [checker, srcDir], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'fsapi-layout-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const src = path.join(scratch, name, 'src');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    writeFileSync(path.join(src, file), text);
  }
  return src;
}

describe('the layout of src/', () => {
  it('has no import cycle, no ui below the commands, no folder over 20 files', () => {
    const { status, output } = check('src');
    assert.equal(status, 0, output);
  });

  it('a cycle made of type-only imports is found, with the loop named', () => {
    const src = tree('cycle', {
      'transfers/claim.ts': "import type { Policy } from '../controls/policy.js';\nexport type Claim = Policy;\n",
      'controls/policy.ts': "import { type Claim } from '../transfers/claim.js';\nexport type Policy = { claim?: Claim };\n",
      'money/kobo.ts': 'export type Kobo = number;\n',
    });
    const { status, output } = check(src);
    assert.equal(status, 1, output);
    assert.match(output, /import cycle among 2 modules: .*controls\/policy\.ts -> .*transfers\/claim\.ts -> .*controls\/policy\.ts/);
    assert.doesNotMatch(output, /kobo/);
  });

  it('a dynamic import and a `typeof import()` count too', () => {
    const src = tree('dynamic', {
      'a.ts': "export const b = () => import('./b.js');\n",
      'b.ts': "export type A = typeof import('./a.js');\n",
    });
    const { status, output } = check(src);
    assert.equal(status, 1, output);
    assert.match(output, /import cycle/);
  });

  it('domain code importing src/ui is found; commands, ui itself and the CLI shell may', () => {
    const src = tree('ui', {
      'ui/cells.ts': 'export const clean = (text: string) => text;\n',
      'ui/table.ts': "import { clean } from './cells.js';\nexport const cell = clean;\n",
      'commands/send.ts': "import { clean } from '../ui/cells.js';\nexport const run = clean;\n",
      'main.ts': "import { clean } from './ui/cells.js';\nexport const main = clean;\n",
      'batch/report.ts':
        "// import { clean } from '../ui/cells.js' in a comment is not an import\nimport { clean } from '../ui/cells.js';\nexport const report = clean;\n",
    });
    const { status, output } = check(src);
    assert.equal(status, 1, output);
    const findings = output.split('\n').filter((line) => line.includes(' imports '));
    assert.equal(findings.length, 1, output);
    assert.match(findings[0]!, /batch\/report\.ts imports .*ui\/cells\.ts/);
  });

  it('a folder of 21 files is found; 20 pass', () => {
    const files: Record<string, string> = {};
    for (let n = 1; n <= 20; n += 1) files[`books/m${n}.ts`] = `export const m${n} = ${n};\n`;
    for (let n = 1; n <= 21; n += 1) files[`core/m${n}.ts`] = `export const m${n} = ${n};\n`;
    const { status, output } = check(tree('size', files));
    assert.equal(status, 1, output);
    assert.match(output, /core holds 21 modules/);
    assert.doesNotMatch(output, /books holds/);
  });

  it('SQL outside src/store and src/simulator is found, one statement or several lines; comments and prose pass', () => {
    const src = tree('sql', {
      'store/journal.ts': "export const q = (db: { sql(t: string): unknown }) => db.sql('SELECT doc FROM transfers WHERE profile = ?');\n",
      'simulator/store.ts': 'export const schema = `CREATE TABLE IF NOT EXISTS accounts (id TEXT)`;\n',
      'transfers/journal.ts': "export const q = (db: { sql(t: string): unknown }) => db.sql('SELECT doc FROM transfers WHERE profile = ?');\n",
      'transfers/many-lines.ts':
        'export const q = (db: { sql(t: string): unknown }) =>\n  db.sql(\n    `UPDATE transfers SET state = ? WHERE first_seq = ?`,\n  );\n',
      'completion/local-state.ts': "import { openDatabase } from '../store/sqlite.js';\nexport const open = openDatabase;\n",
      'store/sqlite.ts': 'export const openDatabase = (file: string) => file;\n',
      'books/driver.ts': "import { DatabaseSync } from 'node:sqlite';\nexport const D = DatabaseSync;\n",
      'notifications/event-log.ts': "export const q = 'INSERT INTO events (kind) VALUES (?)';\n",
      'books/prose.ts':
        "// SELECT doc FROM transfers: a comment may name a query\nexport const note = 'Select a bank; update the payee, then delete from the list';\n",
    });
    const { status, output } = check(src);
    assert.equal(status, 1, output);
    const findings = output.split('\n').filter((line) => /SQL|talks to SQLite/.test(line));
    assert.deepEqual(
      findings.map((line) => line.replace(/\S*?sql\/src\//g, '')).sort(),
      [
        'books/driver.ts imports node:sqlite: only src/store talks to SQLite',
        'completion/local-state.ts imports store/sqlite.ts: only src/store talks to SQLite',
        'notifications/event-log.ts:1 holds SQL: queries belong in src/store',
        'transfers/journal.ts:1 holds SQL: queries belong in src/store',
        'transfers/many-lines.ts:3 holds SQL: queries belong in src/store',
      ].sort(),
    );
  });
});
