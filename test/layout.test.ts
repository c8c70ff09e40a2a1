// The shape of src/ (scripts/check-layout.mjs): no import cycle, rooms that import one way (down the house),
// no terminal code below the commands, no folder over 20 files, no SQL outside src/store. Checked on the real tree, and on small trees made to
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
    const findings = output.split('\n').filter((line) => line.includes('only the rooms above src/ui may'));
    assert.equal(findings.length, 1, output);
    assert.match(findings[0]!, /batch\/report\.ts imports .*ui\/cells\.ts/);
  });

  it('two rooms that import each other are found, with an import each way; one way passes', () => {
    const both = tree('pair', {
      'store/events.ts': "import type { Shown } from '../notifications/shown.js';\nexport type Row = { shown: Shown };\n",
      'notifications/shown.ts': 'export type Shown = string;\n',
      'notifications/log.ts': "import type { Row } from '../store/events.js';\nexport type Log = Row[];\n",
    });
    const found = check(both);
    assert.equal(found.status, 1, found.output);
    assert.doesNotMatch(found.output, /import cycle/, 'no module cycle: only the rooms go both ways');
    assert.match(
      found.output,
      /src\/notifications and src\/store import each other: \S*notifications\/log\.ts => \S*store\/events\.ts; \S*store\/events\.ts => \S*notifications\/shown\.ts/,
    );

    const oneWay = tree('one-way', {
      'store/events.ts': 'export type Row = { shown: string };\n',
      'notifications/log.ts': "import type { Row } from '../store/events.js';\nexport type Log = Row[];\n",
    });
    const passed = check(oneWay);
    assert.equal(passed.status, 0, passed.output);
    assert.match(passed.output, /rooms one way/);
  });

  it('a room that imports one above it is found, and a room the order does not name', () => {
    const src = tree('upward', {
      'transfers/claim.ts': 'export const claim = 1;\n',
      'store/journal.ts': "import { claim } from '../transfers/claim.js';\nexport const journal = claim;\n",
      'extras/thing.ts': 'export const thing = 1;\n',
    });
    const { status, output } = check(src);
    assert.equal(status, 1, output);
    assert.match(output, /src\/store imports src\/transfers, which is above it in the house: \S*store\/journal\.ts => \S*transfers\/claim\.ts/);
    assert.match(output, /src\/extras is not in the house's order/);
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
