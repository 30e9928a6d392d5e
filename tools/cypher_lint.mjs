// Lint Cypher with Neo4j's own front end (@neo4j-cypher/language-support), offline.
//
// stdin:  [{name, query, parameters}]  or  {queries: [...], schema: {labels, relationshipTypes}}
// stdout: [{name, cypherVersion, diagnostics: [{severity, message, line, column}]}]
// usage:  node tools/cypher_lint.mjs [--cache FILE] < queries.json
//
// Neo4j's semantic analysis costs ~50-100 ms of CPU per query, so with --cache the result
// of each (query, parameters, schema, Cypher version) is kept in FILE, keyed by a hash that
// also covers this script and the package version: only changed queries are linted again.
//
// Every query is checked under each Cypher version a supported server speaks ("CYPHER 5" for
// Neo4j 5 LTS, "CYPHER 25" for 2025.x). Parameters are declared per query, so
// "Parameter $x is not defined" means the caller did not pass it. The function and
// procedure lists are the built-in ones of a real Neo4j server as shipped with the package
// (testData.mockSchema is a dump of SHOW FUNCTIONS / SHOW PROCEDURES); APOC, GDS and CDC
// are left out because a plain Neo4j install has none of them, so using one is an error.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = '@neo4j-cypher/language-support';
const CYPHER_VERSIONS = ['CYPHER 5', 'CYPHER 25'];
// Loaded on the first cache miss only: importing it costs most of a cached run.
let language;
let builtInSchema;

const PLUGINS = /^(apoc|gds|cdc)\./;

function builtIns(registry) {
  const kept = {};
  for (const [version, entries] of Object.entries(registry)) {
    kept[version] = Object.fromEntries(
      Object.entries(entries).filter(([name]) => !PLUGINS.test(name)),
    );
  }
  return kept;
}

const SEVERITY = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

async function lint(query, schema) {
  if (!language) {
    language = await import(PACKAGE);
    builtInSchema = {
      functions: builtIns(language.testData.mockSchema.functions),
      procedures: builtIns(language.testData.mockSchema.procedures),
    };
  }
  const { diagnostics } = language.lintCypherQuery(query, { ...builtInSchema, ...schema },
                                                   { consoleCommandsEnabled: false });
  return diagnostics.map((d) => ({
    severity: SEVERITY[d.severity] ?? String(d.severity),
    message: d.message,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
  }));
}

function linterVersion() {
  const require = createRequire(import.meta.url);
  const entry = require.resolve(PACKAGE);
  let dir = dirname(entry);
  while (dir !== dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
      if (pkg.name === PACKAGE) return pkg.version;
    } catch {
      // no package.json at this level: keep walking up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

function loadCache(path) {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

async function main() {
  const args = process.argv.slice(2);
  const cachePath = args[0] === '--cache' ? args[1] : undefined;
  const cache = loadCache(cachePath);
  const fresh = {};
  const salt = linterVersion() + readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const input = JSON.parse(readFileSync(0, 'utf8'));
  const queries = Array.isArray(input) ? input : input.queries;
  const extra = Array.isArray(input) ? {} : (input.schema ?? {});
  const results = [];
  for (const cypherVersion of CYPHER_VERSIONS) {
    for (const { name, query, parameters } of queries) {
      const key = createHash('sha256')
        .update(JSON.stringify([salt, extra, cypherVersion, query, parameters ?? {}]))
        .digest('hex');
      fresh[key] = cache[key] ?? await lint(query, { ...extra, parameters: parameters ?? {},
                                                      defaultLanguage: cypherVersion });
      results.push({ name, cypherVersion, diagnostics: fresh[key] });
    }
  }
  if (cachePath) {
    mkdirSync(dirname(cachePath), { recursive: true });
    writeFileSync(cachePath, JSON.stringify(fresh));
  }
  process.stdout.write(JSON.stringify(results) + '\n');
}

await main();
