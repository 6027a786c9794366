// The HTTP bench's server processes load their own stack alone, and a side-by-side run's control
// pair and rounds are read as the bench prints them. Behaviour only: no timing.
import { expect } from 'chai';
import { builtinModules } from 'node:module';
import { buildServer } from '../../bench/http/build-child.ts';
import { CONTROL_BAND, control, controlLine } from '../../bench/http/control.ts';
import { ServerProcess } from '../../bench/http/processes.ts';
import { roundOrder, sharedWindow, type Measured, type RoundSample } from '../../bench/http/rounds.ts';
import { SERVER_KINDS, stackViolations, type ServerKind } from '../../bench/http/server-kinds.ts';
import { benchNode, nodeOption } from '../../bench/node-binary.ts';

const BUILTINS = new Set(builtinModules);
const packagesOf = (externals: readonly string[]) => externals.filter((e) => !e.startsWith('node:'));

describe('bench/http: each server process loads its own stack alone', function () {
  this.timeout(60_000);

  for (const kind of Object.keys(SERVER_KINDS) as ServerKind[]) {
    it(`bundles ${kind} with nothing of another contender`, async () => {
      const bundle = await buildServer(kind);
      expect(stackViolations(kind, bundle.inputs, bundle.externals, BUILTINS)).to.deep.equal([]);
      const stack = SERVER_KINDS[kind].stack;
      if (stack !== 'lacquer') {
        expect(
          bundle.inputs.filter((i) => i !== '<stdin>' && !i.startsWith('bench/http/')),
          'no lacquer source',
        ).to.deep.equal([]);
        expect(bundle.inputs).to.not.include('bench/http/data.ts');
      }
      if (stack !== 'fastify') expect(bundle.externals).to.not.include('fastify');
      if (kind !== 'lacquer+otel')
        expect(bundle.externals.filter((e) => e.startsWith('@opentelemetry/'))).to.deep.equal([]);
    });
  }

  it('bundles Fastify with fastify as its one package, node:http with none, lacquer with its own source and no package', async () => {
    expect(packagesOf((await buildServer('fastify')).externals)).to.deep.equal(['fastify']);
    expect(packagesOf((await buildServer('node:http')).externals)).to.deep.equal([]);
    const lacquer = await buildServer('lacquer');
    expect(packagesOf(lacquer.externals)).to.deep.equal([]);
    expect(lacquer.inputs).to.include('bench/http/servers/lacquer.ts').and.include('index.ts');
    expect(lacquer.inputs.filter((i) => i.startsWith('bench/http/servers/'))).to.deep.equal([
      'bench/http/servers/lacquer.ts',
    ]);
    expect(packagesOf((await buildServer('lacquer+otel')).externals)).to.include('@opentelemetry/sdk-trace-base');
  });

  it('names what a bundle would load of another contender', () => {
    const shared = ['<stdin>', 'bench/http/child.ts', 'bench/http/plain.ts', 'bench/http/servers/types.ts'];
    expect(
      stackViolations(
        'fastify',
        [...shared, 'bench/http/servers/fastify.ts', 'bench/http/data.ts', 'codecs/json/index.ts'],
        ['fastify', 'node:http'],
        BUILTINS,
      ),
    )
      .to.have.length(2)
      .and.satisfy(
        (lines: string[]) => lines[0]!.startsWith('bench/http/data.ts') && lines[1]!.startsWith('codecs/json/index.ts'),
      );
    expect(
      stackViolations(
        'fastify',
        [...shared, 'bench/http/servers/fastify.ts'],
        ['fastify', 'fastify/lib/x.js', 'ajv', 'http'],
        BUILTINS,
      ),
    ).to.deep.equal(["package ajv: not in fastify's stack (fastify)"]);
    expect(
      stackViolations('node:http', [...shared, 'bench/http/servers/node-http.ts'], ['node:http'], BUILTINS),
    ).to.deep.equal([]);
    expect(
      stackViolations(
        'lacquer',
        [...shared, 'index.ts', 'bench/http/servers/lacquer.ts', 'bench/http/servers/fastify.ts'],
        ['fastify', '@opentelemetry/api'],
        BUILTINS,
      ),
    ).to.deep.equal([
      "bench/http/servers/fastify.ts: another server's module",
      "package fastify: not in lacquer's stack (no package)",
      "package @opentelemetry/api: not in lacquer's stack (no package)",
    ]);
    expect(
      stackViolations(
        'lacquer+otel',
        ['../other/bench/http/servers/lacquer-otel.ts', '../other/bench/http/servers/lacquer.ts', '../other/index.ts'],
        ['@opentelemetry/sdk-trace-base'],
        BUILTINS,
      ),
    ).to.deep.equal([]);
  });

  it('runs a server on the Node binary it is given, and says which', async () => {
    const node = benchNode(process.execPath);
    expect(node.version).to.equal(process.version);
    const server = await ServerProcess.start('node:http', [], { node: node.path });
    try {
      expect(server.nodeVersion).to.equal(process.version);
      expect((await fetch(`${server.url}/api/listUsers`)).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses a --node= that is not a Node binary, and reads none when there is no --node=', () => {
    expect(() => benchNode('/nonexistent/node')).to.throw('--node=/nonexistent/node: no such file');
    expect(nodeOption(['fastify', '--together'])).to.equal(undefined);
    expect(nodeOption([`--node=${process.execPath}`])?.version).to.equal(process.version);
  });
});

describe('bench/http: control pair and rounds', () => {
  const round = (requestsPerSec: number, startMs = 0, finishMs = 1000): RoundSample => ({
    requestsPerSec,
    p50Ms: 1,
    p99Ms: 2,
    cpuMicrosPerRequest: 10,
    bytesPerRequest: 100,
    startMs,
    finishMs,
  });
  const measured = (...rounds: RoundSample[]): Measured => ({ ...rounds[0]!, name: 'x', rounds });

  it('trusts a control pair within 1.00 ± 0.03 and says plainly when it is outside', () => {
    const within = control(measured(round(103), round(99), round(101)), measured(round(100), round(100), round(100)));
    expect(within).to.include({ ratio: 1.01, trusted: true });
    expect(within.rounds).to.deep.equal([1.03, 0.99, 1.01]);
    expect(controlLine('lacquer', within)).to.include('1.01x').and.include(`within 1.00 ± ${CONTROL_BAND}`);
    const outside = control(measured(round(100), round(100)), measured(round(90), round(92)));
    expect(outside.trusted).to.equal(false);
    expect(controlLine('lacquer', outside)).to.include('OUTSIDE 1.00 ± 0.03').and.include('not to be trusted');
    expect(control(measured(round(97)), measured(round(100))).trusted, '0.97 is within').to.equal(true);
    expect(control(measured(round(96)), measured(round(100))).trusted, '0.96 is not').to.equal(false);
  });

  it('alternates the order of the targets from round to round', () => {
    expect([0, 1, 2, 3].map((r) => roundOrder(3, r))).to.deep.equal([
      [0, 1, 2],
      [2, 1, 0],
      [0, 1, 2],
      [2, 1, 0],
    ]);
  });

  it('tells how much of each round the load runs shared', () => {
    expect(sharedWindow([measured(round(1, 0, 1000)), measured(round(1, 0, 1000))])).to.equal(1);
    // Round 2: the runs overlap from 100 to 1000, over a span from 0 to 1100.
    const shared = sharedWindow([
      measured(round(1, 0, 1000), round(1, 0, 1000)),
      measured(round(1, 0, 1000), round(1, 100, 1100)),
    ]);
    expect(shared).to.be.closeTo(900 / 1100, 1e-9);
  });
});
