/**
 * Core's two entry points:
 * - core/browser.ts (and core/browserSpreadsheets.ts, loaded on demand) is all the back office may
 *   import from core, and nothing it reaches at run time is a Node module or a server-only package;
 * - core/index.ts, the library's public API (`import … from 'remit'`), lists its names one by one,
 *   and they are exactly the names the README documents, so an internal cannot leak into it
 *   unnoticed.
 * The graph is read from the sources with the TypeScript parser: type-only imports and exports are
 * erased by the compiler and do not count.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const BROWSER_ENTRIES = ['core/browser.ts', 'core/browserSpreadsheets.ts'];
/** Packages that only run on the server (or in a terminal). */
const SERVER_ONLY = [
  'knex',
  'pg',
  'sqlite3',
  'bcryptjs',
  'jsonwebtoken',
  'koa',
  '@koa/router',
  'koa-body',
  'commander',
  '@inquirer/prompts',
  'inquirer',
  'iconv-lite',
];
const BUILTINS = new Set(builtinModules);

interface Edge {
  spec: string;
  /** resolved source file, or null for a package */
  file: string | null;
}

/** The run-time imports of one file: static, re-exports and dynamic, minus everything type-only. */
function runtimeImports(file: string): Edge[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.ES2022,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const specs: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const typeOnly =
        c !== undefined &&
        (c.isTypeOnly ||
          (!c.name &&
            c.namedBindings !== undefined &&
            ts.isNamedImports(c.namedBindings) &&
            c.namedBindings.elements.length > 0 &&
            c.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) specs.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return specs.map((spec) => ({ spec, file: spec.startsWith('.') ? resolveSource(dirname(file), spec) : null }));
}

function resolveSource(dir: string, spec: string): string {
  const base = resolve(dir, spec);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const c of [stem + '.ts', stem + '.tsx', base, join(base, 'index.ts')])
    if (existsSync(c) && statSync(c).isFile()) return c;
  throw new Error(`${relative(ROOT, dir)}: cannot resolve ${spec}`);
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every Node module or server-only package reachable at run time from the given files, with the path that reaches it. */
function serverReach(starts: string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const queue: { file: string; path: string[] }[] = starts.map((f) => ({ file: f, path: [relative(ROOT, f)] }));
  while (queue.length) {
    const { file, path } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const e of runtimeImports(file)) {
      if (e.file) {
        queue.push({ file: e.file, path: [...path, relative(ROOT, e.file)] });
        continue;
      }
      const name = packageName(e.spec);
      if (e.spec.startsWith('node:') || BUILTINS.has(name) || SERVER_ONLY.includes(name))
        found.push(`${[...path].join(' → ')} → ${e.spec}`);
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

const adminFiles = sourceFiles(join(ROOT, 'admin/src'));

describe('the browser entry', () => {
  it('reaches no Node module and no server-only package from core/browser.ts or any back-office file', () => {
    expect(serverReach([...BROWSER_ENTRIES.map((f) => join(ROOT, f)), ...adminFiles])).toEqual([]);
  });

  it('is the only way into core from the back office (no deep paths)', () => {
    const allowed = new Set(BROWSER_ENTRIES.map((f) => join(ROOT, f)));
    const deep: string[] = [];
    for (const file of adminFiles) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.[^']+)'/g)) {
        const target = resolveSource(dirname(file), m[1]);
        if (target.startsWith(join(ROOT, 'core') + '/') && !allowed.has(target))
          deep.push(`${relative(ROOT, file)}: ${m[1]}`);
      }
    }
    expect(deep).toEqual([]);
  });

  it('would see a Node module if one were reached (the walk is not blind)', () => {
    const reached = serverReach([join(ROOT, 'core/index.ts')]);
    expect(reached.some((r) => r.endsWith('→ knex') || r.includes('→ node:'))).toBe(true);
  });
});

/** The names core/index.ts exports, read from its explicit export lists. */
function publicNames(): { names: string[]; star: boolean } {
  const file = join(ROOT, 'core/index.ts');
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const names: string[] = [];
  let star = false;
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st)) {
      if (!st.exportClause) star = true;
      else if (ts.isNamedExports(st.exportClause)) for (const e of st.exportClause.elements) names.push(e.name.text);
      else star = true;
    } else if (ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      throw new Error('core/index.ts declares something itself; it only lists what the modules export');
    }
  }
  return { names: names.sort(), star };
}

/** The names docs/library.md lists (`name` in backticks, one list per kind). */
function documentedNames(): string[] {
  const readme = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
  const start = readme.indexOf('<!-- public-api -->');
  const end = readme.indexOf('<!-- /public-api -->');
  expect(start, 'docs/library.md has a <!-- public-api --> … <!-- /public-api --> section').toBeGreaterThan(-1);
  return [...readme.slice(start, end).matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]).sort();
}

describe('the public API', () => {
  it('lists its names one by one (no export *)', () => {
    expect(publicNames().star).toBe(false);
  });

  it('is exactly what the README documents: an internal added to core/index.ts fails here', () => {
    const { names } = publicNames();
    const documented = new Set(documentedNames());
    const exported = new Set(names);
    expect({
      undocumented: names.filter((n) => !documented.has(n)),
      missing: [...documented].filter((n) => !exported.has(n)),
    }).toEqual({ undocumented: [], missing: [] });
  });

  it('leaves out the internals that once leaked', () => {
    const { names } = publicNames();
    for (const internal of [
      'ImportWriter',
      'IMPORT_LOCK',
      'PaymentPage',
      'MatchPool',
      'PaymentRowReader',
      'csvLineWriter',
    ])
      expect(names).not.toContain(internal);
  });
});

describe("docs/library.md's example", () => {
  it('runs against the build and does what it says', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { execFileSync } = await import('node:child_process');
    const { pathToFileURL } = await import('node:url');
    const readme = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
    const at = readme.indexOf('// report.mjs');
    const code = readme.slice(at, readme.indexOf('```', at));
    const lib = pathToFileURL(join(ROOT, 'dist/core/index.js')).href;
    const dir = mkdtempSync(join(tmpdir(), 'remit-lib-'));
    const env = {
      ...process.env,
      REMIT_DB: join(dir, 'remit.sqlite'),
      DATABASE_URL: '',
      REMIT_ADMIN_PASSWORD: 'Lib-example-2026!',
    };
    // an installation as `remit serve` leaves it: migrated, with 總店 (HQ)
    writeFileSync(
      join(dir, 'setup.mjs'),
      `import { loadConfig, openDatabase, migrateLatest, ensureFirstRun, securitySettings } from '${lib}';
const config = loadConfig(process.env); const db = openDatabase(config.db); await migrateLatest(db);
await ensureFirstRun({ db, security: securitySettings(config) }, { adminPassword: process.env.REMIT_ADMIN_PASSWORD }); await db.destroy();`,
    );
    execFileSync(process.execPath, [join(dir, 'setup.mjs')], { env });
    writeFileSync(join(dir, 'report.mjs'), code.replace("from 'remit'", `from '${lib}'`));
    const out = execFileSync(process.execPath, [join(dir, 'report.mjs')], { env, encoding: 'utf8' });
    expect(out.trim()).toBe("1 [ '12345 NT$1500' ]");
  });
});
