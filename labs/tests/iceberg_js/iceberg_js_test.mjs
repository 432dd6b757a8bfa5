// iceberg-js (a TypeScript client of the Iceberg REST catalog that nobody at commitlab wrote)
// against `commitlab catalog serve`: every call of its public API, with the answer the
// specification gives, including a create with a schema, an append commit, and a concurrent
// commit that gets 409.
//
//   node iceberg_js_test.mjs COMMITLAB FIXTURE_DIR
//
// The server is started here and stopped by its pid; it listens on a free loopback port. Prints
// one line per call and "N passed, N failed"; exits 1 when any failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import assert from 'node:assert/strict';
import { IcebergRestCatalog, IcebergError } from 'iceberg-js';

const [commitlab, fixtures] = process.argv.slice(2);
if (!commitlab || !fixtures) {
  console.error('usage: node iceberg_js_test.mjs COMMITLAB FIXTURE_DIR');
  process.exit(2);
}

// The server, and the port its first line names.
function startServer(warehouse) {
  const server = spawn(commitlab, ['catalog', 'serve', '--port', '0', '--warehouse', warehouse], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stdout });
    lines.once('line', (line) => {
      const m = line.match(/127\.0\.0\.1:(\d+)/);
      if (m) resolve({ server, port: Number(m[1]) });
      else reject(new Error(`catalog serve said: ${line}`));
    });
    server.once('exit', (code) => reject(new Error(`catalog serve exited ${code} before listening`)));
  });
}

