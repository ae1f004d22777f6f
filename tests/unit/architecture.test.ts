/**
 * The shape docs/architecture.md describes, held by the code itself: layers import downward, nothing
 * imports in a circle, server modules hold no state of their own (src/server/portal.ts owns it all),
 * and migrations stay frozen history. Read from the sources with TypeScript's own parser.
 */
import { existsSync, globSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const SOURCES = globSync('src/**/*.{ts,tsx,astro}', { cwd: ROOT }).filter(
  (file) => !file.startsWith('src/paraglide/'),
);

/** The script parts of a file: an .astro file's frontmatter and <script> elements. */
function scriptOf(file: string): string {
  const text = read(file);
  if (!file.endsWith('.astro')) return text;
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => match[1],
  );
  return [frontmatter, ...scripts].join('\n');
}

/** The project files a file imports (static, dynamic and type-only); packages left out. */
function importsOf(file: string, text = scriptOf(file)): string[] {
  const found: string[] = [];
  for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
    let target: string;
    if (specifier.startsWith('~/')) target = `src/${specifier.slice(2)}`;
    else if (specifier.startsWith('.')) target = path.join(path.dirname(file), specifier);
    else continue;
    const stem = target.replace(/\.js$/, '');
    const resolved = [target, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`].find((candidate) => {
      const full = path.join(ROOT, candidate);
      return existsSync(full) && statSync(full).isFile();
    });
    if (!resolved) throw new Error(`${file} imports ${specifier}, which is no file here`);
    found.push(resolved);
  }
  return found;
}

const GRAPH = new Map(SOURCES.map((file) => [file, importsOf(file)]));

const under =
  (...folders: string[]) =>
  (file: string) =>
    folders.some((folder) => file === folder || file.startsWith(`${folder}/`));
const PARAGLIDE = under('src/paraglide');
const SHARED = under('src/shared');
const BROWSER = under('src/islands', 'src/stores', 'src/worker');
const SERVER = under('src/server');

/** Every import from a file matching `from` to a file matching `to`, as "a → b". */
function importsBetween(from: (file: string) => boolean, to: (file: string) => boolean): string[] {
  return [...GRAPH].flatMap(([file, targets]) =>
    from(file) ? targets.filter(to).map((target) => `${file} → ${target}`) : [],
  );
}

describe('layers', () => {
  it('when the graph is read, then it holds the project (a guard against a parser that finds nothing)', () => {
    expect(GRAPH.size).toBeGreaterThan(150);
    expect(GRAPH.get('src/server/portal.ts')).toContain('src/server/services/sync/index.ts');
  });

  it('when shared code imports, then only shared code and the message catalogue (it is the bottom layer)', () => {
    expect(importsBetween(SHARED, (file) => !SHARED(file) && !PARAGLIDE(file))).toEqual([]);
  });

  it('when browser code imports, then never server code', () => {
    expect(importsBetween(BROWSER, SERVER)).toEqual([]);
  });

  it('when the database layer imports, then only itself, the configuration and shared code', () => {
    const allowed = under('src/server/db', 'src/server/config.ts', 'src/shared');
    expect(
      importsBetween(under('src/server/db'), (file) => !allowed(file) && !PARAGLIDE(file)),
    ).toEqual([]);
  });

  it('when services import, then never HTTP code, pages, components or the composition root', () => {
    const above = under(
      'src/server/http',
      'src/pages',
      'src/components',
      'src/layouts',
      'src/middleware.ts',
      'src/server/portal.ts',
      'src/server/entry.ts',
    );
    expect(importsBetween(under('src/server/services'), above)).toEqual([]);
  });

  it('when the provider client imports, then never services or HTTP code (services call it, not the reverse)', () => {
    expect(
      importsBetween(
        under('src/server/provider'),
        under('src/server/services', 'src/server/http', 'src/server/portal.ts'),
      ),
    ).toEqual([]);
  });

  it('when components and layouts import, then never services, the database or the provider (pages hand them what they show)', () => {
    expect(
      importsBetween(
        under('src/components', 'src/layouts'),
        under('src/server/services', 'src/server/db', 'src/server/provider'),
      ),
    ).toEqual([]);
  });

  it('when anything imports the composition root, then only the server entry (the rest receives its parts)', () => {
    expect(importsBetween(() => true, under('src/server/portal.ts')).sort()).toEqual([
      'src/env.d.ts → src/server/portal.ts',
      'src/server/entry.ts → src/server/portal.ts',
    ]);
  });
});

describe('cycles', () => {
  it('when the imports are followed, then no file comes back to itself', () => {
    // Tarjan's strongly connected components: every component of more than one file is a cycle.
    const index = new Map<string, number>();
    const lowLink = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (file: string) => {
      index.set(file, index.size);
      lowLink.set(file, index.get(file)!);
      stack.push(file);
      onStack.add(file);
      for (const target of GRAPH.get(file) ?? []) {
        if (!index.has(target)) {
          visit(target);
          lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
        } else if (onStack.has(target)) {
          lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
        }
      }
      if (lowLink.get(file) !== index.get(file)) return;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || GRAPH.get(file)?.includes(file)) cycles.push(component.sort());
    };
    for (const file of GRAPH.keys()) if (!index.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});

/** Every project file `file` reaches through its imports, itself left out. */
function reachableFrom(file: string): Set<string> {
  const reached = new Set<string>();
  const pending = [...(GRAPH.get(file) ?? [])];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next === file || reached.has(next)) continue;
    reached.add(next);
    pending.push(...(GRAPH.get(next) ?? []));
  }
  return reached;
}

const SERVICES = 'src/server/services';

/**
 * The seams between the services' domains, one rule a row: the modules of `from` reach none of
 * `never`, directly or through any other module. The domains' folders add their rows here.
 */
const SEAMS: Array<{ rule: string; from: string[]; never: string[] }> = [
  {
    rule: 'the sync announces its pages and reaches none of the modules that react to them (docs/architecture.md)',
    // Status history is the receipts domain's, which the sync writes into: its reaction is registered
    // by the composition root like the others (tests/in-process/database/sync-reactions.test.ts).
    from: [`${SERVICES}/sync/sync.ts`, `${SERVICES}/sync-reactions.ts`],
    never: [`${SERVICES}/prealerts`, `${SERVICES}/notifications`, `${SERVICES}/webhooks`],
  },
];

describe('seams', () => {
  it.each(SEAMS)('when $rule, then no import crosses the seam', ({ from, never }) => {
    const forbidden = under(...never);
    for (const file of from) expect(GRAPH.has(file), `${file} is no file here`).toBe(true);
    expect(
      from.flatMap((file) =>
        [...reachableFrom(file)].filter(forbidden).map((target) => `${file} ⇢ ${target}`),
      ),
    ).toEqual([]);
  });

  it('when a module reaches a forbidden one through another, then the check names it (the check itself works)', () => {
    expect(
      [...reachableFrom('src/server/portal.ts')].filter(
        under(`${SERVICES}/webhooks/webhook-delivery.ts`),
      ),
    ).toEqual([`${SERVICES}/webhooks/webhook-delivery.ts`]);
  });
});

/** The domain a services file belongs to (its folder under src/server/services), or null for a file at the top. */
function domainOf(file: string): string | null {
  const match = new RegExp(`^${SERVICES}/([^/]+)/`).exec(file);
  return match ? match[1]! : null;
}

/** Imports between domains, as "from → to", each pair once. */
function domainEdges(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [file, targets] of GRAPH) {
    const from = domainOf(file);
    if (from === null) continue;
    for (const target of targets) {
      const to = domainOf(target);
      if (to === null || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return edges;
}

describe('domains', () => {
  const DOMAINS = [...new Set(SOURCES.map(domainOf).filter((domain) => domain !== null))].sort();

  it('when the services are listed, then they sit in domain folders, each with its public index.ts, and few stay at the top', () => {
    expect(DOMAINS.length).toBeGreaterThanOrEqual(8);
    expect(DOMAINS.filter((domain) => !GRAPH.has(`${SERVICES}/${domain}/index.ts`))).toEqual([]);
    expect(SOURCES.filter((file) => path.dirname(file) === SERVICES).length).toBeLessThanOrEqual(6);
  });

  it("when code outside a domain imports from it, then only through the domain's index.ts", () => {
    const crossings = [...GRAPH].flatMap(([file, targets]) =>
      targets
        .filter(
          (target) =>
            domainOf(target) !== null &&
            domainOf(target) !== domainOf(file) &&
            path.basename(target) !== 'index.ts',
        )
        .map((target) => `${file} → ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it('when the domains import each other, then in one direction only: no domain comes back to itself', () => {
    const edges = domainEdges();
    const circles: string[] = [];
    const walk = (domain: string, trail: string[]) => {
      for (const next of edges.get(domain) ?? []) {
        if (next === trail[0]) circles.push([...trail, next].join(' → '));
        else if (!trail.includes(next)) walk(next, [...trail, next]);
      }
    };
    for (const domain of edges.keys()) walk(domain, [domain]);
    expect(circles).toEqual([]);
  });
});

