// Counts conformance-suite results and compares them with an expected-pass file.
//
//   node count.mjs --results DIR --expected expected-pass-REV.txt [--label REV] [--only a,b] [--keep-note TEXT]
//
// DIR is the suite's -o folder: one sub-folder per scenario, named
// "<scenario>-<ISO timestamp with : and . replaced by ->" (auth/x lives in
// DIR/auth/x-<ts>), holding checks.json, stdout.txt and stderr.txt.
//
// A scenario PASSes when its checks have no FAILURE, no WARNING and at least
// one SUCCESS (so a scenario the client never exercised does not pass).
// Prints one line per scenario, failure details for expected scenarios, and
// finally "conformance[ LABEL]: N passed, M failed" counting expected scenarios only.
// Exit status: 1 iff an expected scenario did not pass.
import fs from 'node:fs';
import path from 'node:path';

function parseArgs(argv) {
  const o = { only: null, keepNote: '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--results') o.results = next();
    else if (a === '--expected') o.expected = next();
    else if (a === '--only') o.only = next().split(',').filter(Boolean);
    else if (a === '--keep-note') o.keepNote = next();
    else if (a === '--label') o.label = next();
    else usage(`unknown argument ${a}`);
  }
  if (!o.results || !o.expected) usage('--results and --expected are required');
  return o;
}

function usage(msg) {
  console.error(`count.mjs: ${msg}`);
  console.error('usage: node count.mjs --results DIR --expected FILE [--label REV] [--only a,b] [--keep-note TEXT]');
  process.exit(2);
}

const TS = /-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;

// Map scenario name -> {dir, ts}, keeping the newest folder per scenario.
function findScenarios(root, rel = '', out = new Map()) {
  for (const ent of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (!ent.isDirectory()) continue;
    const relPath = rel ? `${rel}/${ent.name}` : ent.name;
    const m = TS.exec(ent.name);
    if (m) {
      // An empty folder is a scenario the suite skipped as not applicable
      // at the run's revision (a named scenario of another set).
      if (fs.readdirSync(path.join(root, relPath)).length === 0) continue;
      const name = relPath.slice(0, -m[0].length);
      const prev = out.get(name);
      if (!prev || prev.ts < m[1]) out.set(name, { dir: path.join(root, relPath), ts: m[1] });
    } else {
      findScenarios(root, relPath, out);
    }
  }
  return out;
}

function readExpected(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function evaluate(name, found) {
  const r = { name, status: 'FAIL', reason: '', bad: [], counts: {}, exit: null, dir: found?.dir };
  if (!found) {
    r.reason = 'not run (no results folder)';
    return r;
  }
  const stderr = readText(path.join(found.dir, 'stderr.txt'));
  r.stderr = stderr;
  const m = stderr && /adapter: scenario .*: exit status (\d+)/.exec(stderr);
  if (m) r.exit = Number(m[1]);
  const raw = readText(path.join(found.dir, 'checks.json'));
  if (raw === null) {
    r.reason = 'no checks.json (the harness did not finish this scenario)';
    return r;
  }
  let checks;
  try {
    checks = JSON.parse(raw);
  } catch (e) {
    r.reason = `checks.json is not JSON: ${e.message}`;
    return r;
  }
  for (const c of checks) r.counts[c.status] = (r.counts[c.status] || 0) + 1;
  r.bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const s = r.counts.SUCCESS || 0;
  if (r.bad.length === 0 && s > 0) r.status = 'PASS';
  else if (r.bad.length === 0) r.reason = 'no SUCCESS check (the client exercised nothing)';
  return r;
}

function summary(r) {
  const c = r.counts;
  const parts = [];
  if (r.reason) parts.push(r.reason);
  else parts.push(`${c.SUCCESS || 0} success, ${c.FAILURE || 0} failure, ${c.WARNING || 0} warning`);
  if (r.exit !== null) parts.push(`client exit ${r.exit}`);
  return parts.join('; ');
}

function indent(text, prefix) {
  return text
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

function clip(s, n) {
  return s.length > n ? `${s.slice(0, n)}… (${s.length - n} more chars)` : s;
}

const opts = parseArgs(process.argv.slice(2));
const found = fs.existsSync(opts.results) ? findScenarios(opts.results) : new Map();
let expected = readExpected(opts.expected);
if (opts.only) expected = expected.filter((n) => opts.only.includes(n));
const expectedSet = new Set(expected);
const others = [...found.keys()].filter((n) => !expectedSet.has(n)).sort();

const results = expected.map((n) => evaluate(n, found.get(n)));
const info = others.map((n) => evaluate(n, found.get(n)));
const width = Math.max(10, ...[...results, ...info].map((r) => r.name.length));

for (const r of results)
  console.log(`${r.status} ${r.name.padEnd(width)}  expected       ${summary(r)}`);
for (const r of info)
  console.log(`${r.status} ${r.name.padEnd(width)}  informational  ${summary(r)}`);

const failed = results.filter((r) => r.status !== 'PASS');
for (const r of failed) {
  console.log(`\n--- ${r.name}: FAIL (${summary(r)})`);
  if (r.dir) console.log(`    results: ${r.dir}`);
  for (const c of r.bad) {
    console.log(`    [${c.status}] ${c.id}: ${c.errorMessage || c.description || c.name || ''}`);
    if (c.details !== undefined) console.log(`        details: ${clip(JSON.stringify(c.details), 600)}`);
  }
  if (r.stderr !== undefined && r.stderr !== null) {
    const lines = r.stderr.replace(/\s+$/, '').split('\n');
    const shown = lines.length > 80 ? [...lines.slice(0, 80), `… (${lines.length - 80} more lines)`] : lines;
    console.log('    client stderr.txt:');
    console.log(r.stderr.trim() ? indent(shown.join('\n'), '      | ') : '      (empty)');
  }
}

const passed = results.length - failed.length;
if (failed.length && opts.keepNote) console.log(`\n${opts.keepNote}`);
console.log(`conformance${opts.label ? ' ' + opts.label : ''}: ${passed} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