let passed = 0;
let failed = 0;
async function call(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}: ${e && e.stack ? e.stack : e}`);
  }
}

async function rejectsWith(promise, status, type) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof IcebergError, `not an IcebergError: ${e}`);
    assert.equal(e.status, status, `status ${e.status}: ${e.message}`);
    if (type) assert.equal(e.icebergType, type);
    return e;
  }
  assert.fail(`expected ${status}, got success`);
}

const schema = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', type: 'long', required: true },
    { id: 2, name: 'name', type: 'string', required: false },
  ],
};

function appendSnapshot(id, parent, sequence) {
  const snapshot = {
    'snapshot-id': id,
    'sequence-number': sequence,
    'timestamp-ms': Date.now(),
    'manifest-list': `/tmp/iceberg-js/snap-${id}.avro`,
    summary: { operation: 'append', 'added-data-files': '1' },
    'schema-id': 0,
  };
  if (parent !== null) snapshot['parent-snapshot-id'] = parent;
  return {
    requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': parent }],
    updates: [
      { action: 'add-snapshot', snapshot },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': id },
    ],
  };
}

// The namespace calls (and loadConfig).
async function namespaceCalls(catalog, ns) {
  await call('loadConfig', async () => {
    const config = await catalog.loadConfig();
    assert.deepEqual(config.defaults, {});
    assert.ok(config.endpoints.includes('POST /v1/{prefix}/namespaces/{namespace}/tables/{table}'));
  });
  await call('createNamespace', async () => {
    const r = await catalog.createNamespace(ns, { properties: { owner: 'lab' } });
    assert.deepEqual(r.namespace, ['analytics']);
    await rejectsWith(catalog.createNamespace(ns), 409, 'AlreadyExistsException');
  });
  await call('createNamespaceIfNotExists', async () => {
    await catalog.createNamespaceIfNotExists(ns);  // there: no error
    await catalog.createNamespaceIfNotExists({ namespace: ['analytics', 'daily'] });
  });
  await call('listNamespaces', async () => {
    const r = await catalog.listNamespaces();
    assert.deepEqual(r.namespaces, [{ namespace: ['analytics'] }]);
    const children = await catalog.listNamespaces({ parent: ns });
    assert.deepEqual(children.namespaces, [{ namespace: ['analytics', 'daily'] }]);
  });
  await call('namespaceExists', async () => {
    assert.equal(await catalog.namespaceExists(ns), true);
    assert.equal(await catalog.namespaceExists({ namespace: ['nope'] }), false);
  });
  await call('loadNamespaceMetadata', async () => {
    assert.deepEqual((await catalog.loadNamespaceMetadata(ns)).properties, { owner: 'lab' });
    await rejectsWith(catalog.loadNamespaceMetadata({ namespace: ['nope'] }), 404, 'NoSuchNamespaceException');
  });
  await call('updateNamespaceProperties', async () => {
    const r = await catalog.updateNamespaceProperties(ns, { removals: ['gone'], updates: { team: 'x' } });
    assert.deepEqual(r, { updated: ['team'], removed: [], missing: ['gone'] });
  });
}

// The table calls, with the commits; `other` is a second client, for the concurrent commit.
async function tableCalls(catalog, other, ns, table) {
  let uuid;
  await call('createTable', async () => {
    const m = await catalog.createTable(ns, {
      name: 'events',
      schema,
      'partition-spec': { 'spec-id': 0, fields: [] },
      'write-order': { 'order-id': 0, fields: [] },
      properties: { 'write.format.default': 'parquet' },
    });
    uuid = m['table-uuid'];
    assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(m['format-version'], 2);
    assert.deepEqual(m.schemas[0].fields.map((f) => f.name), ['id', 'name']);
    assert.equal(m['last-column-id'], 2);
    assert.equal(m.properties['write.format.default'], 'parquet');
    await rejectsWith(catalog.createTable(ns, { name: 'events', schema }), 409, 'AlreadyExistsException');
  });
  await call('createTableResult', async () => {
    const r = await catalog.createTableResult(ns, { name: 'scratch', schema });
    assert.ok(r['metadata-location'].endsWith('.metadata.json'));
    assert.equal(r.metadata['current-snapshot-id'], -1);
  });
  await call('createTableIfNotExists', async () => {
    const m = await catalog.createTableIfNotExists(ns, { name: 'events', schema });
    assert.equal(m['table-uuid'], uuid);  // the existing table, loaded
  });
  await call('listTables', async () => {
    const r = await catalog.listTables(ns);
    assert.deepEqual(r.identifiers.map((t) => t.name), ['events', 'scratch']);
  });
  await call('tableExists', async () => {
    assert.equal(await catalog.tableExists(table), true);
    assert.equal(await catalog.tableExists({ namespace: ['analytics'], name: 'nope' }), false);
  });
  await call('loadTable', async () => {
    const m = await catalog.loadTable(table);
    assert.equal(m['table-uuid'], uuid);
    await rejectsWith(catalog.loadTable({ namespace: ['analytics'], name: 'nope' }), 404, 'NoSuchTableException');
  });
  await call('loadTableResult', async () => {
    const r = await catalog.loadTableResult(table);
    assert.equal(r.metadata['table-uuid'], uuid);
    assert.ok(r['metadata-location'].includes('/metadata/00000-'));
  });
  await call('updateTable (an append, then a concurrent one that gets 409)', async () => {
    const r = await catalog.updateTable(table, appendSnapshot(1001, null, 1));
    assert.equal(r.metadata['current-snapshot-id'], 1001);
    assert.equal(r.metadata.snapshots[0].summary.operation, 'append');
    assert.ok(r['metadata-location'].includes('/metadata/00001-'));
    // Another client that read the table before the append, committing on the same base.
    const e = await rejectsWith(other.updateTable(table, appendSnapshot(2002, null, 1)), 409, 'CommitFailedException');
    assert.match(e.message, /branch main was created concurrently/);
  });
  await call('commitTable', async () => {
    const r = await catalog.commitTable(table, appendSnapshot(1002, 1001, 2));
    assert.equal(r.metadata['current-snapshot-id'], 1002);
    assert.equal(r.metadata['last-sequence-number'], 2);
    assert.equal(r.metadata['snapshot-log'].length, 2);
    await rejectsWith(catalog.commitTable(table, appendSnapshot(1003, 1001, 3)), 409, 'CommitFailedException');
  });
  await call('renameTable', async () => {
    await catalog.renameTable({ source: table, destination: { namespace: ['analytics'], name: 'events2' } });
    assert.equal(await catalog.tableExists(table), false);
    assert.equal((await catalog.loadTable({ namespace: ['analytics'], name: 'events2' }))['current-snapshot-id'], 1002);
  });
  await call('registerTable', async () => {
    const m = await catalog.registerTable(ns, {
      name: 'upstream',
      'metadata-location': join(fixtures, 'TableMetadataV2Valid.json'),
    });
    assert.equal(m['table-uuid'], '9c12d441-03fe-4693-9a96-a0705ddf69c1');
    await rejectsWith(
      catalog.registerTable(ns, { name: 'upstream', 'metadata-location': join(fixtures, 'TableMetadataV2Valid.json') }),
      409, 'AlreadyExistsException');
  });
  await call('registerTableResult', async () => {
    const r = await catalog.registerTableResult(ns, {
      name: 'minimal',
      'metadata-location': join(fixtures, 'TableMetadataV2ValidMinimal.json'),
    });
    assert.equal(r['metadata-location'], join(fixtures, 'TableMetadataV2ValidMinimal.json'));
    await rejectsWith(
      catalog.registerTableResult(ns, { name: 'bad', 'metadata-location': join(fixtures, 'TableMetadataV2MissingSchemas.json') }),
      400, 'BadRequestException');
  });
}

// The drops, last.
async function dropCalls(catalog, ns, table) {
  await call('dropTable', async () => {
    for (const name of ['events2', 'scratch', 'upstream', 'minimal']) await catalog.dropTable({ namespace: ['analytics'], name });
    await rejectsWith(catalog.dropTable(table), 404, 'NoSuchTableException');
  });
  await call('dropNamespace', async () => {
    await catalog.dropNamespace({ namespace: ['analytics', 'daily'] });
    await catalog.dropNamespace(ns);
    assert.equal(await catalog.namespaceExists(ns), false);
    await rejectsWith(catalog.dropNamespace(ns), 404, 'NoSuchNamespaceException');
  });
}

async function main() {
  const warehouse = mkdtempSync(join(tmpdir(), 'commitlab-iceberg-js-'));
  const { server, port } = await startServer(join(warehouse, 'catalog'));
  const catalog = new IcebergRestCatalog({ baseUrl: `http://127.0.0.1:${port}`, auth: { type: 'none' } });
  const other = new IcebergRestCatalog({ baseUrl: `http://127.0.0.1:${port}`, auth: { type: 'none' } });
  const ns = { namespace: ['analytics'] };
  const table = { namespace: ['analytics'], name: 'events' };
  try {
    await namespaceCalls(catalog, ns);
    await tableCalls(catalog, other, ns, table);
    await dropCalls(catalog, ns, table);
  } finally {
    server.kill('SIGINT');
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', resolve)));
    rmSync(warehouse, { recursive: true, force: true });
  }
  const version = JSON.parse(readFileSync(new URL('./node_modules/iceberg-js/package.json', import.meta.url))).version;
  console.log(`iceberg-js ${version} on Node.js ${process.version}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed === 21 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
