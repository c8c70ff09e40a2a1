// What another user of the machine can plant, and input too big to hold: real processes, and a second OS
// user (fsapi-test-planter, made here when the tests run as root) doing the planting.
// - The code cache: a folder another user made first (the one fsapi picks, or Node's default compile cache,
//   the temp dir's node-compile-cache) is never read, so no code of theirs runs in fsapi.
// - A PDF's temporary file: a link planted where it would go is never followed.
// - A batch row of 200 MB is refused while it is read (exit 2, its line named), in bounded memory.
// - A payee's name of 10,000 characters still makes a one-page receipt.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { extractText, getDocumentProxy } from 'unpdf';
import { writeReceiptPdf } from '../src/documents/receipt-pdf.js';
import { clipText, MAX_DOCUMENT_TEXT } from '../src/documents/pdf.js';
import { MAX_ROW_BYTES } from '../src/batch/file.js';
import { MAX_REQUEST_BYTES } from '../src/simulator/app.js';
import { startSimulatorServer } from '../src/simulator/server.js';
import { cliPath, homePool, repoRoot } from './helpers/cli.js';
import { sendArgs, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { testUserIds } from './helpers/os-user.js';

const PLANTER = 'fsapi-test-planter';

const planterIds = () => testUserIds(PLANTER);
const planter = planterIds();
const noPlanter = typeof planter === 'string' ? planter : false;

/** Runs a shell script as the planter (arguments as $1...), which must succeed. */
function asPlanter(script: string, ...args: string[]): void {
  assert.ok(typeof planter !== 'string');
  const result = spawnSync('setpriv', [`--reuid=${planter.uid}`, `--regid=${planter.gid}`, '--clear-groups', 'sh', '-c', script, 'planter', ...args], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `as ${PLANTER}: ${script}\n${result.stderr}`);
}

/** The environment of the victim's fsapi: this process's, without FSAPI_* or a compile cache of its own. */
function victimEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('FSAPI_') && !key.startsWith('NODE_')) env[key] = value;
  return { ...env, ...extra };
}

/** Node >= 22.1 (the one with a compile cache): this one, or the Node 22 the tests of npm test install. */
function nodeWithCompileCache(): string | undefined {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major! > 22 || (major === 22 && minor! >= 1)) return process.execPath;
  const installed = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'fsapi-node', '22', 'node_modules', 'node', 'bin', 'node');
  return existsSync(installed) ? installed : undefined;
}
const node22 = nodeWithCompileCache();

