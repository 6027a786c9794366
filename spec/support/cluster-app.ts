// A child process for the cluster spec: serveCluster with 2 workers on a port the primary picks
// (bind(0)). The primary prints one line per event on stdout; the workers print one per slow call:
//   READY <id> <pid> <port>                    a worker listens
//   EXIT <id> <pid> <code> <signal> <unexpected> <crashes|-> <restartInMs|->
//   STARTED <n> <pid>                          a worker began GET /slow?n=<n>
//   SUPERVISING                                serveCluster was called in the primary (its signal handlers are on)
//   STOPPED                                    serveCluster resolved (exit code 0)
//   FAILED <reason> <message>                  serveCluster rejected (exit code 1)
//   FAILED-EXITS <pid>…                        the pids of the ClusterError's exits
// CLUSTER_FAIL=1 makes every worker's server() throw (the crash loop). CLUSTER_MAX_CRASHES=<n> sets
// maxCrashes (default: the library's, no give-up). CLUSTER_LOG=default leaves onWorkerExit to the
// library (its line on stderr per exit) instead of the EXIT lines.
import cluster from 'node:cluster';
import { HttpServer, serveCluster, type ClusterError, type ClusterWorkerExit } from '../../transports/http/index.ts';

const fail = process.env.CLUSTER_FAIL === '1';
const maxCrashes =
  process.env.CLUSTER_MAX_CRASHES === undefined ? {} : { maxCrashes: Number(process.env.CLUSTER_MAX_CRASHES) };
const onWorkerExit =
  process.env.CLUSTER_LOG === 'default'
    ? {}
    : {
        onWorkerExit: (w: ClusterWorkerExit) =>
          console.log(
            `EXIT ${w.id} ${w.pid} ${w.code} ${w.signal} ${w.unexpected} ${w.crashes ?? '-'} ${w.restartInMs ?? '-'}`,
          ),
      };

function app(): HttpServer {
  if (fail) throw new Error('configured to fail');
  return (
    new HttpServer({ drainTimeoutMs: 5_000 })
      .get('/pid', (_req, res) => void res.json(process.pid))
      // Takes `ms` milliseconds (default 300): what a drain must wait for.
      .get('/slow', async (req, res) => {
        const n = req.query.get('n');
        console.log(`STARTED ${n} ${process.pid}`);
        await new Promise((resolve) => setTimeout(resolve, Number(req.query.get('ms') ?? 300)));
        res.json({ n, pid: process.pid });
      })
      // Answers, then throws from a timer: an uncaught exception ends the worker.
      .get('/crash', (_req, res) => {
        setTimeout(() => {
          throw new Error('crash requested');
        }, 20);
        res.json(process.pid);
      })
      .bind(0)
  );
}

serveCluster({
  workers: 2,
  server: app,
  restartDelayMs: fail ? 20 : 200,
  maxRestartDelayMs: 200,
  ...maxCrashes,
  crashWindowMs: 30_000,
  stopTimeoutMs: 10_000,
  onWorkerReady: (w) => console.log(`READY ${w.id} ${w.pid} ${w.port}`),
  ...onWorkerExit,
}).then(
  () => console.log('STOPPED'),
  (error: ClusterError) => {
    console.log(`FAILED ${error.reason} ${error.message}`);
    console.log(`FAILED-EXITS ${error.exits.map((e) => e.pid).join(' ')}`);
    process.exitCode = 1;
  },
);
if (cluster.isPrimary) console.log('SUPERVISING');
