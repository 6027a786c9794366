// The layers point one way (docs/architecture.md): core at the bottom, codecs above it, the
// protocol-neutral layer (transports/protocol) above the codecs, each protocol above it (REST and
// JSON-RPC, then MCP over JSON-RPC), the registry above the protocols, and the adapters (node
// server, fetch handler, client, telemetry) on top, none importing another; the package root, index.ts (`lacquerjs`), sits above them all and no shipped
// module imports it. Only the node adapter touches node:*. An import that runs back up (type-only
// ones too), or a cycle of value imports, fails here. Inside core/ the parts are layered the same
// way (CORE_LAYERS), with each import that runs back up named in CORE_EXCEPTIONS with its reason.
import { expect } from 'chai';
import { build } from 'esbuild';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The `lacquerjs` entry: core, the protocols and the registry in one import. */
const ROOT_ENTRY = 'index.ts';

/**
 * Each shipped folder, lowest layer first, and the root entry above them; a module may import its
 * own folder and lower layers.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['codecs'],
  // What every protocol, adapter and the client share: it names no protocol.
  ['transports/protocol'],
  // One folder per protocol; MCP's tools are JSON-RPC calls.
  ['transports/rest', 'transports/jsonrpc'],
  ['transports/mcp'],
  // Services turned into one protocol's routes.
  ['transports/registry'],
  ['transports/http', 'transports/fetch', 'transports/client', 'transports/otel'],
  [ROOT_ENTRY],
];

/**
 * The parts of core/ (a folder, or a file directly in core/), lowest layer first; a module may
 * import its own part and the parts of lower layers, type-only imports included. Parts of one
 * layer do not import one another.
 */
const CORE_LAYERS: readonly (readonly string[])[] = [
  // Helpers that know no descriptor (base64, `__proto__`-safe entries, per-depth tables, the bounded
  // memo of outside texts), and the reading and writing options with their defaults.
  ['util', 'options.ts'],
  // The rules of each scalar kind and of the constraints, with their data (ranges, formats).
  ['kinds'],
  // `t.*`: the descriptor classes.
  ['descriptors'],
  // `Failure`, `ReadError`, `WriteError`, `HttpError`, the codes and JSON Pointers.
  ['errors'],
  // The per-descriptor cache of what is compiled (closures and generated code alike), and the
  // support for generated code (`buildFunction`, `fastPath`, `generatedSource`).
  ['compiled.ts', 'codegen'],
  // The read pass and the writers' checks; the `Codec` interface and service contracts, which
  // build on descriptors and which the layers above core implement.
  ['read', 'write', 'codec.ts', 'contract'],
  // JSON Schema, which agrees with reading.
  ['schema'],
  // Standard Schema: validation of plain values with the read pass.
  ['standard-schema.ts'],
];

/** The imports inside core/ that run back up a layer, each with why that is the right design. */
const CORE_EXCEPTIONS: readonly { readonly from: string; readonly to: string; readonly why: string }[] = [
  {
    from: 'core/descriptors/type.ts',
    to: 'core/standard-schema.ts',
    why:
      'Standard Schema v1 asks for the `~standard` member on the schema object itself, so every descriptor has the getter; ' +
      'what it returns reads with the read pass, which stands above the descriptors. The getter runs only when called.',
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  readonly specifier: string;
  /** Repository-relative path of a relative import's target. */
  readonly target: string | undefined;
  /** `import type` / `export type`: erased at run time. */
  readonly typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const source = readFileSync(join(root, file), 'utf8');
  return [...source.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)].map(
    ([, type, specifier]) => ({
      specifier: specifier!,
      target: specifier!.startsWith('.') ? relative(root, resolve(join(root, dirname(file)), specifier!)) : undefined,
      typeOnly: type !== undefined,
    }),
  );
}

/** The group (a folder of LAYERS) holding `file`, and its layer. */
function placeOf(file: string): { group: string; layer: number } {
  for (const [layer, groups] of LAYERS.entries()) {
    for (const group of groups) if (file === group || file.startsWith(`${group}/`)) return { group, layer };
  }
  throw new Error(`${file} is in no layer`);
}