/** Every file and link below a folder, with its owner, size and modification time. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stats = lstatSync(path.join(dir, name));
      return `${name} ${stats.uid} ${stats.size} ${stats.mtimeMs}`;
    });
}

async function pdfPages(file: string): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(readFileSync(file)));
  return (await extractText(pdf, { mergePages: false })).text as string[];
}

describe('what another user plants', { skip: noPlanter }, () => {
  const homes = homePool();
  const folders: string[] = [];
  after(() => {
    homes.cleanup();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  /** A folder every user may write in, as a shared folder (or a careless temp dir) is. */
  function sharedFolder(): string {
    const folder = mkdtempSync(path.join(tmpdir(), 'fsapi-shared-'));
    folders.push(folder);
    chmodSync(folder, 0o777);
    return folder;
  }

  it('a code cache folder another user made first is never read or written: fsapi runs without it', {
    skip: node22 ? false : 'no Node >= 22.1 here (none has a compile cache)',
  }, () => {
    // Both caches tell what they do on stderr: fsapi's and Node's own.
    const run = (env: Record<string, string>) => {
      const result = spawnSync(node22!, [cliPath, '--help'], {
        env: victimEnv({ ...homes.home().env, NODE_DEBUG: 'fsapi-code-cache', NODE_DEBUG_NATIVE: 'COMPILE_CACHE', ...env }),
        encoding: 'utf8',
        cwd: repoRoot,
      });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^Usage: fsapi /);
      return result.stderr;
    };
    // Genuine entries for this very dist/cli.cjs, which fsapi (and Node) would accept: what the planter copies in.
    const shared = sharedFolder();
    const genuine = path.join(shared, 'genuine');
    const made = mkdtempSync(path.join(tmpdir(), 'fsapi-genuine-cache-'));
    folders.push(made);
    run({ XDG_CACHE_HOME: made });
    cpSync(path.join(made, 'fsapi'), path.join(genuine, 'fsapi'), { recursive: true });
    run({ NODE_COMPILE_CACHE: path.join(genuine, 'node') });
    execFileSync('chmod', ['-R', 'a+rX', genuine]);
    assert.ok(readdirSync(path.join(genuine, 'fsapi', 'compile-cache')).length >= 1);
    assert.ok(readdirSync(path.join(genuine, 'node'), { recursive: true }).length >= 2);
    // The planter makes the folder fsapi would use, and Node's default (the temp dir's node-compile-cache).
    asPlanter(
      'mkdir -p "$1/fsapi/compile-cache" "$1/node-compile-cache" && cp -R "$1/genuine/fsapi/compile-cache/." "$1/fsapi/compile-cache/" && cp -R "$1/genuine/node/." "$1/node-compile-cache/" && chmod -R 777 "$1/fsapi" "$1/node-compile-cache"',
      shared,
    );
    const planted = snapshot(shared);
    const log = run({ XDG_CACHE_HOME: shared, TMPDIR: shared });
    assert.doesNotMatch(log, /\[(fsapi code cache|compile cache)\]/, 'no cache is used');
    assert.deepEqual(snapshot(shared), planted, 'nothing read into or written to the planted folders');

    // The planter made only the folder above (fsapi/): the cache folder fsapi makes in it is its own, but
    // the planter could swap it for another, so it is not used either.
    const above = sharedFolder();
    asPlanter('mkdir -m 777 "$1/fsapi"', above);
    assert.doesNotMatch(run({ XDG_CACHE_HOME: above, TMPDIR: above }), /\[(fsapi code cache|compile cache)\]/);

    // And the control: in a cache folder of the user's own, the cache at work, 0700.
    const own = mkdtempSync(path.join(tmpdir(), 'fsapi-own-cache-'));
    folders.push(own);
    assert.match(run({ XDG_CACHE_HOME: own }), /\[fsapi code cache\] cli\.cjs: written \(1 runs\)/);
    assert.equal(statSync(path.join(own, 'fsapi', 'compile-cache')).mode & 0o777, 0o700);
    assert.match(run({ XDG_CACHE_HOME: own }), /\[fsapi code cache\] cli\.cjs: used \(written by 1 runs\)/);
  });

  describe('a link planted where a PDF is written', () => {
    let setup: TransferSetup;
    before(async () => {
      setup = await setUpTransfers({ settleSeconds: 0 });
    });
    after(async () => {
      await setup?.close();
    });

    it('is never followed: the file it points at is unchanged, the receipt is written', async () => {
      const sent = await setup.run(sendArgs('2500', '--json', '--wait'));
      assert.equal(sent.code, 0, sent.stderr);
      const reference = (JSON.parse(sent.stdout) as { reference: string }).reference;
      // A file of the victim's own, and a folder the planter owns where the victim writes its receipt.
      const victimFile = path.join(sharedFolder(), 'victim-notes.txt');
      writeFileSync(victimFile, 'the victim’s own file\n', { mode: 0o600 });
      const folder = mkdtempSync(path.join(tmpdir(), 'fsapi-planter-folder-'));
      folders.push(folder);
      chownSync(folder, (planter as { uid: number }).uid, (planter as { gid: number }).gid);
      const target = path.join(folder, 'receipt.pdf');
      // The process that writes the receipt is started first, held, so its pid (the former temporary
      // name's only secret) is known: `exec` keeps the pid.
      const child = spawn('sh', ['-c', 'read go && exec "$@"', 'sh', process.execPath, cliPath, 'transfer', 'receipt', reference, '--pdf', target], {
        env: victimEnv(setup.env),
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // Links at the temporary name fsapi used to write (.receipt.pdf.<pid>.partial) and at the target.
      asPlanter('ln -s "$2" "$1/.receipt.pdf.$3.partial" && ln -s "$2" "$1/receipt.pdf"', folder, victimFile, String(child.pid));
      child.stdin.end('go\n');
      assert.equal(await exited, 0, stderr);
      assert.equal(readFileSync(victimFile, 'utf8'), 'the victim’s own file\n');
      // The link at the target was replaced by the receipt (a rename replaces a name; it follows nothing).
      assert.ok(lstatSync(target).isFile());
      assert.equal(lstatSync(target).mode & 0o777, 0o600);
      assert.equal((await pdfPages(target)).length, 1);
      // Nothing left behind but the planter's own link.
      assert.deepEqual(readdirSync(folder), [`.receipt.pdf.${child.pid}.partial`, 'receipt.pdf']);
    });
  });
});