/** Constructors whose instances cannot change after construction. */
const IMMUTABLE_INSTANCES = new Set([
  'RegExp',
  'URL',
  'TextEncoder',
  'TextDecoder',
  'Intl.NumberFormat',
  'Intl.DateTimeFormat',
  'Intl.Collator',
  'Intl.PluralRules',
]);

/** What a module does at its top level that makes it hold state: a reassignable binding, a mutable instance, a statement run on import. */
function moduleStateOf(file: string, text = read(file)): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const findings: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExpressionStatement(statement))
      findings.push(`runs on import: ${statement.getText().slice(0, 60)}`);
    if (!ts.isVariableStatement(statement)) continue;
    const { declarationList } = statement;
    const isConst = (declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of declarationList.declarations) {
      const name = declaration.name.getText();
      if (!isConst) findings.push(`reassignable ${name}`);
      const readonlyType = declaration.type?.getText().startsWith('Readonly') ?? false;
      const findInstances = (node: ts.Node) => {
        if (ts.isFunctionLike(node)) return;
        if (
          ts.isNewExpression(node) &&
          !IMMUTABLE_INSTANCES.has(node.expression.getText()) &&
          !readonlyType
        ) {
          findings.push(`${name} holds a new ${node.expression.getText()}`);
        }
        ts.forEachChild(node, findInstances);
      };
      if (declaration.initializer) findInstances(declaration.initializer);
    }
  }
  return findings.map((finding) => `${file}: ${finding}`);
}

