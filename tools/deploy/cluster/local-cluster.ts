/**
 * A Kubernetes control plane of one kube-apiserver and its etcd, on loopback, for the chart's
 * install and upgrade test: it stores and admits objects as a cluster does (validation, defaults,
 * admission, server-side dry run, `lookup`), but runs no controller, scheduler or kubelet, so no
 * pod is ever made or run. Both are built from their Go modules (tools/test/go-tools.ts).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { freePort } from '@tailsync/service-kit/testing';
import { stopStaleProcess, type ProcessRecord } from '../../process/stale-process';
import { startSupervisedProcess, type SupervisedProcess } from '../../process/supervised-process';
import { builtTool } from '../../test/built-tools';

export interface LocalCluster {
  /** A kubeconfig file for the cluster's admin (group system:masters), which Helm reads. */
  kubeconfig: string;
  /** A call to the API as that admin: its status and parsed JSON body. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 180_000;

export async function startLocalCluster(dir: string): Promise<LocalCluster> {
  const [etcd, apiserver] = await Promise.all([builtTool('etcd'), builtTool('kube-apiserver')]);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const [clientPort, peerPort, securePort] = [await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${clientPort}`;
  const etcdRecord: ProcessRecord = { name: `etcd on 127.0.0.1:${clientPort}`, pidFile: join(dir, 'etcd.pid'), identity: [etcd, dir], stop: { signal: 'SIGTERM', graceMs: 10_000 } };
  await stopStaleProcess(etcdRecord);
  const etcdProcess = await startSupervisedProcess({
    ...etcdRecord,
    command: etcd,
    args: [
      '--data-dir', join(dir, 'etcd'),
      '--listen-client-urls', etcdUrl, '--advertise-client-urls', etcdUrl,
      '--listen-peer-urls', `http://127.0.0.1:${peerPort}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peerPort}`,
      '--initial-cluster', `default=http://127.0.0.1:${peerPort}`,
      // A test's store, thrown away after it: no fsync on a shared, loaded disk.
      '--unsafe-no-fsync', '--log-level', 'warn',
    ],
    cwd: dir,
    output: { file: join(dir, 'etcd.log') },
    ready: { probe: () => httpOk(`${etcdUrl}/health`), intervalMs: 500, timeoutMs: START_TIMEOUT_MS },
    signalOnParentExit: 'SIGKILL',
  });

  const token = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${token},admin,admin,"system:masters"\n`, { mode: 0o600 });
  // Signs service-account tokens (no pod asks for one here, but the server needs the pair).
  const serviceAccount = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(dir, 'service-account.key'), serviceAccount.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(dir, 'service-account.pub'), serviceAccount.publicKey.export({ type: 'spki', format: 'pem' }));
  const certDir = join(dir, 'certs');
  const apiRecord: ProcessRecord = { name: `kube-apiserver on 127.0.0.1:${securePort}`, pidFile: join(dir, 'kube-apiserver.pid'), identity: [apiserver, dir], stop: { signal: 'SIGTERM', graceMs: 15_000 } };
  let ca: Buffer | undefined;
  const api = (method: string, path: string, body?: unknown) => call(securePort, token, ca, method, path, body);
  let apiProcess: SupervisedProcess;
  try {
    await stopStaleProcess(apiRecord);
    apiProcess = await startSupervisedProcess({
      ...apiRecord,
      command: apiserver,
      args: [
        '--etcd-servers', etcdUrl,
        '--bind-address', '127.0.0.1', '--advertise-address', '127.0.0.1', '--secure-port', String(securePort),
        // No `kubernetes` Service endpoints: they may not be a loopback address, and no pod needs them here.
        '--endpoint-reconciler-type', 'none',
        // A self-signed serving certificate for 127.0.0.1, made at start.
        '--cert-dir', certDir,
        '--token-auth-file', join(dir, 'tokens.csv'),
        '--authorization-mode', 'RBAC',
        '--service-account-issuer', 'https://kubernetes.default.svc.cluster.local',
        '--service-account-key-file', join(dir, 'service-account.pub'),
        '--service-account-signing-key-file', join(dir, 'service-account.key'),
        '--service-cluster-ip-range', '10.96.0.0/16',
      ],
      cwd: dir,
      output: { file: join(dir, 'kube-apiserver.log') },
      ready: {
        probe: async () => {
          ca ??= readFileSync(join(certDir, 'apiserver.crt'));
          const { status } = await api('GET', '/readyz');
          if (status !== 200) throw new Error(`/readyz answered ${status}`);
        },
        intervalMs: 1_000,
        timeoutMs: START_TIMEOUT_MS,
      },
      signalOnParentExit: 'SIGKILL',
    });
  } catch (error) {
    await etcdProcess.stop();
    throw error;
  }

  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'local', cluster: { server: `https://127.0.0.1:${securePort}`, 'certificate-authority': join(certDir, 'apiserver.crt') } }],
    users: [{ name: 'admin', user: { token } }],
    contexts: [{ name: 'local', context: { cluster: 'local', user: 'admin' } }],
    'current-context': 'local',
  }), { mode: 0o600 });
  return {
    kubeconfig,
    api,
    stop: async () => {
      await apiProcess.stop();
      await etcdProcess.stop();
    },
  };
}

async function httpOk(url: string): Promise<void> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
}

/** One HTTPS call to the API server, trusting its own certificate (none yet while it starts). */
function call(port: number, token: string, ca: Buffer | undefined, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  if (!ca) return Promise.reject(new Error('the API server has not written its certificate yet'));
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, ca, headers: { Authorization: `Bearer ${token}`, ...(payload ? { 'Content-Type': 'application/json' } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON (/readyz answers "ok") */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