describe('input too big to hold', () => {
  const homes = homePool();
  const folders: string[] = [];
  after(() => {
    homes.cleanup();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('a batch row with a 200 MB field: exit 2 naming its line while the file is read, in bounded memory', () => {
    const home = homes.home();
    const folder = mkdtempSync(path.join(tmpdir(), 'fsapi-huge-'));
    folders.push(folder);
    const file = path.join(folder, 'huge.csv');
    const fd = openSync(file, 'w');
    writeSync(fd, 'account_number,bank,amount,narration\n0123456789,000013,1500,March salary\n0123456781,000013,1500,"');
    const megabyte = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 200; i += 1) writeSync(fd, megabyte);
    writeSync(fd, '"\n0123456782,000013,1500,March salary\n');
    closeSync(fd);
    // At exit, the most memory the process held (resourceUsage's maxRSS, in KiB).
    const preload = path.join(folder, 'report-rss.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, 'maxRSS ' + process.resourceUsage().maxRSS + '\\n'));\n");
    const result = spawnSync(process.execPath, ['--require', preload, cliPath, 'transfer', 'batch', file, '--dry-run'], {
      env: victimEnv(home.env),
      encoding: 'utf8',
      cwd: repoRoot,
    });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`error: ${file.replaceAll('.', '\\.')} line 3: a row longer than ${MAX_ROW_BYTES / 1024} KiB; nothing was sent`));
    assert.doesNotMatch(result.stderr, /Cannot create a string|heap/i);
    const maxRssKiB = Number(/maxRSS (\d+)/.exec(result.stderr)?.[1]);
    // Holding the field once would take 200 MB at least; Node and fsapi alone take about 60 MB.
    assert.ok(maxRssKiB > 0 && maxRssKiB < 150 * 1024, `peak RSS ${maxRssKiB} KiB`);
  });

  it('a row within the limit but long in quoted lines counts as one row: past the limit it is refused the same way', () => {
    const home = homes.home();
    const folder = mkdtempSync(path.join(tmpdir(), 'fsapi-long-'));
    folders.push(folder);
    const file = path.join(folder, 'lines.csv');
    // Short physical lines, one quoted field over thousands of them.
    writeFileSync(file, `account_number,bank,amount,narration\n0123456789,000013,1500,"${'a line\n'.repeat(20_000)}"\n`);
    const result = spawnSync(process.execPath, [cliPath, 'transfer', 'batch', file, '--dry-run'], {
      env: victimEnv(home.env),
      encoding: 'utf8',
      cwd: repoRoot,
    });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /line \d+: a row longer than 64 KiB; nothing was sent/);
  });

  it(`a receipt whose names and narration are 10,000 characters stays one page, each cut to ${MAX_DOCUMENT_TEXT} with an ellipsis`, async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'fsapi-long-names-'));
    folders.push(folder);
    const long = (word: string) => `${word} `.repeat(10_000 / (word.length + 1));
    const payee = long('Adébáyọ̀');
    const file = path.join(folder, 'receipt.pdf');
    await writeReceiptPdf(file, {
      reference: 'ACME-LONGNAMES1',
      status: 'successful',
      sessionId: '9'.repeat(10_000),
      payer: { name: long('Payer'), accountNumber: '0123456789', bankName: long('Bank') },
      payee: { name: payee, accountNumber: '0123456781', bankName: long('Guaranty'), bankCode: '000013' },
      amountKobo: 1_234_567 as Kobo,
      chargeKobo: 5_375 as Kobo,
      narration: long('Narration'),
      timeMs: Date.UTC(2026, 0, 5, 9, 30),
      readAtMs: Date.UTC(2026, 0, 5, 9, 31),
      timeZone: 'Africa/Lagos',
      environment: 'production',
    });
    const pages = await pdfPages(file);
    assert.equal(pages.length, 1);
    const text = pages[0]!.normalize('NFC');
    assert.ok(text.includes('₦12,345.67'), text);
    assert.ok(text.includes('Reference'), text);
    assert.ok(text.includes('Adébáyọ̀ Adébáyọ̀'.normalize('NFC')), text);
    assert.ok(!text.includes(payee.trimEnd().normalize('NFC')), 'the whole name is not there');
    assert.ok(text.includes('…'));
  });

  it('the simulator refuses a request body past its limit, declared or streamed, and still answers after', async () => {
    const server = await startSimulatorServer({ port: 0 });
    try {
      const big = `{"mode":"${'x'.repeat(MAX_REQUEST_BYTES)}"}`;
      const declared = await fetch(`${server.url}/__simulator/fault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
      // Sent in chunks with no length given: counted as it comes.
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode('{"mode":"'));
          if ((sent += chunk.length) > 4 * MAX_REQUEST_BYTES) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const streamed = await fetch(`${server.url}/__simulator/fault`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      for (const response of [declared, streamed]) {
        assert.equal(response.status, 400);
        assert.match(((await response.json()) as { reason: string }).reason, new RegExp(`over ${MAX_REQUEST_BYTES} bytes`));
      }
      const small = await fetch(`${server.url}/__simulator/fault`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"mode":"none"}',
      });
      assert.equal(small.status, 200, await small.text());
    } finally {
      await server.close();
    }
  });

  it('cuts text by the characters a reader sees, accents kept with their letters', () => {
    assert.equal(clipText('Okafor Chiamaka'), 'Okafor Chiamaka');
    const name = 'Ọ̀'.repeat(MAX_DOCUMENT_TEXT); // two code points a letter: counted as one each
    assert.equal(clipText(name), name);
    const cut = clipText(`${name}x`);
    assert.equal([...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(cut)].length, MAX_DOCUMENT_TEXT);
    assert.ok(cut.endsWith('Ọ̀…'));
    assert.equal(clipText('word '.repeat(100), 10), 'word word…');
  });
});