describe('state', () => {
  const serverModules = SOURCES.filter(
    (file) =>
      /\.tsx?$/.test(file) &&
      (SERVER(file) ||
        SHARED(file) ||
        file === 'src/middleware.ts' ||
        file.startsWith('src/pages/')),
  );

  it('when a server or shared module is loaded, then it holds no state of its own (the composition root owns it)', () => {
    expect(serverModules.length).toBeGreaterThan(100);
    expect(serverModules.flatMap((file) => moduleStateOf(file))).toEqual([]);
  });

  it('when a module holds state in any of these ways, then the check names each (the check itself works)', () => {
    const planted = [
      'let count = 0;',
      'const seen = new Map<string, number>();',
      'const cache = { entries: new Set<string>() };',
      'const SAFE: ReadonlySet<string> = new Set(["GET"]);',
      'const PATTERN = new RegExp("a+");',
      'const make = () => new Map();',
      'setInterval(() => {}, 1000);',
    ].join('\n');
    expect(moduleStateOf('src/server/example.ts', planted)).toEqual([
      'src/server/example.ts: reassignable count',
      'src/server/example.ts: seen holds a new Map',
      'src/server/example.ts: cache holds a new Set',
      'src/server/example.ts: runs on import: setInterval(() => {}, 1000);',
    ]);
  });
});

/** `./0005-…` from `0016-…`: a migration may reuse the frozen code of one before it. */
function isEarlierMigration(file: string, specifier: string): boolean {
  const imported = /^\.\/(\d{4})-[a-z0-9-]+$/.exec(specifier)?.[1];
  return imported !== undefined && imported < path.basename(file).slice(0, 4);
}

describe('migrations', () => {
  it('when a migration imports, then nothing of the application, only earlier migrations (they are frozen history)', () => {
    const migrations = globSync('db/migrations/*.ts', { cwd: ROOT });
    expect(migrations.length).toBeGreaterThan(10);
    const imported = migrations.flatMap((file) =>
      ts
        .preProcessFile(read(file), true, true)
        .importedFiles.map(({ fileName }) => fileName)
        .filter(
          (specifier) =>
            !isEarlierMigration(file, specifier) &&
            (specifier.startsWith('.') || specifier.startsWith('~/')),
        )
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(imported).toEqual([]);
  });
});

describe('the audit trail', () => {
  it('lists every action it records in docs/architecture.md, so that a gap shows', () => {
    const declared = /export const AUDIT_ACTIONS = \[([^\]]*)\]/.exec(
      read('src/shared/audit.ts'),
    )![1]!;
    const actions = [...declared.matchAll(/'([a-z.-]+)'/g)].map((match) => match[1]!);
    expect(actions.length).toBeGreaterThan(40);
    const documented = read('docs/architecture.md');
    expect(actions.filter((action) => !documented.includes(`\`${action}\``))).toEqual([]);
  });
});

describe('line length', () => {
  it('when the sources are read, then lines over 120 characters are rare: 40 at most', () => {
    // Generated and not committed: the OpenAPI paths' types (npm run api-types).
    const written = [...SOURCES, ...globSync('src/**/*.css', { cwd: ROOT })].filter(
      (file) => file !== 'src/shared/api-paths.ts',
    );
    const long = written.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) => (line.length > 120 ? [`${file}:${index + 1}`] : [])),
    );
    expect(written.length).toBeGreaterThan(400);
    expect(long.length, long.join('\n')).toBeLessThanOrEqual(40);
  });
});
