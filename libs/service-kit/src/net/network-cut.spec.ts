/**
 * The fault suite's network cut on real processes: a TCP echo server in a child process, a
 * connection made before the cut and one tried during it, both silent while cut (no refusal, no
 * reset: packets are dropped, as in a partition), both working again once healed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { freePort } from './free-port.test-support';
import { cutOff } from './network-cut.test-support';

const ECHO = `
const server = require('node:net').createServer((socket) => socket.pipe(socket));
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

let server: ChildProcess;
let port: number;

beforeAll(async () => {
  server = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise<number>((resolve) => server.stdout!.once('data', (data: Buffer) => resolve(Number(data.toString().trim()))));
});

afterAll(() => {
  server.kill('SIGKILL');
});

/** Whether `text` comes back over `socket` within `ms`. */
function echoes(socket: Socket, text: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    let got = '';
    const onData = (data: Buffer) => {
      got += data.toString();
      if (got.includes(text)) done(true);
    };
    const timer = setTimeout(() => done(false), ms);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.off('data', onData);
      resolve(ok);
    };
    socket.on('data', onData);
    socket.write(text);
  });
}

/** Whether a new connection is made within `ms` (a cut drops the SYN: neither made nor refused). */
function connects(ms: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => resolve(undefined));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, ms);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

it('silences the connections a process has and the ones tried while it is cut, and heals them', async () => {
  const before = (await connects(5_000))!;
  expect(await echoes(before, 'one', 5_000)).toBe(true);

  const cut = cutOff(server.pid!, `spec-${process.pid}`);
  try {
    expect(await echoes(before, 'two', 1_500)).toBe(false);
    expect(await connects(1_500)).toBeUndefined();
  } finally {
    await cut.heal();
  }
  // The connection made before carries on (TCP retransmits what was dropped); new ones are made.
  expect(await echoes(before, 'three', 10_000)).toBe(true);
  const after = (await connects(5_000))!;
  expect(await echoes(after, 'four', 5_000)).toBe(true);
  before.destroy();
  after.destroy();
});

it('with ports, cuts only the connections to those ports', async () => {
  const other = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const otherPort = await new Promise<number>((resolve) => other.stdout!.once('data', (data: Buffer) => resolve(Number(data.toString().trim()))));
    // This test process is the one cut: from `port` only, not from `otherPort`.
    const toCut = (await connects(5_000))!;
    const toKeep = connect(otherPort, '127.0.0.1');
    await new Promise((resolve) => toKeep.once('connect', resolve));
    const cut = cutOff(process.pid, `spec-ports-${process.pid}`, [port]);
    try {
      expect(await echoes(toKeep, 'kept', 5_000)).toBe(true);
      expect(await echoes(toCut, 'cut', 1_500)).toBe(false);
    } finally {
      await cut.heal();
    }
    expect(await echoes(toCut, 'healed', 10_000)).toBe(true);
    toCut.destroy();
    toKeep.destroy();
  } finally {
    other.kill('SIGKILL');
  }
});

const HOLDS_A_CONNECTION = `
const socket = require('node:net').connect({ port: Number(process.argv[1]), host: '127.0.0.1', localPort: Number(process.argv[2]) });
socket.on('connect', () => process.stdout.write('connected\\n'));
socket.on('error', (error) => process.stdout.write(error.message + '\\n'));
`;

it("leaves alone another process's connection that shares the cut one's ephemeral port, to another far end", async () => {
  // Linux lets two connections share a local port when their far ends differ (both bound with
  // SO_REUSEADDR here, as connect() may choose on its own): a rule on the port alone cuts both.
  const shared = await freePort();
  const holder = spawn(process.execPath, ['-e', HOLDS_A_CONNECTION, String(port), String(shared)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const other = createServer((socket) => socket.pipe(socket));
  try {
    expect(await new Promise((resolve) => holder.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim())))).toBe('connected');
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const mine = connect({ port: (other.address() as AddressInfo).port, host: '127.0.0.1', localPort: shared });
    await new Promise((resolve, reject) => mine.once('connect', resolve).once('error', reject));
    const cut = cutOff(holder.pid!, `spec-shared-${process.pid}`);
    try {
      expect(await echoes(mine, 'through the cut', 3_000)).toBe(true);
    } finally {
      await cut.heal();
      mine.destroy();
    }
  } finally {
    holder.kill('SIGKILL');
    other.close();
  }
});