/** The part of core/ holding `file` (`kinds`, `options.ts`), and its layer (-1 when it is in none). */
function corePlaceOf(file: string): { part: string; layer: number } {
  const part = file.slice('core/'.length).split('/')[0]!;
  return { part, layer: CORE_LAYERS.findIndex((parts) => parts.includes(part)) };
}

const files = [ROOT_ENTRY, ...['core', 'codecs', 'transports'].flatMap(sourceFiles)];
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('layers', () => {
  it('finds the shipped modules and their imports', () => {
    expect(files).to.include.members([
      ROOT_ENTRY,
      'core/errors/read-error.ts',
      'codecs/json/index.ts',
      'transports/registry/registry.ts',
      'transports/http/server.ts',
    ]);
    expect(graph.get('transports/http/server.ts')!.some((i) => i.specifier === 'node:http')).to.equal(true);
  });

  it('every import points to the same folder or a lower layer: nothing in core/ or codecs/ imports transports/, adapters do not import one another, no shipped module imports the root index.ts', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = placeOf(file);
      for (const { target } of imports) {
        if (target === undefined) continue;
        const to = placeOf(target);
        const ok = to.layer < from.layer || to.group === from.group;
        if (!ok) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('inside core/, every import (type-only ones too) points to its own part or a lower layer, but for the named exceptions', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      if (!file.startsWith('core/')) continue;
      const from = corePlaceOf(file);
      if (from.layer < 0) wrong.push(`${file} is in no layer of core/`);
      for (const { target } of imports) {
        if (target === undefined) continue;
        const to = corePlaceOf(target);
        const ok =
          to.part === from.part ||
          (to.layer >= 0 && to.layer < from.layer) ||
          CORE_EXCEPTIONS.some((e) => e.from === file && e.to === target);
        if (!ok) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('each exception inside core/ is an import that runs back up, with its reason', () => {
    for (const { from, to, why } of CORE_EXCEPTIONS) {
      expect(
        graph.get(from)?.some(({ target }) => target === to),
        `${from} imports ${to}`,
      ).to.equal(true);
      expect(corePlaceOf(to).layer, `${from} → ${to} runs back up`).to.be.above(corePlaceOf(from).layer);
      expect(why).not.to.equal('');
    }
  });

  it('the root index.ts re-exports core/ and transports/registry/ only (no codec, no adapter)', () => {
    const reached = graph.get(ROOT_ENTRY)!.map(({ target }) => target ?? '');
    expect(reached).not.to.deep.equal([]);
    expect(reached.filter((target) => !/^(core|transports\/registry)\//.test(target))).to.deep.equal([]);
  });

  it('the platform adapters (transports/http, transports/fetch) import transports/protocol/ only, of the transports', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      if (!/^transports\/(http|fetch)\//.test(file)) continue;
      for (const { target } of imports) {
        if (target === undefined || !target.startsWith('transports/')) continue;
        if (
          !target.startsWith('transports/protocol/') &&
          !target.startsWith(file.split('/').slice(0, 2).join('/') + '/')
        )
          wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('only transports/http imports node:*, and nothing but transports/otel (@opentelemetry/api, an optional peer) imports a package at run time', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      for (const { specifier, typeOnly } of imports) {
        if (specifier.startsWith('.')) continue;
        const nodeInHttp = specifier.startsWith('node:') && file.startsWith('transports/http/');
        const otelApi = specifier === '@opentelemetry/api' && file.startsWith('transports/otel/');
        if (!nodeInHttp && !otelApi && !typeOnly) wrong.push(`${file} → ${specifier}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('no cycle of imports, type-only ones included, but through the named exceptions', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const { target } of graph.get(file) ?? []) {
        if (target === undefined || CORE_EXCEPTIONS.some((e) => e.from === file && e.to === target)) continue;
        visit(target, [...trail, file]);
      }
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).to.deep.equal([]);
  });

  it('`import { t }` alone bundles no code generation', async () => {
    const result = await build({
      stdin: { contents: "export { t } from './index.ts';", resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
      bundle: true,
      write: false,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      metafile: true,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    const used = Object.entries(result.metafile.outputs).flatMap(([, output]) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    );
    expect(used.filter((p) => /generate|codegen|codecs\/|transports\//.test(p))).to.deep.equal([]);
    expect(code).not.to.include('new Function');
  });
});
