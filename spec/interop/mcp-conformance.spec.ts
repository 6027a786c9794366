// A conformance suite we did not write: @modelcontextprotocol/conformance's server scenarios
// against an MCP registry on HttpServer. The tool itself needs Node 22 (fs.globSync), so it runs
// under Bun, found as spec/runtimes finds it. Every server scenario is either run, each of its
// checks required to pass, or listed below with why it does not apply to a stateless server of
// tools, so that a scenario added by a new version of the suite is noticed.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpError, MCP, Registry, meta, method, service, t } from '../../index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { ROOT, requireBinary } from '../support/runtime-binaries.ts';
import { run } from './curl.ts';

const CONFORMANCE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The scenarios a stateless, tools-only server cannot pass, and why. */
const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'logging-set-level': 'no logging capability',
  'completion-complete': 'no completions capability',
  'tools-call-image': 'a tool answers its value as JSON text (and structuredContent), never an image',
  'tools-call-audio': 'a tool answers its value as JSON text, never audio',
  'tools-call-embedded-resource': 'no resources',
  'tools-call-mixed-content': 'a tool answers one text item',
  'tools-call-with-logging': 'no notifications to the client: answers are JSON, never an event stream',
  'tools-call-with-progress': 'no notifications to the client: answers are JSON, never an event stream',
  'tools-call-sampling': 'no requests to the client (sampling): stateless, answers are JSON',
  'tools-call-elicitation': 'no requests to the client (elicitation): stateless, answers are JSON',
  'elicitation-sep1034-defaults': 'no requests to the client (elicitation)',
  'elicitation-sep1330-enums': 'no requests to the client (elicitation)',
  'server-sse-polling': 'answers are JSON, never an event stream',
  'server-sse-multiple-streams': 'answers are JSON, never an event stream; GET is 405',
  'resources-list': 'no resources',
  'resources-read-text': 'no resources',
  'resources-read-binary': 'no resources',
  'resources-templates-read': 'no resources',
  'resources-subscribe': 'no resources',
  'resources-unsubscribe': 'no resources',
  'prompts-list': 'no prompts',
  'prompts-get-simple': 'no prompts',
  'prompts-get-with-args': 'no prompts',
  'prompts-get-embedded-resource': 'no prompts',
  'prompts-get-with-image': 'no prompts',
};

/** The scenarios run: each check of each must pass. */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-error',
  'json-schema-2020-12',
  'dns-rebinding-protection',
];

const Address = t.object({ street: t.string(), city: t.string() }, { name: 'address' });

/** The tools the scenarios call by name. */
class ConformanceTools {
  test_simple_text(): string {
    return 'This is a simple text response for testing.';
  }
  test_error_handling(): string {
    throw new HttpError(409, 'This tool always fails.');
  }
  json_schema_2020_12_tool({ name, address }: { name: string; address: { street: string; city: string } }): {
    greeting: string;
  } {
    return { greeting: `${name} of ${address.city}` };
  }
}
meta(
  ConformanceTools,
  service({
    test_simple_text: method([], t.string(), { description: 'Answers a fixed text.' }),
    test_error_handling: method([], t.string(), { description: 'Always fails.' }),
    json_schema_2020_12_tool: method({ name: t.string(), address: Address }, t.object({ greeting: t.string() }), {
      description: 'Tool with JSON Schema 2020-12 features',
    }),
  }),
);

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

describe('interop: the MCP conformance suite against an MCP registry (under Bun)', function () {
  this.timeout(120_000);
  let bun: string;
  let server: HttpServer;
  let url: string;

  before(async () => {
    bun = requireBinary('bun');
    server = new HttpServer().bind(0, '127.0.0.1');
    await server.start();
    const { port } = new URL(server.url);
    // As a local server is configured: pages of this machine's own origin may call it.
    const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
    server.mount(
      '/mcp',
      new Registry({ mcp: { name: 'lacquer-conformance', origins } }, MCP).on(new ConformanceTools()).endpoints,
    );
    url = `${server.url}/mcp`;
  });
  after(() => server?.stop());

  it('lists every server scenario as run or not applicable', async () => {
    const { stdout } = await run(bun, [CONFORMANCE, 'list'], { cwd: ROOT });
    const server = stdout.slice(stdout.indexOf('Server scenarios'), stdout.indexOf('Client scenarios'));
    const scenarios = [...server.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
    expect(scenarios).to.include.members(APPLICABLE);
    expect(
      scenarios.filter((s) => !APPLICABLE.includes(s) && NOT_APPLICABLE[s] === undefined),
      'scenarios neither run nor explained',
    ).to.deep.equal([]);
  });

  for (const scenario of APPLICABLE) {
    it(`passes every check of ${scenario}`, async () => {
      const out = mkdtempSync(join(tmpdir(), 'lacquer-mcp-conformance-'));
      await run(bun, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', out], { cwd: ROOT }).catch(
        (e: { stdout?: string }) => e,
      );
      const [dir] = readdirSync(out);
      expect(dir, `no results written for ${scenario}`).to.be.a('string');
      const checks = JSON.parse(readFileSync(join(out, dir!, 'checks.json'), 'utf8')) as Check[];
      expect(checks).to.not.be.empty;
      const failed = checks
        .filter((c) => c.status !== 'SUCCESS')
        .map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`);
      expect(failed).to.deep.equal([]);
    });
  }
});
